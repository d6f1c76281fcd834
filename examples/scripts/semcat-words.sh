#!/bin/sh
# semcat-words.sh DIR - the SEMCAT word lists as "word TAB category" lines:
# categories in the order of their file names (DIR/Categories/NAME-COUNT.txt),
# words in file order, a word repeated inside a category kept once (as the
# paper does), a trailing CR or blank dropped.  A word that belongs to two
# categories appears once in each.
set -eu
for f in "$1"/Categories/*.txt; do
	c=${f##*/}
	c=${c%-*.txt}
	awk -v c="$c" '{ sub(/\r$/, ""); sub(/[ \t]+$/, "") }
	    $0 != "" && !seen[$0]++ { print $0 "\t" c }' "$f"
done
