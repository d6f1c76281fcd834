/*
 * rows.c - emb-eval's classification rows: the training and test
 * streams read into one matrix, a second representation's checked
 * against them, each row's label, part and class.
 */
#include <sys/stat.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"

/* Two streams read side by side: lane l reads S[l] into D[l]. */
struct readtwo {
	struct flat	*D[2];
	struct flatsrc	*S[2];
};

static void
readlane(void *arg, int worker, size_t l, size_t r0, size_t r1)
{
	struct readtwo *R = arg;

	(void)worker;
	(void)r0;
	(void)r1;
	flatread(R->D[l], R->S[l], GROUPED, NULL, NULL);
}

/*
 * The training stream into D and the test stream (testpath; none if NULL)
 * after it, as one matrix; D->n counts the training rows, T is a view of
 * the test rows.  The arrays are sized for both files at once.  With
 * threads to spare and both inputs regular files, the two are read at
 * once, as two lanes of emb_par_run: the test rows into place after the
 * training rows' bound (a file's size bounds its records), then moved
 * down.  Otherwise the test stream
 * is opened once the training one is closed, so that its reader reuses
 * the memory of the first.
 */
static void
readboth(struct flat *D, struct flat *T, const char *trainpath,
    const char *testpath, int threads)
{
	struct flatsrc S, St;
	struct flat V;
	size_t ntr;
	struct stat st;
	struct readtwo R;
	int par;

	flatopen(&S, trainpath);
	memset(D, 0, sizeof(*D));
	memset(T, 0, sizeof(*T));
	D->name = S.name;
	D->dim = emb_reader_dim(S.r);
	if (testpath == NULL) {
		flatread(D, &S, GROUPED, NULL, NULL);
		return;
	}
	if (strcmp(testpath, "-") != 0 && stat(testpath, &st) == 0 &&
	    S_ISREG(st.st_mode))
		flatreserve(D, S.est + recmax(&st, D->dim));
	par = threads > 1 && S.est > 0 && D->cap > S.est;
	if (par) {
		flatopen(&St, testpath);
		if (emb_reader_dim(St.r) != D->dim)
			errx(1, "%s: dimension %u, %s has %u", St.name,
			    emb_reader_dim(St.r), D->name, D->dim);
		memset(&V, 0, sizeof(V));
		V.name = St.name;
		V.dim = D->dim;
		V.X = D->X + S.est * D->dim;
		V.keyoff = D->keyoff + S.est;
		V.keylen = D->keylen + S.est;
		V.cap = D->cap - S.est;
		V.fixed = D->fixed = 1;
		D->cap = S.est;
		R = (struct readtwo){ { D, &V }, { &S, &St } };
		emb_par_run(threads, 2, 2, readlane, &R);
		/* Close the gap; the test keys follow the training ones. */
		ntr = D->n;
		memmove(D->X + ntr * D->dim, V.X, V.n * D->dim * sizeof(float));
		memmove(D->keylen + ntr, V.keylen, V.n * sizeof(size_t));
		memmove(D->keyoff + ntr, V.keyoff, V.n * sizeof(size_t));
		for (size_t i = 0; i < V.n; i++)
			D->keyoff[ntr + i] += D->keys.len;
		xbufadd(&D->keys, V.keys.p, V.keys.len);
		D->n += V.n;
		D->cap = S.est + V.cap;
		D->fixed = 0;
		emb_buf_free(&V.keys);
	} else {
		flatread(D, &S, GROUPED, NULL, NULL);
		ntr = D->n;
		flatopen(&St, testpath);
		if (emb_reader_dim(St.r) != D->dim)
			errx(1, "%s: dimension %u, %s has %u", St.name,
			    emb_reader_dim(St.r), D->name, D->dim);
		flatread(D, &St, GROUPED, NULL, NULL);
	}
	*T = *D;
	T->name = St.name;
	T->X = D->X + ntr * D->dim;
	T->keyoff = D->keyoff + ntr;
	T->keylen = D->keylen + ntr;
	T->n = D->n - ntr;
	D->n = ntr;
}

static int
strpcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}


static int
uniq(char **v, size_t n)
{
	size_t m = 0;

	qsort(v, n, sizeof(*v), strpcmp);
	for (size_t i = 0; i < n; i++)
		if (m == 0 || strcmp(v[m - 1], v[i]) != 0)
			v[m++] = v[i];
	return (int)m;
}

static int
classof(const struct labels *L, const char *s)
{
	char *const *p;

	p = bsearch(&s, L->name, (size_t)L->ntrain, sizeof(char *), strpcmp);
	if (p != NULL)
		return (int)(p - L->name);
	p = bsearch(&s, L->name + L->ntrain, (size_t)(L->n - L->ntrain),
	    sizeof(char *), strpcmp);
	return p ? (int)(p - L->name) : -1;
}

/* lab[i], train[i] (nonzero for training rows): build the classes. */
static void
mklabels(struct labels *L, char **lab, size_t n, const char *intrain)
{
	char **v = xreallocarray(NULL, n ? n : 1, sizeof(char *));
	size_t m = 0, t;

	for (size_t i = 0; i < n; i++)
		if (intrain[i])
			v[m++] = lab[i];
	L->ntrain = uniq(v, m);
	t = 0;
	L->name = xreallocarray(NULL, n ? n : 1, sizeof(char *));
	memcpy(L->name, v, L->ntrain * sizeof(char *));
	L->n = L->ntrain;
	for (size_t i = 0; i < n; i++)
		if (!intrain[i]) {
			const char *s = lab[i];

			if (bsearch(&s, v, (size_t)L->ntrain, sizeof(char *),
			    strpcmp) == NULL)
				v[L->ntrain + t++] = lab[i];
		}
	L->n = L->ntrain + uniq(v + L->ntrain, t);
	memcpy(L->name + L->ntrain, v + L->ntrain,
	    (L->n - L->ntrain) * sizeof(char *));
	free(v);
}


