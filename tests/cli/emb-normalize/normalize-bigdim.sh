# Fitting (-F) costs memory and time by the vectors read, not by the
# dimension a header declares: streams of dimension 16384 (an empty one
# of 29 bytes, one cut inside its first vector, two vectors of 64 KiB
# each) are fitted or refused within 100 MB and a few seconds.  Above
# 65536 dimensions -F refuses the stream.
[ -x /usr/bin/time ] || { echo "no /usr/bin/time to measure memory" >&2
	exit 77; }
# fit OPTIONS FILE: run emb-normalize -F, print its status and whether its
# peak memory stayed under 100 MB.
fit() {
	(ulimit -t 20; exec /usr/bin/time -f %M -o rss.txt \
	    emb-normalize -q -F m.txt "$@" 2>err.txt)
	echo "exit $?, $(awk '{ print ($1 < 100000 ? "under" : "over") \
	    " 100 MB" }' rss.txt | tail -n 1)"
	grep -v '^Command' err.txt
}
emb-cat -r -d 16384 </dev/null >empty.emb
awk 'BEGIN { for (r = 0; r < 2; r++) { printf "v%d\t", r
	for (i = 0; i < 16384; i++) printf "%s%d", i ? " " : "", (i * 7 + r * 3) % 11 - 5
	print "" } }' | emb-cat -r >two.emb || exit 1
head -c 257 two.emb >cut.emb
wc -c <empty.emb
fit empty.emb
fit cut.emb
fit -r 1 two.emb
fit -c -r 1 two.emb
# Two uncentered components span both vectors: nothing is left of them.
fit -r 2 two.emb
emb-normalize -q -M m.txt two.emb | emb-cat | awk -F'\t' '
	{ n = split($2, x, " "); for (k = 1; k <= n; k++) if (x[k]^2 > m) m = x[k]^2 }
	END { print "removed:", m < 1e-8 }'
emb-cat -r -d 70000 </dev/null >wide.emb
fit wide.emb
