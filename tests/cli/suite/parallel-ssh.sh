# The recipes over ssh: a second machine stood in for by an sshd on
# 127.0.0.1 started here and reached by parallel -S, beside a local job
# slot; the jobs' outputs, reassembled, equal the serial run byte for byte.
# The remote side runs the programs of this build (--env PATH) on the
# files here (absolute paths), as machines sharing a file system would.
. "${0%/*}/../parallel.inc"
need_parallel
need_progs emb-lookup emb-ose emb-bov emb-knn
start_sshd
set -e
D=$PWD

wordsets "$EXDATA"/semcat/Categories/[a-c]*.txt >sets.txt
emb-lookup -q -e "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" -B w2v.store
echo "$(wc -l <sets.txt) word sets"

echo "-- lookup | ose: 2 job slots on 127.0.0.1 over ssh, 1 here"
emb-lookup -q -e w2v.store -N -f 1 sets.txt | emb-ose -q >serial.emb
awk '{ print NR "\t" $0 }' sets.txt |
    parallel --env PATH --ssh "$SSH" -S 2/127.0.0.1,1/: --pipe -k \
    --block 10k "emb-lookup -q -e $D/w2v.store -f 2 | emb-ose -q" >jobs.emb
emb-split -j jobs.emb | cmp - serial.emb
echo "joined: equal to the serial run"

echo "-- sharded nearest neighbours, 3 shards over ssh"
emb-lookup -q -e w2v.store -D >ref.emb
emb-lookup -q -e w2v.store -N -f 1 sets.txt | emb-bov -q >q.emb
emb-knn -k 10 ref.emb q.emb >serial.txt 2>/dev/null
seq 3 | parallel --env PATH --ssh "$SSH" -S 3/127.0.0.1 -k --tag \
    "emb-split -n 3 -i {} $D/ref.emb | emb-knn -k 10 - $D/q.emb 2>/dev/null" |
    emb-knnmerge -f 2 | cmp - serial.txt
echo "merged: equal to the whole set"
