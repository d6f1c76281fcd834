# emb-cat -k prints the keys only: one line per record, groups with their
# member count, so cut, sort and join work on them.
set -u
printf 's1\tPOS\t#2\nthe\t1 2\ncat\t3 4\ns2\tNEG\t#0\ndog\t5 6\n' |
    emb-cat -r >x.emb
emb-cat -k x.emb
# Labels of the groups, with cut and sort.
emb-cat -k x.emb | grep '	#' | cut -f 2 | sort | uniq -c | sed 's/^ *//'
