# emb-bov -w takes decimal counts only (digits, a point, an exponent):
# inf, infinity, nan, hexadecimal, a sign and an out-of-range number are
# refused with the file and line, and so are counts whose sum overflows
# (they once turned every weight into 1: a plain mean, exit 0).
printf 'g\t#2\nx\t1 0\ny\t0 1\n' | emb-cat -r >g.emb
for c in inf infinity nan 0x10 -1 +3 1e999 .; do
	printf 'y 2\nx %s\n' "$c" >freq.txt
	emb-bov -q -w freq.txt g.emb >/dev/null
	echo "'$c': $?"
done
for c in 3 .5 5. 2e2 1E-3; do
	printf 'y 2\nx %s\n' "$c" >freq.txt
	emb-bov -q -w freq.txt g.emb | emb-cat | tr '\t' ' '
done
printf 'x 1e308\ny 1\nx 1e308\n' >freq.txt
emb-bov -q -w freq.txt g.emb >/dev/null
echo "overflow: $?"
