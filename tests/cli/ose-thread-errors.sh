# An error met while reading (a truncated stream, a distance file that is
# short or holds a bad distance) is the same message and exit status
# whatever the number of worker threads: the workers hand it to the main
# thread, which reports it after writing every batch before it.
zcat "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" | awk '
	NR == 1 { next }
	NR > 2000 { exit }
	{ w[n++] = $0 }
	END {
		for (g = 0; g < 400; g++) {
			m = 1 + (g * 37) % 23
			print "g" g "\t#" m
			for (i = 0; i < m; i++) {
				s = w[(g * 13 + i * 7) % n]
				k = index(s, " ")
				print substr(s, 1, k - 1) "\t" substr(s, k + 1)
			}
		}
	}' | emb-cat -r >g.emb || exit 1
awk 'BEGIN {
	for (g = 0; g < 400; g++) {
		m = 1 + (g * 37) % 23; s = ""
		for (i = 0; i < m; i++)
			s = s " " (g == 300 && i == 2 ? "x" : "0.5")
		print s
	}
}' >bad.txt
head -n 250 bad.txt >short.txt
head -c 300000 g.emb >t.emb
for j in 0 1 3; do
	emb-ose -q -j $j t.emb >/dev/null;		echo "truncated -j $j: $?"
	emb-ose -q -p -F short.txt -j $j g.emb >/dev/null
	echo "short distance file -j $j: $?"
	emb-ose -q -p -F bad.txt -j $j g.emb >/dev/null
	echo "bad distance -j $j: $?"
done
