# emb-eval: Pearson's r of gold scores near the double range: +-1e308 give
# r = +-1, and scores scaled by 1e300 give the figures of the unscaled.
printf 'a\t1 0\nb\t1 1\nc\t1 2\nd\t0 1\n' | emb-cat -r >s1.emb || exit 1
printf 'a\t1 0\nb\t0 1\nc\t0 1\nd\t0 1\n' | emb-cat -r >s2.emb || exit 1
printf '1e308\n-1e308\n\n\n' >g1.txt
printf -- '-1e308\n1e308\n\n\n' >g2.txt
printf '1.5\n2\n3\n4\n' >g3.txt
printf '1.5e300\n2e300\n3e300\n4e300\n' >g4.txt
for g in g1 g2 g3 g4; do
	emb-eval -p s2.emb -g $g.txt -T $g s1.emb | grep pearson_pooled
done
