# A program that writes a named file refuses (exit 2), before it writes
# anything, a file that is one of its inputs: the same device and inode,
# whatever the name (a hard link, the standard input).
set -u
emb-cat -r "$TESTDATA/eval-train.txt" >x1.emb || exit 1
cp x1.emb keep.emb
same() {
	cmp -s x1.emb keep.emb && echo "x1.emb: unchanged" ||
	    { echo "x1.emb: CHANGED"; cp keep.emb x1.emb; }
}
run() {
	"$@"
	echo "$*: exit $?"
	same
}
run emb-split -n 2 -o 'x%d.emb' x1.emb
run emb-split -n 3 -o 'x%d.emb' -r x1.emb
run emb-split -l 5 -o 'x%d.emb' x1.emb
ln x1.emb x2.emb
run emb-split -n 2 -o 'x%d.emb' -k 2 x2.emb
run emb-split -n 2 -o 'x%d.emb' - <x2.emb
# -l knows its parts only as it goes: it stops at the part that is the
# input, and the parts before it, under temporary names, are removed.
ln x1.emb y3.emb
run emb-split -l 5 -o 'y%d.emb' x1.emb
ls y*.emb
run emb-cat -N x2.emb x1.emb
run emb-normalize -F x1.emb x1.emb
run emb-normalize -F x2.emb <x1.emb
run emb-eval -k 3 --predictions x1.emb x1.emb
run emb-eval -k 3 --predictions x2.emb -t x1.emb keep.emb
run emb-lookup -e x1.emb -B x2.emb
