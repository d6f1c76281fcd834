# -h on every program: the usage, one line per option of at most 79
# columns, and the manual's name, on standard output with exit 0; every
# long option it lists is in the program's manual page.
man=$TESTDATA/../../man
for p in $(cd "$(dirname "$(command -v emb-cat)")" && ls emb-* | sort); do
	[ -x "$(command -v "$p")" ] || continue
	"$p" -h >h.out 2>h.err
	st=$?
	[ "$st" = 0 ] || echo "$p -h: exit $st"
	[ -s h.err ] && echo "$p -h: wrote on standard error"
	head -1 h.out | grep -q "^usage: $p " || echo "$p -h: no usage first"
	tail -1 h.out | grep -q "^see $p(1)" || echo "$p -h: no manual named"
	awk -v p="$p" 'length($0) > 79 { print p " -h: line " NR " too long" }' \
	    h.out
	"$p" --help | cmp -s - h.out || echo "$p --help differs from -h"
	# The option lines: "  -x, --name=arg  help" or "      --name  help".
	sed -n '/^options:$/,$p' h.out | grep -E '^  (-.|    --)' >opts
	n=$(grep -c '' <opts)
	echo "$p: $n options"
	grep -o -- '--[A-Za-z0-9-]*' opts | while read -r l; do
		grep -q -- "Fl \\\\*-${l#--}\\b" "$man/$p.1" ||
		    echo "$p: $l is not in $p(1)"
	done
	sed -E -n 's/^  (-(.),)? *--([A-Za-z0-9-]+).*/\3 -\2/p' opts |
	    sed "s/\$/ ${p#emb-}/" >>names
done
# The long names across the suite, each with the letter it has in each
# program (- : none), so that a name kept for one meaning shows as such.
sort -u names | awk '{ l[$1] = l[$1] " " $3 ($2 == "-" ? "" : $2) }
    END { for (n in l) print "--" n ":" l[n] }' | sort
# A misuse says what is wrong, then the usage, on standard error, exit 2.
emb-lookup -e x a b >out 2>err; echo "two operands: exit $?, $(grep -c '' <out) lines out"
head -1 err
