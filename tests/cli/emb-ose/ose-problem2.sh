# Problem 2: a vector at given distances from the members, the distances
# taken from a constant (-c), from a member key field (-D) or from a side
# file (-F, one line per group).  A failed existence test
# ||V^t (V V^t)^-1 w|| > 1 is reported (-n error) or counted.
cat >g.txt <<'T'
pair	#2
x	0.3	1 0 0
y	0.3	0 1 0
tight	#2
x	0	1 0 0
y	0	0 1 0
one	#1
x	0.5	0 0 1
T
emb-cat -r g.txt >g.emb || exit 1
printf '0.3 0.3\n0.2 0.6\n1\n' >dist.txt
echo "-- -c 0.5"
emb-ose -q -p -a -c 0.5 g.emb | emb-cat
echo "-- -D 2"
emb-ose -q -p -D 2 g.emb | emb-cat
echo "-- -F dist.txt"
emb-ose -p -F dist.txt g.emb | emb-cat
echo "-- the distances reached (-F)"
emb-ose -q -p -F dist.txt -n skip g.emb | emb-cat | awk -F'\t' '
	$1 == "pair" { split($2, x, " "); printf "pair %.6f %.6f\n", 1 - x[1], 1 - x[2] }
	$1 == "tight" { split($2, x, " "); printf "tight %.6f %.6f\n", 1 - x[1], 1 - x[2] }'
echo "-- -n error"
emb-ose -p -D 2 -n error g.emb >/dev/null
echo "exit $?"
echo "-- a side file too short, a bad distance"
printf '0.3 0.3\n' >short.txt
emb-ose -p -F short.txt g.emb >/dev/null
echo "exit $?"
printf '0.3 x\n' >bad.txt
emb-ose -p -F bad.txt g.emb >/dev/null
echo "exit $?"
echo "-- a bad distance in a key field, a lone record without one"
printf 'g\t#2\na\tx\t1 0 0\nb\t0.5\t0 1 0\n' | emb-cat -r >d.emb
emb-ose -p -D 2 d.emb >/dev/null
echo "exit $?"
printf 'l\t1 1 0\n' | emb-cat -r >l.emb
emb-ose -p -D 2 l.emb >/dev/null
echo "exit $?"
