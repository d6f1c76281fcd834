# emb-cat -n: a .npy array and its keys read back.  What emb-cat -N wrote
# reads back as the same stream: flat, and grouped through a keys file
# that carries each row's group (a sentence id and the group's key).
set -eu
printf 'a\t1 2\nb\\tc\t-0.5 1e-45\nc\t3.25 -0\n' | emb-cat -r >flat.emb
emb-cat -N flat.npy flat.emb >flat.keys
emb-cat -n flat.npy -K flat.keys | cmp - flat.emb && echo "flat: same stream"
# From a pipe, and the keys from one.
cat flat.npy | emb-cat -n - -K flat.keys | cmp - flat.emb &&
    echo "flat, from a pipe: same stream"
emb-cat -n flat.npy -K - <flat.keys | cmp - flat.emb &&
    echo "flat, keys from a pipe: same stream"
printf 's1\tpos\t#2\nthe\t0.5 -1\ncat\t2 0.25\ns2\tneg\t#1\ndog\t1 3\ns3\tpos\t#2\nthe\t0.5 -1\na\t0 1\n' |
    emb-cat -r >groups.emb
emb-cat -N groups.npy groups.emb >/dev/null
# "group number TAB group key TAB member key" for each row.
emb-cat -k groups.emb | awk -F '\t' '$NF ~ /^#/ { n++
	sub(/\t#[0-9]+$/, ""); k = $0; next } { print n "\t" k "\t" $0 }' \
    >groups.keys
cat groups.keys
emb-cat -n groups.npy -K groups.keys -g 1 -G 2,3 | cmp - groups.emb &&
    echo "grouped: same stream"
cat groups.npy | emb-cat -n - -K groups.keys -g 1 -G 2,3 |
    cmp - groups.emb && echo "grouped, from a pipe: same stream"
# The group's key defaults to its -g field; the members keep the rest.
emb-cat -n groups.npy -K groups.keys -g 3 | emb-cat
