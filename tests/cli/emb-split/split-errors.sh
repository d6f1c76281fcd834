# emb-split: misuse exits 2 with the usage; bad input and failed writes
# exit 1 naming the file and record, and leave the part being written
# without a trailer.
cat >g.txt <<'TXT'
s1	#2
a	1 2
b	3 4
s2	#1
c	5 6
x	7 8
TXT
emb-cat -r g.txt >g.emb
run() {
	echo "\$ $*"
	"$@" 2>&1
	echo "exit $?"
}
run emb-split g.emb
run emb-split -n 0 g.emb
run emb-split -r g.emb
run emb-split -l 2 -r g.emb
run emb-split -n 2 -r -k 1 g.emb
run emb-split -n 2 -i 1 -o 'p%d' g.emb
run emb-split -j -n 2 g.emb
run emb-split -n 3 -i 4 g.emb
run emb-split -n 2 -o 'p' g.emb
run emb-split -n 2 -o 'p%d%d' g.emb
run emb-split -n 2 -o 'p%x' g.emb
run emb-split -n 2 a b
run emb-split -n 2 missing.emb
run emb-split -n 2 -o 'nodir/p%d' g.emb
run emb-split -n 2 -k 2 g.emb
run emb-split -j g.txt
emb-split -j g.emb >/dev/full 2>err
echo "-j >/dev/full: exit $? $(cat err)"
# Cut inside member c of group s2 (the stream is 107 bytes): the parts
# stand together or not at all, so neither is left.
head -c 75 g.emb >cut.emb
run emb-split -l 1 cut.emb
run emb-cat part1.emb
run emb-cat part2.emb
ls
# -n counts first, so nothing is written from an input found bad.
rm -f part*.emb
head -c 75 g.emb | emb-split -n 2 2>&1
echo "pipe cut: exit $?"
ls
