# emb-normalize: unit length for every vector, groups and keys unchanged,
# zero vectors left zero (counted); under a model (-M, -M -l) the zero
# vectors of the input are counted alike, and those after the model.
printf 'g\t#2\nx\t3 4\nz\t0 0\nlone\t0 -2\n' | emb-cat -r >g.emb || exit 1
emb-normalize g.emb | emb-cat
emb-normalize -h
echo "-h: $?"
emb-normalize -q -F m.txt -c -r 1 g.emb || exit 1
emb-normalize -M m.txt g.emb >/dev/null
emb-normalize -M m.txt -l g.emb >/dev/null
