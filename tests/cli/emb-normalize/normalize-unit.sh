# emb-normalize: unit length for every vector, groups and keys unchanged,
# zero vectors left zero (counted).
printf 'g\t#2\nx\t3 4\nz\t0 0\nlone\t0 -2\n' | emb-cat -r >g.emb || exit 1
emb-normalize g.emb | emb-cat
emb-normalize -h
echo "-h: $?"
