# Numbers in options are written plainly: a leading blank or '+' (which
# strtol would skip or take) is refused with exit 2.  A directory given
# where a side file belongs (frequencies, a model, distances, neighbour
# lists) is named as one.
printf 'g\t#1\nx\t1 0\n' | emb-cat -r >g.emb
for a in ' 1' '+1' '	1' '1 '; do
	emb-bov -k "$a" g.emb >/dev/null 2>&1;	echo "emb-bov -k '$a': $?"
	emb-ose -p -c "$a" g.emb >/dev/null 2>&1;	echo "emb-ose -c '$a': $?"
done
for a in ' 0.5' '+0.5'; do
	emb-ose -p -c "$a" g.emb >/dev/null 2>&1;	echo "emb-ose -c '$a': $?"
done
emb-bov -q -k 1 g.emb >/dev/null;		echo "emb-bov -k 1: $?"
emb-ose -q -p -c 0.5 g.emb >/dev/null;		echo "emb-ose -c 0.5: $?"
emb-ose -p -c '+1' g.emb >/dev/null
mkdir dir
emb-bov -w dir g.emb >/dev/null;		echo "emb-bov -w: $?"
emb-normalize -M dir g.emb >/dev/null;		echo "emb-normalize -M: $?"
emb-ose -p -F dir g.emb >/dev/null;		echo "emb-ose -F: $?"
emb-knnmerge dir dir;				echo "emb-knnmerge: $?"
