# Malformed embedding files (tests/data/lookup/bad-*.hex), plain and gzip:
# each must give exit 1 and exactly its "# expect:" message, never a crash.
# Then a truncated and a corrupt gzip file, and a truncated emb stream.
for f in "$TESTDATA"/lookup/bad-*.hex; do
	name=${f##*/}
	name=${name%.hex}
	exp=$(sed -n 's/^# expect: //p' "$f")
	"$UNHEX" <"$f" >"$name" || { echo "FAIL $name: unhex"; continue; }
	gzip -c "$name" >"$name.gz"
	for v in "$name" "$name.gz"; do
		got=$(emb-lookup -e "$v" -D 2>&1 >/dev/null)
		st=$?
		want=$(printf '%s\n' "$exp" | sed "s/: $name: /: $v: /")
		if [ $st = 1 ] && [ "$got" = "$want" ]; then
			echo "ok $v"
		else
			echo "FAIL $v: exit $st"
			echo "  got:  $got"
			echo "  want: $want"
		fi
	done
done

n=$(wc -c <"$EXDATA/glove-6B-100d-2.6k.txt.gz")
head -c $((n / 2)) "$EXDATA/glove-6B-100d-2.6k.txt.gz" >half.gz
emb-lookup -e half.gz -D >/dev/null
echo "truncated gzip: exit $?"
# A flipped byte inside the deflate data.
{ head -c 5000 "$EXDATA/glove-6B-100d-2.6k.txt.gz"; printf 'XXXXXXXX'
  tail -c +5009 "$EXDATA/glove-6B-100d-2.6k.txt.gz"; } >corrupt.gz
emb-lookup -e corrupt.gz -D >/dev/null
echo "corrupt gzip: exit $?"
emb-lookup -e "$TESTDATA/lookup/tiny.vec" -D >tiny.emb
head -c 100 tiny.emb >cut.emb
emb-lookup -e cut.emb -D >/dev/null
echo "truncated emb stream: exit $?"
gzip -c cut.emb >cut.emb.gz
emb-lookup -e cut.emb.gz -D >/dev/null
echo "truncated emb stream, gzip: exit $?"
emb-lookup -e missing.vec -D >/dev/null
echo "missing file: exit $?"
