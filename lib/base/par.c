/*
 * par.c - the library's one thread runner, and the clock and processor
 * count the programs share.
 *
 * Row-parallel work is cut into lanes, a number that depends on the
 * problem only, never on the thread count: lane l holds rows
 * [n l / nlane, n (l + 1) / nlane) and owns its partial results, which the
 * caller combines in lane order afterwards, so that every thread count
 * gives the same bits.  Workers (the calling thread and up to nt - 1
 * others) take lanes in turn from an atomic counter: a worker that a busy
 * machine deschedules just takes fewer, and the only wait is the final
 * join.  A thread that cannot be started leaves its share to the others.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "base/emb-base.h"

struct par {
	emb_lanefn	*fn;
	void		*arg;
	size_t		 n, nlane;	/* rows, lanes */
	atomic_size_t	 next;		/* the next lane to take */
};

struct parw {
	struct par	*p;
	int		 w;		/* worker index, for its scratch */
	pthread_t	 tid;
	int		 started;
};

static void *
parwork(void *arg)
{
	struct parw *pw = arg;
	struct par *p = pw->p;
	size_t l;

	while ((l = atomic_fetch_add(&p->next, 1)) < p->nlane)
		p->fn(p->arg, pw->w, l, p->n * l / p->nlane,
		    p->n * (l + 1) / p->nlane);
	return NULL;
}

int
emb_par_workers(int nt, size_t nlane)
{
	if (nt > EMB_MAXTHREADS)
		nt = EMB_MAXTHREADS;
	if (nt < 1 || nlane < 1)
		return 1;
	return (size_t)nt < nlane ? nt : (int)nlane;
}

void
emb_par_run(int nt, size_t n, size_t nlane, emb_lanefn *fn, void *arg)
{
	struct par p;
	struct parw w[EMB_MAXTHREADS];
	int nw = emb_par_workers(nt, nlane);

	p.fn = fn;
	p.arg = arg;
	p.n = n;
	p.nlane = nlane;
	atomic_init(&p.next, 0);
	for (int t = 0; t < nw; t++) {
		w[t].p = &p;
		w[t].w = t;
		w[t].started = t > 0 && pthread_create(&w[t].tid, NULL,
		    parwork, &w[t]) == 0;
	}
	parwork(&w[0]);
	for (int t = 1; t < nw; t++)
		if (w[t].started)
			pthread_join(w[t].tid, NULL);
}

int
emb_ncpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > EMB_MAXTHREADS ? EMB_MAXTHREADS : (int)n;
}

double
emb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
