#!/bin/sh
# 09-chol.sh - the classifiers' recursive Cholesky factorization
# (emb_dchol_blis) beside LAPACK's dpotrf over the same BLIS, one thread
# each, at the sizes emb-eval factors: d x d primal systems of LDA and
# ridge (d = 50 .. 1000) and n x n duals (up to a few thousand).  Prints
# median seconds of CHOL_RUNS runs (5) per size and the ratio dpotrf /
# recursive (above 1: the recursive one is faster), and the largest
# difference between the two factors.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
B=$(dirname "$(command -v emb-eval)")
d=$BENCHDIR/chol
R=${CHOL_RUNS:-5}
mkdir -p "$d"
cc -O2 -I"$top/lib" -o "$d/chol" "$here/chol.c" "$B/libemb.a" -lblis \
    -llapack -lz -lm -lpthread || exit 1
BLIS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$d/chol" "$R" 50 100 300 500 1000 \
    2000 4000
