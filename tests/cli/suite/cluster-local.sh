# The recipes of examples/parallel.md for engines this machine does not
# have, run here as those engines run them.  Kubernetes: the commands of
# examples/cluster/k8s-shards.yaml and k8s-merge.yaml (their paths mapped
# to this folder) with JOB_COMPLETION_INDEX 0 to completions - 1, as the
# Job controller sets it, one pod after the other.  Hadoop streaming and
# Spark: the -mapper and pipe() command strings as the page prints them,
# split into words as those split them (sh -c and its argument), each run
# on line splits of its input (cut between any two lines, one of them
# empty), their text outputs put together: Hadoop's in reverse order and
# sorted by key, Spark's in order.  Every result equals the serial run
# byte for byte.  And why the text view must be one record a line: a
# lookup stream's text cut inside a group does not read back.
. "${0%/*}/../parallel.inc"
need_progs emb-lookup emb-ose emb-knn emb-split emb-knnmerge emb-cat
command -v bash >/dev/null 2>&1 || skip "no bash for examples/cluster"
set -e
C=${EXDATA%/data}/cluster
P=${EXDATA%/data}/parallel.md
D=$PWD
T=$(printf '\t')

questions 100 >corpus.txt
mkdir shared
emb-lookup -q -e "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" \
    -B shared/vectors.store
ln -s shared/vectors.store vectors.store
emb-lookup -q -e vectors.store -D >ref.emb
sed -n '1,30p' corpus.txt | emb-lookup -q -e vectors.store |
    emb-ose -q -e skip >q.emb
emb-lookup -q -e vectors.store corpus.txt | emb-ose -q >serial.emb
emb-knn -k 10 ref.emb q.emb >serial.txt

echo "-- Kubernetes: k8s-shards.yaml's pods, one index after the other"
n=$(sed -n 's/^  completions: //p' "$C/k8s-shards.yaml")
# The manifest's command, its paths mapped: the scripts here, /shared here.
podcmd() {
	sed -n 's/^ *command: \[\(.*\)\]$/\1/p' "$1" | tr -d '",' |
	    sed "s|/opt/emb/|$C/|; s|/shared/|$D/shared/|g"
}
"$C/prepare.sh" "$n" shared/work corpus.txt ref.emb q.emb
for i in $(seq 0 $((n - 1))); do
	(unset SLURM_ARRAY_TASK_ID SLURM_CPUS_PER_TASK
	JOB_COMPLETION_INDEX=$i EMB_THREADS=1 $(podcmd "$C/k8s-shards.yaml"))
done
$(podcmd "$C/k8s-merge.yaml") | sed "s|$D/||g"
cmp shared/work/corpus.emb serial.emb
cmp shared/work/nn.txt serial.txt
echo "$n indexes, merged: equal to the serial run"

# split_lines FILE N: FILE cut between lines into parts part.00,
# part.01, ... of N lines and, as a split inside one long line gives its
# reader, one part with nothing.
split_lines() {
	rm -f part.*
	split -d -l "$2" "$1" part.
	: >part.empty
}

echo "-- Hadoop streaming: the mapper that composes"
mapper=$(sed -n "s/^ *-mapper '\(.*emb-lookup.*\)'\$/\1/p" "$P")
echo "$mapper"
awk '{ print NR "\t" $0 }' corpus.txt >numbered.txt
split_lines numbered.txt 37
for f in part.*; do
	eval "$mapper" <"$f" >"out.${f#part.}"
done
ls out.* | sort -r | xargs cat | LC_ALL=C sort -t "$T" -k1,1n |
    emb-cat -r | cmp - serial.emb
echo "$(ls out.* | wc -l) parts, in reverse, sorted: equal to the serial run"

echo "-- Hadoop streaming: the mapper that searches"
mapper=$(sed -n "s/^ *-mapper '\(.*emb-knn.*\)'\$/\1/p" "$P")
echo "$mapper"
emb-cat q.emb >queries.txt
split_lines queries.txt 8
rm -f out.*
for f in part.*; do
	eval "$mapper" <"$f" >"out.${f#part.}"
done
emb-knn -k 10 vectors.store q.emb >serial-store.txt
cmp serial-store.txt serial.txt
ls out.* | sort -r | xargs cat | LC_ALL=C sort -t "$T" -k1,1n -k2,2n |
    cmp - serial.txt
echo "$(ls out.* | wc -l) parts, in reverse, sorted: equal to the serial run"

echo "-- Spark: RDD.pipe in PySpark"
pipe=$(sed -n 's/^ *"\(sh -c .*\)",$/\1/p' "$P")
echo "$pipe"
pipe=$(echo "$pipe" | sed "s|/shared/|$D/shared/|g")
split_lines numbered.txt 37
rm -f out.*
for f in part.*; do
	eval "$pipe" <"$f" >"out.${f#part.}"
done
cat out.[0-9]* out.empty | emb-cat -r | cmp - serial.emb
echo "$(ls out.* | wc -l) partitions, in order: equal to the serial run"

echo "-- a lookup stream's text view, cut inside a group"
sed -n '1,3p' corpus.txt | emb-lookup -q -e vectors.store | emb-cat >look.txt
sed -n '1,4p' look.txt | emb-cat -r 2>&1 >/dev/null || echo "exit $?"
