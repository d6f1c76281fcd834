# emb(7)'s table of what each option letter means in each program is
# the one the programs' own option tables give (their -h): a letter
# added, removed or renamed in a program shows here until emb(7) says it.
man=$TESTDATA/../../man
dir=$(dirname "$(command -v emb-cat)")
for p in $(cd "$dir" && ls emb-* | sort); do
	[ -x "$dir/$p" ] || continue
	"$p" -h | sed -n '/^options:$/,$p' |
	    sed -E -n 's/^  -(.), --([A-Za-z0-9-]+).*/\1 \2/p;
		s/^  -(.) .*/\1 -/p' |
	    awk -v p="$p" '$1 != "h" { print $1, p, $2 }'
done | awk '{ k = tolower($1) ($1 == tolower($1) ? 0 : 1); print k, $0 }' |
    sort -k1,1 -k3,3 | awk '
    function flush() { if (n) { for (i = 1; i < n; i++) print L[i] " ,";
	print L[n] } n = 0 }
    $2 != cur { flush(); cur = $2; print ".It Fl " cur }
    { L[++n] = ".Nm " $3 ($4 == "-" ? "" : " Fl -" $4) }
    END { flush() }' >want
sed -n '/^\.\\" letters begin/,/^\.\\" letters end/p' "$man/emb.7" |
    sed '1d;$d' >have
diff have want && echo "emb(7): the letters of every program"
