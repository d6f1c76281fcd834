# semcat-split.awk - keep the SEMCAT categories with enough covered words
# and split each one in two halves, train and test.
#
#   awk -v min=50 -v seed=1 -f semcat-split.awk covered.txt
#
# Input: "word TAB category" lines, the words the embedding covers, grouped
# or not.  A category is kept when it has at least min lines.  Its n words
# are shuffled by a Fisher-Yates pass (for i = n down to 2: swap word i with
# word 1 + x mod i) driven by the Park-Miller generator
# x <- 16807 x mod (2^31 - 1), started at x = seed (1 if seed is 0) and run
# through the kept categories in order of first appearance; the first
# ceil(n/2) shuffled words are train, the others test.  Output: the input
# lines of the kept categories, in input order, with a third field "train"
# or "test".  All arithmetic stays below 2^53, so any awk gives the same.
BEGIN {
	FS = OFS = "\t"
	if (min == "")
		min = 50
	x = seed + 0
	if (x % 2147483647 == 0)
		x = 1
}
{
	if (!($2 in n))
		order[++ncat] = $2
	n[$2]++
	line[NR] = $0
	cat[NR] = $2
	pos[$2, n[$2]] = NR
}
END {
	for (c = 1; c <= ncat; c++) {
		k = order[c]
		m = n[k]
		if (m < min)
			continue
		for (i = 1; i <= m; i++)
			p[i] = pos[k, i]
		for (i = m; i >= 2; i--) {
			x = (x * 16807) % 2147483647
			j = 1 + x % i
			t = p[i]; p[i] = p[j]; p[j] = t
		}
		for (i = 1; i <= m; i++)
			split_of[p[i]] = i <= int((m + 1) / 2) ? "train" : "test"
	}
	for (r = 1; r <= NR; r++)
		if (r in split_of)
			print line[r], split_of[r]
}
