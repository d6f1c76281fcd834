/*
 * fuzz_ose.c - fuzz target: the OSE solver against its plain-loop twin.
 *
 * The input's first byte picks the dimension (1..40), the second the
 * number of members (1..70); the rest are the members' components, one
 * byte each, as small multiples of 1/8 in [-16, 16) (bytes run out: the
 * input is used again from its third byte, then zeros).  Small integers
 * make what a solver must get right happen often: zero members, repeats,
 * positive multiples, exact linear dependence, more members than
 * dimensions, u_N in the span of the differences.  Byte 0 bit 7 scales
 * every member by its own power of two (2^-20 .. 2^20): the OSE depends
 * on directions only.
 *
 * emb_ose (the fast route for well-conditioned groups, the pivoted
 * Householder route otherwise) must agree with emb_ose_ref (pivoted,
 * reorthogonalized Gram-Schmidt): the same counts of zero, repeated and
 * used members; a finite unit vector for a result; and, where the two
 * find the same rank, the same outcome, at the same common distance, and
 * a vector within a cosine of 1e-6 of the twin's (in the orthogonal case,
 * where the two may settle on different axes, one orthogonal to every
 * member).  Coarse members make exact dependences, and rounding can put
 * a diagonal of R, or a projection, right at its tolerance, where the
 * two may decide either way: a different rank, or a projection within a
 * factor 100 of the 1e-10 below which it is zero taken as a result by one
 * and as the orthogonal outcome by the other, are let pass; so is the
 * direction of a projection shorter than 1e-4, which rounding of that
 * size can turn.
 */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "ref.h"

#define DMAX	40
#define NMAX	70

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct emb_ose *os[DMAX + 1];
	static float v[NMAX * DMAX], x[DMAX];
	static double xr[DMAX];
	struct emb_ose_info in, rin;
	uint32_t dim;
	size_t n, p = 2;
	double c = 0, xx = 0, rr = 0;
	int rc, rrc, scale;

	if (size < 3)
		return 0;
	dim = 1 + (data[0] & 0x7f) % DMAX;
	scale = data[0] >> 7;
	n = 1 + data[1] % NMAX;
	for (size_t i = 0; i < n; i++) {
		float s = scale ? ldexpf(1, (int)(data[(2 + i) % size] % 41) -
		    20) : 1;

		for (uint32_t k = 0; k < dim; k++) {
			int8_t b = 0;

			if (p < size + size - 2) {
				b = (int8_t)data[p < size ? p : p - size + 2];
				p++;
			}
			v[i * dim + k] = s * (float)b / 8;
		}
	}
	if (os[dim] == NULL)
		CHECK(emb_ose_create(&os[dim], dim) == 0);
	rc = emb_ose(os[dim], v, n, x, &in);
	rrc = emb_ose_ref(v, n, dim, xr, &rin);
	CHECK(in.nzero == rin.nzero && in.ndup == rin.ndup &&
	    in.nuse == rin.nuse);
	if (rc == EMB_OSE_OK || rc == EMB_OSE_ORTH)
		for (uint32_t k = 0; k < dim; k++) {
			CHECK(isfinite(x[k]));
			xx += (double)x[k] * x[k];
		}
	if (rc == EMB_OSE_OK || rc == EMB_OSE_ORTH)
		CHECK(fabs(sqrt(xx) - 1) <= 1e-6);
	/* At a tolerance, either way (see the top). */
	if (in.rank != rin.rank)
		return 0;
	if (rc != rrc && (rc == EMB_OSE_OK || rc == EMB_OSE_ORTH) &&
	    (rrc == EMB_OSE_OK || rrc == EMB_OSE_ORTH)) {
		CHECK((rc == EMB_OSE_OK ? in.alpha : rin.alpha) >=
		    1 - 100 * EMB_OSE_PTOL);
		return 0;
	}
	CHECK(rc == rrc);
	if (rc != EMB_OSE_OK && rc != EMB_OSE_ORTH)
		return 0;
	xx = 0;
	for (uint32_t k = 0; k < dim; k++) {
		CHECK(isfinite(x[k]));
		c += x[k] * xr[k];
		xx += (double)x[k] * x[k];
		rr += xr[k] * xr[k];
	}
	CHECK(fabs(in.alpha - rin.alpha) <= 1e-6);
	if (rc == EMB_OSE_OK) {
		CHECK(1 - rin.alpha < 1e-4 || c / sqrt(xx * rr) >= 1 - 1e-6);
		return 0;
	}
	/*
	 * Orthogonal: the two may settle on different axes when one sits at
	 * the threshold; x must be orthogonal to every member.
	 */
	for (size_t i = 0; i < n; i++) {
		double d = 0, vv = 0;

		for (uint32_t k = 0; k < dim; k++) {
			d += (double)x[k] * v[i * dim + k];
			vv += (double)v[i * dim + k] * v[i * dim + k];
		}
		CHECK(vv == 0 || fabs(d) <= 1e-6 * sqrt(vv));
	}
	return 0;
}
