#!/bin/sh
# 09-qr.sh - the small-matrix QR kernels emb-ose factors its groups with
# (lib/num/qr.c, lib/num/qrb.c) beside LAPACK (dgeqp3, dgeqrf + dormqr, over BLIS)
# on the same matrices, one thread: n = 300 rows (the word vectors' dim),
# m = 2 to 64 columns (the group sizes the kernels take; wider groups go
# to dgeqp3 itself).  Medians of QR_RUNS runs (9) of the time of one
# factorization, and the ratio LAPACK / ours.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
B=$(dirname "$(command -v emb-ose)")
d=$BENCHDIR/qr
R=${QR_RUNS:-9}
mkdir -p "$d"
cc -O2 -std=c11 -D_GNU_SOURCE -I"$top/lib" -o "$d/qr-dgeqp3" \
    "$here/qr-dgeqp3.c" "$B/libemb.a" -lblis -llapack -lz -lm -lpthread ||
    exit 1
BLIS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$d/qr-dgeqp3" 300 "$R" \
    2 3 4 5 8 13 20 32 48 64