/* Rows idx[0..m-1] of D into a new matrix. */
float *
rows(const struct flat *D, const size_t *idx, size_t m)
{
	float *X = xreallocarray(NULL, m ? m : 1, (size_t)D->dim *
	    sizeof(float));

	for (size_t i = 0; i < m; i++)
		memcpy(X + i * D->dim, D->X + idx[i] * D->dim,
		    D->dim * sizeof(float));
	return X;
}

/* Rows idx (increasing) of D: a view when they are contiguous, else a
 * copy (*copied set; free it). */
float *
rowsview(const struct flat *D, const size_t *idx, size_t m, int *copied)
{
	if (m > 0 && idx[m - 1] - idx[0] == m - 1) {
		*copied = 0;
		return D->X + idx[0] * D->dim;
	}
	*copied = 1;
	return rows(D, idx, m);
}

/* Load the rows of one representation: train (and test) streams. */
void
loadcdata(struct cdata *C, const char *trainpath, const char *testpath,
    int threads)
{
	readboth(&C->D, &C->T, trainpath, testpath, threads);
	C->n = C->D.n + (testpath ? C->T.n : 0);
	if (testpath == NULL)
		C->T.name = NULL;
}

/* The key of row i of C, which may be in its test stream. */
static const char *
rowkey(const struct cdata *C, size_t i, size_t *len)
{
	*len = C->D.keylen[i];
	return KEY(&C->D, i);
}

/* The second representation's rows: the same keys, in the same order. */
void
samekeys(const struct cdata *A, const struct cdata *B)
{
	if (A->D.dim == 0 && B->D.dim == 0)
		return;
	if (A->n != B->n)
		errx(1, "%s has %zu records, %s has %zu", A->D.name, A->n,
		    B->D.name, B->n);
	for (size_t i = 0; i < A->n; i++) {
		size_t la, lb;
		const char *ka = rowkey(A, i, &la), *kb = rowkey(B, i, &lb);

		if (la != lb || memcmp(ka, kb, la) != 0) {
			char qa[EMB_QUOTE_BUF], qb[EMB_QUOTE_BUF];
			const struct flat *F = i < B->D.n ? &B->D : &B->T;

			errx(1, "%s: record %zu: key '%s' does not match '%s' "
			    "in %s", F->name, i < B->D.n ? i + 1 :
			    i - B->D.n + 1, emb_quote(qb, kb, lb),
			    emb_quote(qa, ka, la), i < A->D.n ? A->D.name :
			    A->T.name);
		}
	}
}


/*
 * The label (key field labf) and part of each row of C: by the split
 * field splitf, else training for the rows of the training stream and
 * test for those of the test stream.
 */
void
rowparts(struct rowinfo *I, const struct cdata *C, unsigned labf,
    unsigned splitf, int cv)
{
	size_t n = C->n;

	I->lab = xreallocarray(NULL, n + 1, sizeof(char *));
	I->part = xreallocarray(NULL, n + 1, sizeof(int));
	I->intrain = xmalloc(n + 1);
	I->y = xreallocarray(NULL, n + 1, sizeof(int));
	for (size_t i = 0; i < n; i++) {
		const struct flat *src = &C->D;
		size_t ri = i;

		if (i >= C->D.n) {
			src = &C->T;
			ri = i - C->D.n;
		}
		I->lab[i] = field(src, ri, labf);
		I->part[i] = i < C->D.n ? TRAIN : TEST;
		if (splitf) {
			char *s = field(src, ri, splitf);

			if (strcmp(s, "train") == 0)
				I->part[i] = TRAIN;
			else if (strcmp(s, "dev") == 0)
				I->part[i] = DEV;
			else if (strcmp(s, "test") == 0)
				I->part[i] = TEST;
			else {
				char q[EMB_QUOTE_BUF];

				emb_quotes(q, s);
				free(s);
				errx(1, "%s: record %zu: split '%s' is not "
				    "train, dev or test", src->name, ri + 1, q);
			}
			free(s);
		}
		/* Every label is a class in cross-validation. */
		I->intrain[i] = I->part[i] == TRAIN || cv;
	}
}

/*
 * The classes of the rows' labels, and in cross-validation (cv) the kfold
 * folds drawn with seed; the split told as the protocol line tells it.
 */
void
rowclasses(struct rowinfo *I, const struct cdata *C, unsigned splitf,
    int kfold, int cv, uint64_t seed)
{
	size_t n = C->n;

	mklabels(&I->L, I->lab, n, I->intrain);
	for (size_t i = 0; i < n; i++)
		I->y[i] = classof(&I->L, I->lab[i]);
	if (cv) {
		if (n == 0)
			errx(1, "%s: no records", C->D.name);
		I->fold = xreallocarray(NULL, n + 1, sizeof(int));
		if (emb_folds(I->y, n, I->L.n, kfold, seed, I->fold) < 0)
			errx(2, "-k: %d folds", kfold);
	}
	if (I->L.ntrain == 0)
		errx(1, "%s: no training rows", C->D.name);
	if (I->fold)
		snprintf(I->split, sizeof(I->split), "cv:%d fold_seed=%llu",
		    kfold, (unsigned long long)seed);
	else if (splitf)
		snprintf(I->split, sizeof(I->split), "field:%u", splitf);
	else
		snprintf(I->split, sizeof(I->split), "test_stream");
}

void
rowinfofree(struct rowinfo *I, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(I->lab[i]);
	free(I->lab);
	free(I->L.name);
	free(I->part);
	free(I->intrain);
	free(I->y);
	free(I->fold);
}

