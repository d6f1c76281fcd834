/*
 * vec.c - vector helpers: scaling to unit length, in double.
 */
#include "num/emb-num.h"
#include "num/ref-num.h"
#include "base/vec.h"

#include <math.h>
#include <string.h>

int
emb_unit_to(const float *x, float *y, uint32_t dim)
{
	double q = sumsqf(x, dim);

	if (q == 0) {
		if (y != x)
			memcpy(y, x, (size_t)dim * sizeof(*y));
		return 0;
	}
	scalefl(x, y, 1 / sqrt(q), dim);
	return 1;
}

int
emb_unit(float *v, uint32_t dim)
{
	return emb_unit_to(v, v, dim);
}
