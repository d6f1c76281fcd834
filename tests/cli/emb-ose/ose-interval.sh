# -i: the interval [alpha_lo, alpha_hi] of common distances each group
# admits (Remark rm:decrea.dist); the OSE sits at alpha_lo.
cat >g.txt <<'T'
paper	#3
a	1 0 0 0
b	0 1 0 0
c	1 1 1 0
pair	#2
a	1 0 0 0
b	0 1 0 0
dep	#3
a	1 0 0 0
b	0 1 0 0
c	1 1 0 0
single	#1
a	0 0 0 5
empty	#0
full	#4
a	1 0 0 0
b	0 1 0 0
c	0 0 1 0
d	1 2 3 4
T
emb-cat -r g.txt >g.emb || exit 1
emb-ose -i g.emb
emb-ose -q -a g.emb | emb-cat | cut -f 1,2
