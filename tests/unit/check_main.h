/*
 * check_main.h - the main() of every libcheck suite: one suite per library
 * module, one executable per suite, exit 1 if any test failed.
 */
#ifndef EMB_CHECK_MAIN_H
#define EMB_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

#define EMB_CHECK_MAIN(suitefn)						\
int									\
main(void)								\
{									\
	SRunner *sr = srunner_create(suitefn());			\
	int nf;								\
									\
	srunner_run_all(sr, CK_NORMAL);					\
	nf = srunner_ntests_failed(sr);					\
	srunner_free(sr);						\
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;			\
}

#endif /* EMB_CHECK_MAIN_H */
