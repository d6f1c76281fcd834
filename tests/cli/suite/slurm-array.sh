# The Slurm recipe of examples/parallel.md on a one-node Slurm cluster
# started here (tests/cli/slurm.inc): examples/cluster/slurm-submit.sh
# submits a job array of 4 tasks (shard.sh), each composing its share of
# a corpus and searching its shard of a reference set, and the merge job
# (merge.sh) that waits for all of them; the results equal the serial run
# byte for byte.  Then an array one of whose tasks is given a missing
# input: sbatch --wait fails, the task's log names the file, the merge job
# submitted after it is cancelled and merge.sh by hand refuses, naming
# the missing share; that task run again alone completes the shares.
# The jobs run under slurmd, which passes them the environment of sbatch
# (--export=ALL), PATH with this build first.  Every wait has a cap
# (wait_job's polls, timeout around sbatch --wait) far above the seconds
# the jobs take, which only a cluster that stopped running them reaches.
. "${0%/*}/../parallel.inc"
. "${0%/*}/../slurm.inc"
need_progs emb-lookup emb-ose emb-knn emb-split emb-knnmerge
start_slurm
set -e
C=${EXDATA%/data}/cluster
D=$PWD

# 300 questions of the TREC sample and a few awkward lines.
questions 150 >corpus.txt
emb-lookup -q -e "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" -B w2v.store
emb-lookup -q -e w2v.store -D >ref.emb
# The queries: 40 questions composed (one of them, no word known, skipped).
sed -n '1,40p' corpus.txt | emb-lookup -q -e w2v.store |
    emb-ose -q -e skip >q.emb
emb-lookup -q -e w2v.store corpus.txt | emb-ose -q >serial.emb
emb-knn -k 10 ref.emb q.emb >serial.txt
echo "$(wc -l <corpus.txt) lines, $(emb-cat -k ref.emb | wc -l) references," \
    "$(emb-cat -k q.emb | wc -l) queries"

echo "-- slurm-submit.sh: an array of 4 tasks, the merge after them"
SBATCH_EXPORT=ALL "$C/slurm-submit.sh" 4 "$D/work" "$D/w2v.store" \
    corpus.txt ref.emb q.emb >submit.out
array=$(sed -n 's/^array job \([0-9]*\), merge job [0-9]*$/\1/p' submit.out)
merge=$(sed -n 's/^array job [0-9]*, merge job \([0-9]*\)$/\1/p' submit.out)
echo "merge job: $(wait_job "$merge")"
for t in 0 1 2 3; do
	echo "task $t: $(cat "slurm-${array}_$t.out")"
done
cmp work/corpus.emb serial.emb
echo "joined: equal to the serial run"
cmp work/nn.txt serial.txt
echo "merged: equal to the whole set"

echo "-- sbatch --wait --array=0-3, share 3's references missing"
rm work/ref.3.emb work/ose.*.emb work/nn.*.txt work/corpus.emb work/nn.txt
st=0
timeout 900 sbatch --wait --parsable --export=ALL --array=0-3 \
    -o 'fail-%A_%a.out' "$C/shard.sh" 4 "$D/work" "$D/w2v.store" \
    >sbatch.out || st=$?
array=$(sed -n '1{s/;.*//;p;}' sbatch.out)
echo "sbatch --wait: exit $st"
for t in 0 1 2 3; do
	echo "task $t: $(sed "s|$D/||g" "fail-${array}_$t.out")"
done
echo "written:" $(LC_ALL=C ls work | grep -e '^ose\.' -e '^nn\.')
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$array" \
    --kill-on-invalid-dep=yes -o merge.out "$C/merge.sh" 4 "$D/work")
echo "merge job after it: $(wait_job "${merge%%;*}")"
[ ! -e work/corpus.emb ] && [ ! -e work/nn.txt ] && [ ! -e merge.out ]
echo "nothing merged"
st=0
"$C/merge.sh" 4 "$D/work" 2>merge.err || st=$?
echo "merge.sh by hand: exit $st"
sed "s|$D/||g" merge.err
[ ! -e work/corpus.emb ] && [ ! -e work/nn.txt ]

echo "-- the failed task alone again, its input back, and the merge"
emb-split -n 4 -i 3 ref.emb >work/ref.3.emb
timeout 900 sbatch --wait --export=ALL --array=2 -o 'again-%A_%a.out' \
    "$C/shard.sh" 4 "$D/work" "$D/w2v.store" >/dev/null
cat again-*_2.out
"$C/merge.sh" 4 "$D/work" | sed "s|$D/||g"
cmp work/corpus.emb serial.emb
cmp work/nn.txt serial.txt
echo "equal to the serial run"
