# emb-cat x.emb | emb-cat -r | cmp - x.emb on real vectors (GloVe 6B
# 100d, exact float32 text), with groups, and the text view back again.
set -u
zcat "$EXDATA/glove-6B-100d-2.6k.txt.gz" | head -300 |
    awk '{ k = $1; $1 = ""; print k "\t" substr($0, 2) }' >words.txt
# Groups of three words, like a lookup stream: G line, then members.
awk 'NR % 3 == 1 { print "s" NR "\tpos\t#3" } { print }' words.txt >groups.txt
emb-cat -r groups.txt >x.emb || echo "emb-cat -r failed"
emb-cat x.emb >x.txt || echo "emb-cat failed"
emb-cat -r x.txt >y.emb || echo "emb-cat -r (again) failed"
cmp x.emb y.emb && echo "binary round trip: same bytes"
# Through pipes, stage by stage.
emb-cat x.emb >p1 && emb-cat -r <p1 >p2 && cmp - x.emb <p2 &&
    echo "through stdin and stdout: same bytes"
emb-cat <y.emb | cmp - x.txt && echo "text view: same text"
# The view: 400 lines, 100 of them groups, every vector 100 components.
wc -l <x.txt | tr -d ' '
grep -c '	#3$' x.txt
awk -F '\t' '!/#3$/ { print split($NF, c, " ") }' x.txt | sort -u
head -2 x.txt | cut -c 1-40
# GloVe prints 0.418 and so does emb-cat: its own text is the shortest.
awk -F '\t' 'NR == 2 { split($2, c, " "); print c[1], c[2], c[3] }' x.txt
