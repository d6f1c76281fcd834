# emb-bov methods on a small group: mean (the paper's BOV), mean of unit
# vectors, max and min pooling, the group size appended (-s), and SIF
# weights a / (a + p(w)) from a word-frequency file (-w, -A).
cat >g.txt <<'T'
s1	pos	#3
good	3 4
film	0 2
good	3 4
s2	neg	#2
bad	-1 0
plot	0 0
lone	1 2
T
emb-cat -r g.txt >g.emb || exit 1
for m in mean unit max min; do
	echo "-- $m"
	emb-bov -q -s -m $m g.emb | emb-cat
done
printf 'good 60\nfilm 30\nbad 10\n' >freq.txt
echo "-- SIF, a = 0.5"
emb-bov -w freq.txt -A 0.5 g.emb | emb-cat
