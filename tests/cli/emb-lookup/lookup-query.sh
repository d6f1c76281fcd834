# Query mode on tests/data/lookup/tiny.vec: one group per line, in order,
# keyed by the line's fields or its number; OOV policies; case folding and
# the lowercase fallback; the limit; the summary on stderr.
cp "$TESTDATA/lookup/tiny.vec" .
v=tiny.vec
q() {
	echo "-- emb-lookup $*"
	emb-lookup -e "$v" "$@" | emb-cat
}
printf 'the cat\n\nsat on the mat\nthe cat\n' >plain.txt
# No fields: the line number is the key; an empty line is an empty group.
q plain.txt
# Two fields (id, label); a line with no text; a duplicated line.
printf 'p1\tpos\tThe cat sat\np2\tneg\tdog\np3\tneg\np1\tpos\tThe cat sat\n' \
    >labelled.txt
q -f 2 labelled.txt
# One field (a label) and the line number in front, so keys stay unique.
printf 'pos\tthe cat\npos\tthe cat\n' | q -f 1 -N
# OOV policies.
printf 'the dog\n' | q -o zero
printf 'the dog\n' | q -u '<unk>'
printf 'the dog\n' | q -o unk -u '<unk>'
printf 'the\ndog sat\n' | emb-lookup -e "$v" -o fail >/dev/null
echo "fail: exit $?"
# Case: exact only, folded, and the fallback (The exists, THE does not).
printf 'The THE the\n' | q -q
printf 'The THE the\n' | q -q -c
printf 'The THE the\n' | q -q -l
# Non-ASCII and a backslash pass byte-exact; the key escapes the backslash.
printf 'caf\303\251 back\\slash\n' | q -q
# The limit: only the first 2 words (the, cat) are known.
printf 'the cat sat\n' | q -q -n 2
# CRLF input, TABs and runs of blanks between tokens.
printf 'x\tthe \t cat\r\n' | q -q -f 1
# Fewer fields than -f asks for.
printf 'a\tb\tthe\nonly\n' | emb-lookup -e "$v" -f 3 >/dev/null
echo "short line: exit $?"
exit 0
