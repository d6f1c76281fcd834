# Every degenerate group of emb-ose with the default policies: the paper's
# example, an empty group, one vector, dependent members whose projection
# is zero (orthogonal: distance 1), a lone record (a group of one), more
# directions than dimensions (falls back to the unit mean), repeated and
# zero members (left out), scaled copies (one direction).
cat >g.txt <<'T'
paper	#3
a	1 0 0
b	0 1 0
c	1 1 1
empty	#0
one	#1
x	0 0 2
dep	#3
a	1 0 0
b	0 1 0
c	1 1 0
lone	3 4 0
four	#4
a	1 0 0
b	0 1 0
c	0 0 1
d	1 1 1
dup	#4
a	1 0 0
a	1 0 0
z	0 0 0
b	0 1 0
scaled	#3
a	1 0 0
a2	2 0 0
b	0 1 0
zeros	#2
z	0 0 0
z2	0 0 0
T
emb-cat -r g.txt >g.emb || exit 1
emb-ose -as g.emb | emb-cat
