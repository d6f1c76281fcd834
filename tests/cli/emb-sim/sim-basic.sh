# Every pair of a group and the member that does not match, on vectors
# whose cosines are known: (1,0), (0,1), (1,1)/sqrt2 and a zero vector.
# A group of one has no pair (-o names its member), a group of zero
# vectors only has no odd member; both are counted in a warning.  The
# word is key field -k of a member.
printf '%s\n' 'g1	#3' 'x	1 0' 'y	0 1' 'd	1 1' 'g2	#2' 'x	1 0' \
    'z	0 0' 'g3	#1' 'y	0 1' 'g4	#1' 'z	0 0' | emb-cat -r >g.emb ||
    exit 1
echo "== pairs"
emb-sim g.emb
echo "exit $?"
echo "== odd"
emb-sim -o g.emb
echo "exit $?"
echo "== -k 2, -v"
printf '%s\n' 'h	#2' 'x	a	1 2' 'y	b	2 1' | emb-cat -r | emb-sim -v -k 2
echo "== misuse"
emb-sim -k 0 g.emb
echo "exit $?"
emb-sim g.emb g.emb
echo "exit $?"
