# emb-augment refuses what it cannot use: a grouped stream, a key without
# the label field, bad options (exit 2), a truncated input (exit 1, no
# trailer written), a full disk; and it ends quietly under head.
printf 'a\tx\t1 0\nb\tx\t0 1\nc\ty\t1 1\n' | emb-cat -r >w.emb || exit 1
st() {
	"$@" >o
	echo "exit $?, $(wc -c <o) bytes out"
}
printf 'g\t#1\na\tx\t1 0\n' | emb-cat -r >g.emb
st emb-augment -k 1 -K 1 g.emb
printf 'a\t1 0\n' | emb-cat -r >nolabel.emb
st emb-augment -k 1 -K 1 nolabel.emb
st emb-augment -k 1 -K 1 -w 3 w.emb
head -c 40 w.emb >trunc.emb
st emb-augment -k 1 -K 1 trunc.emb
st emb-augment -K 1 w.emb
st emb-augment -k 0 -K 1 w.emb
st emb-augment -k 1 -K -1 w.emb
st emb-augment -k 1 -K 1 -l 2 -w 2 w.emb
st emb-augment -k 1 -K 1 w.emb w.emb
st emb-augment -k 1 -K 1 nosuch.emb
emb-augment -k 1 -K 1 w.emb >/dev/full
echo "exit $?"
emb-augment -k 1 -K 100 w.emb 2>/dev/null | head -c 1 | wc -c
emb-augment --version
