#!/bin/bash
# examples/cluster/prepare.sh - the work folder of shard.sh and merge.sh
# (examples/parallel.md, "Slurm job arrays"): run once, where the shared
# file system is mounted, before the tasks.
#
#   prepare.sh N WORK CORPUS REF QUERIES
#
# N        the number of shares, and of tasks
# WORK     the work folder, on the file system every node sees
# CORPUS   the corpus, one sentence a line (keys: its line numbers)
# REF      the reference set, an emb stream (emb-lookup -e STORE -D)
# QUERIES  the queries, an emb stream
#
# It writes WORK/corpus.txt, the corpus's lines numbered ("n TAB
# sentence", so that each share keys its lines as the whole would);
# WORK/ref.1.emb to ref.N.emb, the reference set in N contiguous shards
# (emb-split -n N: the order that keeps ties as the whole set orders
# them); WORK/q.emb, the queries.  It first removes the shares and
# results of an earlier run there: a share left from it would pass for
# one of this run.
set -euo pipefail
if [ $# -ne 5 ]; then
	echo "usage: prepare.sh N WORK CORPUS REF QUERIES" >&2
	exit 2
fi
N=$1 WORK=$2 CORPUS=$3 REF=$4 QUERIES=$5
mkdir -p "$WORK"
rm -f "$WORK"/ose.*.emb "$WORK"/nn.*.txt "$WORK"/ref.*.emb \
    "$WORK/corpus.emb" "$WORK/nn.txt"
awk '{ print NR "\t" $0 }' "$CORPUS" >"$WORK/corpus.txt"
emb-split -n "$N" -o "${WORK//%/%%}/ref.%d.emb" "$REF"
cp "$QUERIES" "$WORK/q.emb"
