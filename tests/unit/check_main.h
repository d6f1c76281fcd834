/*
 * check_main.h - the main() of every libcheck suite: one suite per library
 * module, one executable per suite, exit 1 if any test failed.
 *
 * No test depends on wall time: Check's per-test timer is off (a timeout
 * of 0, set before the suite creates its test cases), so a busy machine
 * is never a failure.  A test that loops is stopped by its CPU time
 * instead: each forked test may use EMB_CHECK_CPU seconds of it, which a
 * busy machine does not consume.
 */
#ifndef EMB_CHECK_MAIN_H
#define EMB_CHECK_MAIN_H

#include <sys/resource.h>

#include <check.h>
#include <stdlib.h>

#define EMB_CHECK_CPU	1800

#define EMB_CHECK_MAIN(suitefn)						\
int									\
main(void)								\
{									\
	struct rlimit rl = { EMB_CHECK_CPU, EMB_CHECK_CPU + 10 };	\
	SRunner *sr;							\
	int nf;								\
									\
	setenv("CK_DEFAULT_TIMEOUT", "0", 1);				\
	unsetenv("CK_TIMEOUT_MULTIPLIER");				\
	setrlimit(RLIMIT_CPU, &rl);					\
	sr = srunner_create(suitefn());					\
	srunner_run_all(sr, CK_NORMAL);					\
	nf = srunner_ntests_failed(sr);					\
	srunner_free(sr);						\
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;			\
}

#endif /* EMB_CHECK_MAIN_H */
