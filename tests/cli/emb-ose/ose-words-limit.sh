# -W: an output key over the 1 MiB limit is refused once the group is
# read, before it is solved, as emb-bov refuses it: the group here has no
# equidistant vector (three members span both dimensions), and the error
# is the key's, with one thread and with two, and "at least" with -a.
awk 'BEGIN { w = "w"; while (length(w) < 400000) w = w w
	print "g\t#3"; print w "1\t1 0"; print w "2\t0 1"; print w "3\t1 1" }' |
    emb-cat -r >big.emb || exit 1
printf 'a\t#1\nx\t1 0\n' | emb-cat -r >small.emb || exit 1
emb-ose -W -n error -j 0 big.emb >/dev/null;	echo "exit $?"
cat small.emb big.emb | emb-ose -W -n error -j 2 >/dev/null;	echo "exit $?"
emb-ose -aW -n error big.emb >/dev/null;	echo "exit $?"
emb-bov -W big.emb >/dev/null;			echo "emb-bov exit $?"
echo "== without -W the group is solved, and refused by -n error"
emb-ose -n error big.emb >/dev/null;		echo "exit $?"
