#!/bin/bash
#SBATCH --job-name=emb-merge
#SBATCH --cpus-per-task=1
#SBATCH --time=01:00:00
# examples/cluster/merge.sh - the shares of shard.sh, merged into what one
# process would have written (examples/parallel.md, "Slurm job arrays").
#
#   sbatch --dependency=afterok:ARRAYJOB --kill-on-invalid-dep=yes \
#       merge.sh N WORK [K [F]]
#
# N, WORK and K as given to shard.sh; F, the fields of the queries' keys
# (1; emb-knnmerge -f).  It writes WORK/corpus.emb, the
# composed shares joined into one stream (emb-split -j), and WORK/nn.txt,
# the neighbour lists merged (emb-knnmerge -k K -f F): byte for byte what
# "emb-lookup -e STORE corpus | emb-ose" and "emb-knn -k K ref.emb q.emb"
# write.  Every share 1 to N must be there: a missing one is named and
# nothing is merged (exit 1).  The outputs are written under temporary
# names and renamed once whole.
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 4 ]; then
	echo "usage: merge.sh N WORK [K [F]]" >&2
	exit 2
fi
N=$1 WORK=$2 K=${3:-10} F=${4:-1}
ose=() nn=() missing=0
# In share order, 1 to N (a glob would put ose.10.emb before ose.2.emb).
for ((i = 1; i <= N; i++)); do
	gone=
	for f in "ose.$i.emb" "nn.$i.txt"; do
		[ -f "$WORK/$f" ] || gone="$gone $f"
	done
	if [ -n "$gone" ]; then
		echo "merge.sh: $WORK: share $i of $N" \
		    "(task $((i - 1))) missing:$gone" >&2
		missing=$((missing + 1))
	fi
	ose+=("$WORK/ose.$i.emb")
	nn+=("$WORK/nn.$i.txt")
done
if [ $missing != 0 ]; then
	echo "merge.sh: nothing merged: $missing of $N tasks failed or have not" \
	    "run (their logs say why; run them again with sbatch --array)" >&2
	exit 1
fi
tmp=.tmp.$(hostname).$$.$RANDOM
trap 'rm -f "$WORK/corpus.emb$tmp" "$WORK/nn.txt$tmp"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
cat "${ose[@]}" | emb-split -j >"$WORK/corpus.emb$tmp"
emb-knnmerge -k "$K" -f "$F" "${nn[@]}" >"$WORK/nn.txt$tmp"
mv "$WORK/corpus.emb$tmp" "$WORK/corpus.emb"
mv "$WORK/nn.txt$tmp" "$WORK/nn.txt"
echo "merge.sh: $N shares merged into $WORK/corpus.emb and $WORK/nn.txt"
