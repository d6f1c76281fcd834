# Real word groups of 2..300 words (word2vec GoogleNews, n = 300): the OSE
# is at the same cosine distance from every member to 1e-6, and that
# distance is the one -a appends.  When the shared data is present next to
# the repository, the same holds for the fastText and GloVe vectors.
groups() {	# embedding text (word and components) -> groups of sizes 2..300
	awk -v skip="$1" '
	NR <= skip { next }
	NF < 301 { next }
	{ w[n++] = $0 }
	n == 3000 { exit }
	END {
		split("2 3 5 10 20 50 64 65 100 200 299 300", size, " ")
		at = 0
		for (g = 1; g <= 12; g++) {
			m = size[g] + 0
			if (at + m > n) at = 0
			print "size" m "\t#" m
			for (i = 0; i < m; i++) {
				s = w[at + i]; sub(/ +$/, "", s)
				k = index(s, " ")
				print "w" (at + i) "\t" substr(s, k + 1)
			}
			at += m
		}
	}'
}
check() {	# groups.emb -> one line per group
	emb-ose -q -a "$1" >ose.emb || return 1
	emb-cat "$1" >g.txt
	emb-cat ose.emb | awk -F'\t' '
	FILENAME == "-" { key[++ng] = $1; alpha[ng] = $2; vec[ng] = $3; next }
	$2 ~ /^#/ { g++; next }
	{
		n = split(vec[g], x, " "); split($2, v, " ")
		d = xx = vv = 0
		for (k = 1; k <= n; k++) {
			d += x[k] * v[k]; xx += x[k] * x[k]; vv += v[k] * v[k]
		}
		d = 1 - d / sqrt(xx * vv)
		if (!(g in lo) || d < lo[g]) lo[g] = d
		if (!(g in hi) || d > hi[g]) hi[g] = d
	}
	END {
		for (i = 1; i <= ng; i++) {
			s = "ok"; a = "ok"
			if (hi[i] - lo[i] > 1e-6) s = "BAD " (hi[i] - lo[i])
			if (alpha[i] - lo[i] > 1e-6 || lo[i] - alpha[i] > 1e-6)
				a = "BAD " alpha[i] " " lo[i]
			printf "%s: spread %s, alpha %s\n", key[i], s, a
		}
	}' - g.txt
}
zcat "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" | groups 1 | emb-cat -r >w2v.emb || exit 1
check w2v.emb
shared=$EXDATA/../../../shared/data/embeddings
if [ -d "$shared" ]; then
	for f in fasttext-en-300d-2k.vec glove-6B-300d-1k.txt; do
		skip=0
		case $f in *.vec) skip=1 ;; esac
		groups $skip <"$shared/$f" | emb-cat -r >s.emb || exit 1
		check s.emb >s.out
		if grep BAD s.out; then echo "$f: failed"; fi
	done
fi
