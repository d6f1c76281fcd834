# The recipes of examples/parallel.md with local GNU parallel jobs, on the
# bundled data (SEMCAT word sets, word2vec vectors): every parallel or
# sharded run, reassembled, equals the serial run byte for byte.
. "${0%/*}/../parallel.inc"
need_parallel
need_progs emb-lookup emb-ose emb-bov emb-knn
set -e
T=$(printf '\t')

wordsets "$EXDATA"/semcat/Categories/*.txt >sets.txt
# Plain lines, with some awkward ones among them: empty, a TAB inside,
# CRLF, bytes that are not UTF-8.
{
	cut -f2 sets.txt | sed -n '1,700p'
	printf '\n\tcat dog\ttree\nhouse mouse\r\ncaf\351 \377\376 cat\n\n'
	cut -f2 sets.txt | sed '1,700d'
} >plain.txt
emb-lookup -q -e "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" -B w2v.store
echo "$(wc -l <sets.txt) word sets"

# segments FILE: how many concatenated streams a file of jobs' outputs is
# (each adds a 16-byte header and a 13-byte trailer to the joined bytes).
segments() {
	emb-split -j "$1" >joined.emb
	echo $(( ($(wc -c <"$1") - $(wc -c <joined.emb)) / 29 + 1 ))
}

echo "-- lookup | ose, line numbers as keys (emb-lookup's default)"
emb-lookup -q -e w2v.store plain.txt | emb-ose -q >serial.emb
awk '{ print NR "\t" $0 }' plain.txt |
    parallel --pipe -k --block 8k 'emb-lookup -q -e w2v.store -f 1 |
    emb-ose -q' >jobs.emb
echo "jobs' output: $(segments jobs.emb) segments"
cmp joined.emb serial.emb
echo "joined: equal to the serial run"

echo "-- lookup | ose, line number and label (-N -f 1)"
emb-lookup -q -e w2v.store -N -f 1 sets.txt | emb-ose -q >serial.emb
awk '{ print NR "\t" $0 }' sets.txt |
    parallel --pipe -k --block 20k 'emb-lookup -q -e w2v.store -f 2 |
    emb-ose -q' | emb-split -j | cmp - serial.emb
echo "joined: equal to the serial run"

echo "-- a lookup stream composed in 3 parts by emb-split -i"
emb-lookup -q -e w2v.store -N -f 1 sets.txt >look.emb
emb-bov -q look.emb >serial.emb
seq 3 | parallel -k 'emb-split -n 3 -i {} look.emb | emb-bov -q' |
    emb-split -j | cmp - serial.emb
echo "joined: equal to the serial run"
emb-split -n 3 -o 'look%d.emb' look.emb
for i in 1 2 3; do
	emb-bov -q "look$i.emb" >"bov$i.emb"
done
cat bov1.emb bov2.emb bov3.emb | emb-split -j | cmp - serial.emb
echo "files, one after the other: equal to the serial run"

echo "-- sharded nearest neighbours"
emb-lookup -q -e w2v.store -D >ref.emb
echo "references: $(emb-cat -k ref.emb | wc -l)"
cp serial.emb q.emb
emb-knn -k 10 ref.emb q.emb >serial.txt 2>/dev/null
for n in 2 5; do
	seq $n | parallel -k --tag "emb-split -n $n -i {} ref.emb |
	    emb-knn -k 10 - q.emb 2>/dev/null" | emb-knnmerge -f 2 |
	    cmp - serial.txt
	echo "$n shards (parallel --tag): equal to the whole set"
done
emb-split -n 4 -o 'ref%d.emb' ref.emb
for i in 1 2 3 4; do
	emb-knn -k 10 "ref$i.emb" q.emb >"nn$i.txt" 2>/dev/null
done
emb-knnmerge -f 2 nn1.txt nn2.txt nn3.txt nn4.txt | cmp - serial.txt
echo "4 shard files: equal to the whole set"
# Words as queries, themselves excluded (-s): ties and k at the boundary.
cut -f2 sets.txt | tr ' ' '\n' | emb-lookup -q -e w2v.store -w >words.emb
emb-knn -s -k 5 ref.emb words.emb >serial.txt 2>/dev/null
seq 3 | parallel -k --tag 'emb-split -n 3 -i {} ref.emb |
    emb-knn -s -k 5 - words.emb 2>/dev/null' | emb-knnmerge -k 5 |
    cmp - serial.txt
echo "word queries, -s, 3 shards: equal to the whole set"
# OSE queries lie at nearly equal distances from their members: the
# merged lists have the same distances at every rank; see emb-knnmerge(1)
# for the order of references printed at the same distance.
emb-ose -q look.emb >q.emb
emb-knn -k 10 ref.emb q.emb 2>/dev/null | cut -f1-3,5 >serial.txt
seq 3 | parallel -k --tag 'emb-split -n 3 -i {} ref.emb |
    emb-knn -k 10 - q.emb 2>/dev/null' | emb-knnmerge -f 2 | cut -f1-3,5 |
    cmp - serial.txt
echo "OSE queries, 3 shards: the same distances at every rank"
