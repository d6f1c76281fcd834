# emb-eval -L gathers every translation of a source word wherever its
# lines stand, as MUSE does: one query per distinct source word, in the
# order of its first line, right at k when any of its translations is
# among its first k; a line repeated adds nothing.  The same lines split
# apart (writer's two lines around assistance's: once 3 queries and
# P@1 0.6667), sorted by target, or from two files with repeats give the
# figures and the retrieved words of the lines grouped.
printf 'writer\t1 0\nassistance\t0 1\nyears\t0.7 0.7\nalone\t-1 0\nlonely\t0 -1\n' |
    emb-cat -r >src.emb || exit 1
printf 'Twriter\t1 0.1\nTassistance\t0.1 1\nTyears\t0.5 0.6\nTalone\t-1 -0.2\n' |
    emb-cat -r >tgt.emb || exit 1
printf 'writer Tyears\nwriter Twriter\nassistance Tassistance\nyears Tyears
ghost Tghost\nalone Tnone\nalone Tyears\nlonely Tnone\n' >grouped.txt
printf 'writer Tyears\nassistance Tassistance\nwriter Twriter\nyears Tyears
ghost Tghost\nalone Tnone\nlonely Tnone\nalone Tyears\n' >split.txt
LC_ALL=C sort -k 2 grouped.txt >bytarget.txt
printf 'writer Tyears\nyears Tyears\nassistance Tassistance\n' >a.txt
printf 'writer Twriter\nyears Tyears\nghost Tghost\nalone Tnone
writer\tTyears\nlonely Tnone\nalone Tyears\nassistance Tassistance\n' >b.txt
cat a.txt b.txt >concat.txt
for d in grouped split bytarget concat; do
	emb-eval -T "$d" -L "$d.txt" -R tgt.emb --predictions "$d.pred" \
	    src.emb | cut -f 2- >"$d.out" || echo "$d: exit $?"
done
cat grouped.out grouped.pred
sort grouped.pred >sorted.pred
for d in split bytarget concat; do
	cmp -s grouped.out "$d.out" && echo "$d: the same figures"
	sort "$d.pred" | cmp -s - sorted.pred &&
	    echo "$d: the same retrieved words"
done
cut -f 2 split.pred | paste -s -d ' ' -
cut -f 2 bytarget.pred | paste -s -d ' ' -
