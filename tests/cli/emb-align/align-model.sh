# emb-align on small vectors: a rotation recovered from its pairs, the
# model applied as a filter (groups and keys pass, -t the target's steps),
# and a model refused when cut short, changed (crc32), of another
# dimension, or malformed; misuse exits 2.
printf 'a\t1 0 0\nb\t0 2 0\nc\t0 0 3\nd\t1 1 1\n' | emb-cat -r >s.emb || exit 1
# The target: the source rotated by 90 degrees in the first two axes.
printf 'A\t0 1 0\nB\t-2 0 0\nC\t0 0 3\nD\t-1 1 1\n' | emb-cat -r >t.emb || exit 1
printf 'a A\nb B\nc C\nzz ZZ\n' >dict.txt
emb-align -F m.txt -d dict.txt s.emb t.emb
sed -n '1,5p' m.txt
sed -n 's/^w //p' m.txt | awk '{ for (i = 1; i <= NF; i++)
    printf "%s%.6f", (i > 1 ? " " : ""), $i + 0; print "" }' |
    sed 's/-0\.000000/0.000000/g'
printf 'd\t1 1 1\n' | emb-cat -r | emb-align -q -M m.txt | emb-cat |
    awk -F '\t' '{ n = split($2, x, " "); printf "%s", $1
	for (i = 1; i <= n; i++) printf " %.5f", x[i]; print "" }'
echo "-- with steps"
emb-align -q -F u.txt -d dict.txt -n unit,center s.emb t.emb || exit 1
sed -n '4p' u.txt
grep -c '^smean' u.txt
emb-align -q -t -M u.txt t.emb | emb-cat | wc -l
echo "-- refinement"
emb-align -q -v -F r.txt -d dict.txt -r 1 s.emb t.emb
echo "-- from stores"
printf '3 3\na 1 0 0\nb 0 2 0\nc 0 0 3\n' >s.vec
printf '3 3\nA 0 1 0\nB -2 0 0\nC 0 0 3\n' >t.vec
emb-lookup -q -e s.vec -B s.store && emb-lookup -q -e t.vec -B t.store ||
    exit 1
emb-align -q -F st.txt -d dict.txt s.store t.store || exit 1
grep '^w ' st.txt | cmp -s - "$(grep '^w ' m.txt >mw.txt; echo mw.txt)" &&
    echo "stores: the same map"
echo "-- errors"
head -c 60 m.txt >cut.txt
emb-align -M cut.txt s.emb >/dev/null;		echo "cut short: $?"
sed 's/^count 3/count 4/' m.txt >crc.txt
emb-align -M crc.txt s.emb >/dev/null;		echo "changed: $?"
printf 'x\t1 2\n' | emb-cat -r >d2.emb
emb-align -M m.txt d2.emb >/dev/null;		echo "dimension: $?"
printf 'emb-align 1\ndin 3\n' >bad.txt
printf 'crc32 %08x\n' "$(printf 'emb-align 1\ndin 3\n' | gzip -c |
    tail -c 8 | od -An -tu4 -N4 | tr -d ' ')" >>bad.txt
emb-align -M bad.txt s.emb >/dev/null;		echo "malformed: $?"
printf 'q Q\n' >none.txt
emb-align -F n.txt -d none.txt s.emb t.emb;	echo "no pair: $?"
emb-align -F n.txt s.emb t.emb;			echo "no -d: $?"
emb-align -M m.txt -n unit s.emb >/dev/null;	echo "-n with -M: $?"
emb-align -F n.txt -d dict.txt -n unit,bogus s.emb t.emb; echo "bad step: $?"
emb-align -F s.emb -d dict.txt s.emb t.emb;	echo "model is input: $?"
test -e n.txt || echo "no model left behind"
