# Input quoted in a message is a short prefix with control and non-ASCII
# bytes escaped: a 5 MB token, an OSC title change or a screen clear in a
# word, key, label or distance never reaches the terminal whole or raw.
cp "$TESTDATA/lookup/tiny.vec" .
# big PREFIX: PREFIX and five million x's, on one line.
big() {
	awk -v p="$1" 'BEGIN { s = "xxxxxxxxxx"; while (length(s) < 5000000) s = s s
		printf "%s%s\n", p, s }'
}
esc=$(printf '\033')
bel=$(printf '\007')
echo "-- emb-lookup -o fail"
big "${esc}]0;owned${bel}" | emb-lookup -e tiny.vec -o fail >/dev/null
echo "exit $?"
echo "-- emb-lookup -o with a bad policy"
emb-lookup -e tiny.vec -o "${esc}[2J" </dev/null >/dev/null
echo "exit $?"
echo "-- a bad word line in a vectors file"
{ echo "the 1 0"; printf 'w%s[2J%s 1\n' "$esc" "$(big | cut -c 1-1000)"
} >bad.vec
echo the | emb-lookup -e bad.vec >/dev/null
echo "exit $?"
echo "-- a duplicate word"
printf 'w%s[2Jw 1 0\nw%s[2Jw 0 1\n' "$esc" "$esc" >dup.vec
echo the | emb-lookup -e dup.vec -o zero >/dev/null
echo "exit $?"
echo "-- emb-ose -p -F"
printf 'g\t#1\nx\t1 0\n' | emb-cat -r >g.emb
big "${esc}[2J" >dist.txt
emb-ose -p -F dist.txt g.emb >/dev/null
echo "exit $?"
echo "-- emb-pair"
printf 'a%s[2J\t1 0\n' "$esc" | emb-cat -r >p1.emb
printf 'b%s]0;t%s\t1 0\n' "$esc" "$bel" | emb-cat -r >p2.emb
emb-pair p1.emb p2.emb >/dev/null
echo "exit $?"
echo "-- emb-augment"
printf 'a\tl%s[2J\t1 0\n' "$esc" | emb-cat -r | emb-augment -k 2 -K 1 -l 2 \
    >/dev/null
echo "exit $?"
echo "-- option values"
emb-bov -m "${esc}[2J" </dev/null
echo "exit $?"
emb-bov -k "$(big 1 | cut -c 1-1000)" </dev/null
echo "exit $?"
