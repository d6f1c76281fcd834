# emb-pair: |u - v| and u * v of aligned records, -u puts u and v first,
# -i compares one key field; misaligned or unequal streams are errors.
printf 'p1\tx\t1 2\np2\ty\t-1 0.5\n' | emb-cat -r >a.emb || exit 1
printf 'p1\tx\t3 -2\np2\tz\t0.25 4\n' | emb-cat -r >b.emb || exit 1
printf 'p1\t3 -2\n' | emb-cat -r >short.emb || exit 1
printf 'p1\t1 2 3\np2\t1 2 3\n' | emb-cat -r >dim3.emb || exit 1
printf 'g\t#1\np1\t3 -2\n' | emb-cat -r >group.emb || exit 1
st() {
	"$@" >o
	echo "exit $?, $(wc -c <o) bytes"
}
emb-pair -i 1 a.emb b.emb | emb-cat
emb-pair -u -i 1 a.emb - <b.emb | emb-cat
st emb-pair a.emb b.emb
st emb-pair -i 1 a.emb short.emb
st emb-pair -i 1 short.emb a.emb
st emb-pair a.emb dim3.emb
st emb-pair -i 1 group.emb a.emb
st emb-pair -i 3 a.emb b.emb
st emb-pair a.emb
st emb-pair - - <a.emb
