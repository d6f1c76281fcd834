#!/bin/bash
#SBATCH --job-name=emb-shard
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --time=02:00:00
# examples/cluster/shard.sh - one task of a Slurm job array or of a
# Kubernetes Indexed Job: its share of a corpus composed, its shard of a
# reference set searched (examples/parallel.md, "Slurm job arrays").
#
#   sbatch --array=0-$((N - 1)) shard.sh N WORK STORE [K]
#
# N      the number of shares: the tasks are 0 to N - 1
# WORK   the work folder, which every node sees at the same path
#        (prepare.sh makes it): corpus.txt, the corpus's lines
#        numbered ("n TAB sentence"); ref.I.emb, the reference set's shards
#        (I = 1 to N, emb-split -n N); q.emb, the queries
# STORE  the vectors emb-lookup reads (a store: emb-lookup -B)
# K      neighbours per query (10)
#
# Task T (SLURM_ARRAY_TASK_ID, or JOB_COMPLETION_INDEX under Kubernetes,
# both from 0) takes share I = T + 1, emb-split's part number, and writes
# WORK/ose.I.emb (lines of share I of corpus.txt looked up and composed by
# OSE) and WORK/nn.I.txt (the K nearest neighbours of each query in
# ref.I.emb).  Each is written under a temporary name and renamed once
# whole, so that a file of that name is a finished share: a task that
# fails or is killed leaves no part of one, and merge.sh refuses to merge
# without it.  A task run again (sbatch --array=2 ...) writes its share
# again.
set -euo pipefail
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
	echo "usage: shard.sh N WORK STORE [K]" >&2
	exit 2
fi
N=$1 WORK=$2 STORE=$3 K=${4:-10}
task=${SLURM_ARRAY_TASK_ID:-${JOB_COMPLETION_INDEX:-}}
if [ -z "$task" ]; then
	echo "shard.sh: no SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX:" \
	    "run it as a task of an array" >&2
	exit 2
fi
I=$((task + 1))
if [ "$I" -lt 1 ] || [ "$I" -gt "$N" ]; then
	echo "shard.sh: task $task: not one of the $N tasks 0 to $((N - 1))" >&2
	exit 2
fi
# The threads Slurm gave the task (--cpus-per-task), EMB_THREADS elsewhere.
threads=${EMB_THREADS:-${SLURM_CPUS_PER_TASK:-1}}
tmp=.tmp.$(hostname).$$.$RANDOM
trap 'rm -f "$WORK/ose.$I.emb$tmp" "$WORK/nn.$I.txt$tmp"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# Share I of the lines, cut at line boundaries (split -n l/I/N reads only
# its own byte range); the line number is the key, as in the serial run.
split -n "l/$I/$N" "$WORK/corpus.txt" |
    emb-lookup -q -e "$STORE" -f 1 |
    emb-ose -q -j "$threads" >"$WORK/ose.$I.emb$tmp"
mv "$WORK/ose.$I.emb$tmp" "$WORK/ose.$I.emb"

emb-knn -k "$K" -j "$threads" "$WORK/ref.$I.emb" "$WORK/q.emb" \
    >"$WORK/nn.$I.txt$tmp"
mv "$WORK/nn.$I.txt$tmp" "$WORK/nn.$I.txt"
echo "shard.sh: share $I of $N written"
