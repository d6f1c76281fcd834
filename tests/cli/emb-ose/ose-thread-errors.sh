# An error met while reading (a truncated stream, a distance file that is
# short or holds a bad distance) is the same message and exit status
# whatever the number of worker threads: the workers hand it to the main
# thread, which reports it after writing every batch before it.
# 400 groups of 1 to 23 members of 50 dimensions (several batches).
awk 'BEGIN {
	for (g = 0; g < 400; g++) {
		print "g" g "\t#" 1 + (g * 37) % 23
		for (i = 0; i < 1 + (g * 37) % 23; i++) {
			s = "w" i "\t"
			for (k = 0; k < 50; k++)
				s = s sprintf(" %.4f", sin(g * 7 + i * 3 + k))
			print s
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
head -c 500000 g.emb >t.emb
for j in 0 1 3; do
	emb-ose -q -j $j t.emb >/dev/null;		echo "truncated -j $j: $?"
	emb-ose -q -p -F short.txt -j $j g.emb >/dev/null
	echo "short distance file -j $j: $?"
	emb-ose -q -p -F bad.txt -j $j g.emb >/dev/null
	echo "bad distance -j $j: $?"
done
