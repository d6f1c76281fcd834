# knn-questions.awk - turn a question file in the format of word2vec's
# questions-words.txt (": section" lines, then "a b c d" lines) into the
# text view (emb-cat) of the stream emb-lookup gives for it, for the tests
# of emb-knn -A while emb-lookup is not at hand:
#   awk -v Q=questions.txt -f knn-questions.awk embedding.vec | emb-cat -r
# The embedding is word2vec text (a header line, then "word x1 x2 ...").
# One group per question keyed "section<TAB>a b c d", its members the known
# words of the line in order (unknown words skipped, as emb-lookup does).
# With -v ANSWER=1 the key is "section<TAB>d" and the members are a, b, c.
BEGIN {
	while ((getline l < Q) > 0) {
		n = split(l, f, " ")
		if (f[1] != ":")
			for (i = 1; i <= n; i++)
				need[f[i]] = 1
	}
	close(Q)
}
FNR > 1 && ($1 in need) {
	v = $0
	sub(/^[^ ]* /, "", v)
	sub(/ +$/, "", v)
	vec[$1] = v
}
END {
	while ((getline l < Q) > 0) {
		n = split(l, f, " ")
		if (f[1] == ":") {
			sect = f[2]
			continue
		}
		if (ANSWER)
			n = 3
		m = 0
		for (i = 1; i <= n; i++)
			m += (f[i] in vec)
		print sect "\t" (ANSWER ? f[4] : l) "\t#" m
		for (i = 1; i <= n; i++)
			if (f[i] in vec)
				print f[i] "\t" vec[f[i]]
	}
}
