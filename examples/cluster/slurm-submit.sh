#!/bin/bash
# examples/cluster/slurm-submit.sh - a corpus composed and a reference set
# searched as a Slurm job array of N tasks (shard.sh), merged by a job that
# starts once every task has succeeded (merge.sh); examples/parallel.md,
# "Slurm job arrays".
#
#   slurm-submit.sh N WORK STORE CORPUS REF QUERIES [K]
#
# N        the number of shares, and of array tasks
# WORK     the work folder, on the file system every node sees (the jobs
#          start in the folder this is run from, so a relative name works
#          when that folder is shared too)
# STORE    the vectors, as a store (emb-lookup -e vectors -B STORE)
# CORPUS   the corpus, one sentence a line (keys: its line numbers)
# REF      the reference set, an emb stream (emb-lookup -e STORE -D)
# QUERIES  the queries, an emb stream with one-field keys
# K        neighbours per query (10)
#
# It prepares WORK (prepare.sh: the numbered corpus, the reference set in
# N shards, the queries; the shares of an earlier run removed), then
# submits both jobs and prints their ids.  Options for both submissions go
# in sbatch's input variables: SBATCH_PARTITION, SBATCH_ACCOUNT, ...
# The results are WORK/corpus.emb and WORK/nn.txt (see merge.sh).
set -euo pipefail
if [ $# -lt 6 ] || [ $# -gt 7 ]; then
	echo "usage: slurm-submit.sh N WORK STORE CORPUS REF QUERIES [K]" >&2
	exit 2
fi
N=$1 WORK=$2 STORE=$3 CORPUS=$4 REF=$5 QUERIES=$6 K=${7:-10}
here=$(cd "$(dirname "$0")" && pwd)
"$here/prepare.sh" "$N" "$WORK" "$CORPUS" "$REF" "$QUERIES"

# --parsable prints "id" or "id;cluster".
array=$(sbatch --parsable --array="0-$((N - 1))" \
    "$here/shard.sh" "$N" "$WORK" "$STORE" "$K")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" \
    --kill-on-invalid-dep=yes "$here/merge.sh" "$N" "$WORK" "$K")
merge=${merge%%;*}
echo "array job $array, merge job $merge"
