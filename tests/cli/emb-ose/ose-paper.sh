# The paper's N=3 example (Remark rm:prop.1): the mean of the unit vectors
# of (1,0,0), (0,1,0), (1,1,1) is not equidistant from them; the OSE is.
# Prints the cosine distances of each composition to the three members.
printf 'ex\t#3\na\t1 0 0\nb\t0 1 0\nc\t1 1 1\n' | emb-cat -r >g.emb || exit 1
emb-ose -a g.emb >ose.emb || exit 1
emb-bov -q -m unit g.emb >bov.emb || exit 1
dist() {
	emb-cat "$1" | awk -F'\t' -v name="$2" '
	BEGIN { m[1] = "1 0 0"; m[2] = "0 1 0"; m[3] = "1 1 1" }
	{
		n = split($NF, x, " ")
		printf "%s", name
		if (NF > 2) printf " alpha=%.6f", $2
		for (i = 1; i <= 3; i++) {
			split(m[i], v, " "); d = xx = vv = 0
			for (k = 1; k <= n; k++) {
				d += x[k] * v[k]; xx += x[k] * x[k]
				vv += v[k] * v[k]
			}
			printf " %.6f", 1 - d / sqrt(xx * vv)
		}
		printf "\n"
	}'
}
dist ose.emb ose
dist bov.emb mean
