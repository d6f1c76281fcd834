# examples/scripts/map.sh draws a user's own word sets (a file of lines
# "name TAB words") beside their OSE and BOV: a point a word known to the
# vectors, an OSE and a BOV a set, a PNG; a malformed sets file is
# refused with its line.
command -v gnuplot >/dev/null || { echo "gnuplot is not installed" >&2
	exit 77; }
top=$(cd "$TESTDATA/../.." && pwd)
printf 'animals\tdog cat horse xyzzy\ncolours\tred green blue yellow\n' \
    >sets.txt
sh "$top/examples/scripts/map.sh" \
    "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" map.png sets.txt >xy.tsv ||
    exit 1
cut -f 1-3 xy.tsv
[ "$(head -c 4 map.png | tail -c 3)" = PNG ] && echo "a PNG image"
printf 'animals\tdog cat\nbad name\tred\n' >bad.txt
sh "$top/examples/scripts/map.sh" \
    "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" bad.png bad.txt
echo "exit $?"
[ -e bad.png ] || echo "no picture"
