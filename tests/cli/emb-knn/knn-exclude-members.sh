# A composed group's own words kept out of its neighbours: emb-ose -W and
# emb-bov -W append the members' words to the group's key (after -a and
# -s fields, every member read, the zero and repeated ones too), and
# emb-knn -x reads that field.  Without -x the members are the nearest.
cat >v.txt <<'T'
king	1 0 0
queen	0 1 0
royal	1 1 2
crown	1 0 1
apple	0 0 1
T
emb-cat -r v.txt >v.emb || exit 1
cat >g.txt <<'T'
s1	#3
king	1 0 0
queen	0 1 0
king	1 0 0
s2	#1
nothing	0 0 0
s3	#0
lone	x	0 0 1
T
emb-cat -r g.txt >g.emb || exit 1
echo "-- emb-ose -W -s -a"
emb-ose -q -W -s -a g.emb | emb-cat | sed 's/	[^	]*$//'
echo "-- emb-bov -W -s"
emb-bov -q -W -s g.emb | emb-cat | sed 's/	[^	]*$//'
echo "-- emb-bov -W -k 2 (a member without field 2 adds nothing)"
emb-bov -q -W -k 2 g.emb | emb-cat | sed 's/	[^	]*$//'
echo "-- emb-knn, members first"
emb-ose -q -W g.emb | emb-knn -k 2 v.emb | head -2
echo "-- emb-knn -x 2, members left out"
emb-ose -q -W g.emb | emb-knn -x 2 -k 2 v.emb | head -2
echo "-- emb-bov, the same"
emb-bov -q -W g.emb | emb-knn -x 2 -k 2 v.emb | head -2
echo "-- -W prints into a key: not with -i"
emb-ose -i -W g.emb
