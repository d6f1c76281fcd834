# Groups without an OSE under each policy: -e for empty groups, -n for
# groups whose members span every dimension.  error stops at the group
# (exit 1, no trailer written), skip drops it (counted), zero writes zeros.
printf 'a\t#2\nx\t1 0\ny\t0 1\nempty\t#0\nspan\t#3\nx\t1 0\ny\t0 1\nz\t-1 -1\nb\t#1\nx\t1 1\n' |
    emb-cat -r >g.emb || exit 1
echo "-- -e skip -n skip"
emb-ose -e skip -n skip g.emb | emb-cat
echo "-- -e zero -n zero"
emb-ose -q -a -e zero -n zero g.emb | emb-cat
echo "-- -n bov"
emb-ose -q -n bov g.emb | emb-cat | grep span
echo "-- -e error"
emb-ose -e error g.emb >out.emb
echo "exit $?"
emb-cat out.emb
echo "-- -n error"
emb-ose -n error g.emb >out.emb
echo "exit $?"
echo "-- -e bov is not a policy for empty groups"
emb-ose -e bov g.emb >out.emb
echo "exit $?"
