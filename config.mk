# config.mk - what a build may want to change.

VERSION = 0.1.0

PREFIX = /usr/local
BINDIR = $(PREFIX)/bin
LIBDIR = $(PREFIX)/lib
INCDIR = $(PREFIX)/include
MANDIR = $(PREFIX)/share/man
# The tools beside the programs (senteval-prep.sh).
SHAREDIR = $(PREFIX)/share/emb
# bash-completion loads a command's completion from here by its name.
COMPDIR = $(PREFIX)/share/bash-completion/completions

CC = cc
OPT = -O2 -march=x86-64-v2
CFLAGS = $(OPT) -g -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-sign-compare -Wno-psabi \
	-Werror=implicit-function-declaration
CPPFLAGS = -D_GNU_SOURCE -Ilib
LDFLAGS =
# BLIS for the kernels, LAPACK (over the same BLAS) for factorizations,
# zlib for gzip input and crc32.
LDLIBS = -lblis -llapack -lz -lm -lpthread

# make SAN=1 builds everything with AddressSanitizer and UBSan into
# build-san/ and runs the same tests there.
SAN =
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
