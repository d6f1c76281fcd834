# The malformed inputs that are not emb(5) streams (tests/run takes those
# from tests/data/bad/*.hex): each tests/data/bad/DIR/NAME.hex, made into
# NAME.EXT, goes to the program that reads that kind of input, which must
# exit 1 with the fixture's "# expect:" line.  Most were found by the
# fuzzers (tests/fuzz); any other outcome is printed.
#   DIR      EXT    program
#   text     txt    emb-cat -r
#   vectors  gz     emb-lookup -D -e   (embedding files)
#   store    store  emb-lookup -D -e
while read -r dir ext cmd; do
	for f in "$TESTDATA/bad/$dir"/*.hex; do
		[ -e "$f" ] || continue
		name=${f##*/}
		name=${name%.hex}.$ext
		want=$(sed -n 's/^# expect: //p' "$f")
		"$UNHEX" <"$f" >"$name" || { echo "$dir/$name: unhex failed"; continue; }
		got=$($cmd "$name" 2>&1 >/dev/null)
		status=$?
		[ $status = 1 ] && [ "$got" = "$want" ] && continue
		echo "$dir/$name: exit $status"
		echo "  got:  $got"
		echo "  want: $want"
	done
done <<'LIST'
text txt emb-cat -r
vectors gz emb-lookup -D -e
store store emb-lookup -D -e
LIST
