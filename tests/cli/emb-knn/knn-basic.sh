# emb-knn on a tiny hand-made set: ranks and distances, ties to the earlier
# reference, zero vectors, -k beyond the set, exclude-self (-s, -q), key
# exclusions (-x), group members as queries, and references in groups.
cat >ref.txt <<'T'
east	a	1 0
north	0 1
northeast	1 1
east	b	2 0
west	-1 0
zero	0 0
T
emb-cat -r <ref.txt >ref.emb || exit 1
printf 'q1\t1 0.25\nzero\t0 0\n' | emb-cat -r >q.emb || exit 1
echo "== k=3"
emb-knn -k 3 ref.emb <q.emb
echo "== k=10 (more than the references)"
emb-knn -k 10 ref.emb q.emb
echo "== exclude self: the word is the first field, else the last, or -q"
printf 'x\teast\t1 0\n' | emb-cat -r >self.emb || exit 1
emb-knn -s -k 2 ref.emb <self.emb
# -q 1 names x, no reference: -s excludes nothing, and says so once.
emb-knn -s -q 1 -k 2 ref.emb <self.emb
echo "== exclude self after emb-lookup -w: keys word TAB label"
printf 'east\n' | emb-lookup -q -w -L north -e ref.emb | emb-cat -k
printf 'east\nnorth\n' | emb-lookup -q -w -L north -e ref.emb |
    emb-knn -s -k 2 ref.emb
echo "== -x: words listed in a key field"
printf 'east north\tq\t1 0.25\n' | emb-cat -r | emb-knn -x 1 -k 2 ref.emb
echo "== group members: keyed by group key and member key"
printf 'line 1\t#2\neast\t1 0\nnorth\t0 1\nline 2\t#0\n' | emb-cat -r |
    emb-knn -s -k 1 ref.emb
echo "== references in groups are their members"
printf 'g\t#2\na\t1 0\nb\t0 1\nc\t1 1\n' | emb-cat -r >gref.emb || exit 1
emb-knn -k 3 gref.emb <q.emb
