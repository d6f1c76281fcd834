# 3CosMul (emb-knn -A --cosmul) scores from the exact cosines of the
# vectors as given, not of unit-length float32 copies of a, b and c: each
# score printed is the one awk computes, in the same double arithmetic,
# from the distances the plain search prints for a, b and c (each the
# true 1 - cos rounded once), to the last bit; vectors of no particular
# length, and a word whose vector is zero.
awk 'BEGIN { srand(7); for (i = 1; i <= 40; i++) {
	printf "w%02d\t", i
	for (j = 1; j <= 9; j++)
		printf "%s%.9g", (j > 1 ? " " : ""), (rand() - 0.3) * 10 ^ (i % 4)
	print "" } print "w41\t0 0 0 0 0 0 0 0 0" }' | emb-cat -r >ref.emb || exit 1
# Questions a b c: groups of three words of the set.
awk 'BEGIN { for (i = 1; i <= 12; i++) {
	a = 1 + (i * 7) % 41; b = 1 + (i * 11 + 3) % 41; c = 1 + (i * 5 + 1) % 41
	if (a == b || b == c || a == c) continue
	printf "q%d\t#3\n", i
	printf "w%02d\nw%02d\nw%02d\n", a, b, c }
	printf "qz\t#3\nw01\nw02\nw41\n" }' >q.txt
emb-cat ref.emb | # A zero query has no neighbour listed: its distance is 1 to every word.
awk -F '\t' 'function dist(g, w, y) { return (g, w, y) in d ? d[g, w, y] : 1 }
    NR == FNR { v[$1] = $2; next }
    /^q/ { print; next } { print $1 "\t" v[$1] }' - q.txt |
    emb-cat -r >q.emb || exit 1
emb-knn -A --cosmul -k 4 ref.emb <q.emb >cm.txt || exit 1
# Every member's distance to every word, by the plain search.
emb-cat q.emb | awk -F '\t' '/#/ { g = $1; next } { print g " " $1 "\t" $2 }' |
    emb-cat -r | emb-knn -k 41 ref.emb >dist.txt || exit 1
# A zero query has no neighbour listed: its distance is 1 to every word.
awk -F '\t' 'function dist(g, w, y) { return (g, w, y) in d ? d[g, w, y] : 1 }
    NR == FNR { split($1, k, " "); d[k[1], k[2], $3] = $4
	next }
    FILENAME ~ /q.txt/ { if (/#/) { g = $1; n = 0 } else w[g, ++n] = $1
	next }
    { g = $1; y = $3
	ca = 1 - dist(g, w[g, 1], y); cb = 1 - dist(g, w[g, 2], y)
	cc = 1 - dist(g, w[g, 3], y)
	s = (1 + cb) / 2 * ((1 + cc) / 2) / ((1 + ca) / 2 + 1e-6)
	lines++
	if (sprintf("%.17g", s) != sprintf("%.17g", $4 + 0)) {
		bad++; print "differs:", $0, sprintf("%.17g", s) } }
    END { print lines, "answers,", bad + 0, "scores off the exact cosines" }' \
    dist.txt q.txt cm.txt
echo "== c the zero word (cosine 0 to everything): as checked above"
grep '^qz' cm.txt | cut -f 1-3
