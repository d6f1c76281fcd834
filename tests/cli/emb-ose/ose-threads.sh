# The output does not depend on the number of worker threads: 700 groups
# (several batches) of real word vectors, with empty groups among them.
zcat "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" | awk '
	NR == 1 { next }
	NR > 2000 { exit }
	{ w[n++] = $0 }
	END {
		for (g = 0; g < 700; g++) {
			m = g % 7 == 3 ? 0 : 1 + (g * 37) % 23
			print "g" g "\t#" m
			for (i = 0; i < m; i++) {
				s = w[(g * 13 + i * 7) % n]
				k = index(s, " ")
				print substr(s, 1, k - 1) "\t" substr(s, k + 1)
			}
		}
	}' | emb-cat -r >g.emb || exit 1
emb-ose -q -j 0 g.emb >j0.emb || exit 1
emb-ose -q -j 1 g.emb >j1.emb || exit 1
emb-ose -q -j 3 g.emb >j3.emb || exit 1
cmp j0.emb j1.emb && cmp j0.emb j3.emb && echo same
emb-cat -k j0.emb | wc -l
