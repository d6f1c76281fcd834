# emb-align -M refuses, naming the file and the line, a model whose crc32
# line matches but which emb-align cannot have written: a hexadecimal
# float, a NUL byte, a W (or the thin form's Q or G) not orthogonal to
# within 256 d eps.  Each model is forged as emb-align(1), FILES, documents
# it, the crc32 line recomputed; orthogonal ones, full and thin, map.
crc() {
	gzip -c | tail -c 8 | od -An -tu4 -N4 | tr -d ' '
}
# forge NAME ROWS: the 2 x 2 header, ROWS (printf format), crc32 line.
forge() {
	printf "emb-align 1\ndin 2\ndout 2\nsteps none\ncount 2\n$2" >"$1"
	printf 'crc32 %08x\n' "$(crc <"$1")" >>"$1"
}
printf 'x\t3 4\n' | emb-cat -r >x.emb || exit 1
forge rot.txt 'w 0 1\nw -1 0\n'
forge rot6.txt 'w 0.6 0.80000000000000004\nw -0.80000000000000004 0.6\n'
forge thin.txt 'rank 1\nq 1\nq 0\ng -1\n'
forge hex.txt 'w 0x0p+0 0x1p+0\nw -1 0\n'
forge inf.txt 'w 0 1\nw -1 inf\n'
forge blank.txt 'w 0 1\nw -1  0\n'
forge nul.txt 'w 0 1\nw -1 0\000 junk\n'
forge skew.txt 'w 0 1\nw -1 0.5\n'
forge scale.txt 'w 2 0\nw 0 2\n'
forge near.txt 'w 0 1\nw -1 1e-12\n'
forge nearer.txt 'w 0 1\nw -1 1e-15\n'
forge thinq.txt 'rank 1\nq 1\nq 1\ng 1\n'
forge thing.txt 'rank 1\nq 1\nq 0\ng 0.5\n'
for m in rot rot6 thin hex inf blank nul skew scale near nearer thinq thing
do
	emb-align -q -M $m.txt x.emb >y.emb
	rc=$?
	echo "$m: $rc$(test $rc = 0 && emb-cat y.emb | cut -f 2 | sed 's/^/ /')"
done
emb-align -L -M rot.txt x.emb >/dev/null;	echo "-L with -M: $?"
