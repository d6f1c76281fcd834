# Every program takes -q and -v (--quiet and --verbose; emb-knn, whose -q
# is the query's field, --quiet alone).  For each, its output is the same
# with either as without; -q leaves only errors and warnings on standard
# error (emb-augment warns of a repeated word here) and -v adds the
# summary where there is one.  Of the two, the last given wins.  Standard
# error is counted in lines: emb-eval and emb-knn print timings.
emb-cat -r "$TESTDATA/augment-words.txt" >w.emb || exit 1
printf 'g1\t#2\na\t1 0\nb\t0 1\ng2\t#1\nc\t1 1\ng3\t#0\n' |
    emb-cat -r >g.emb || exit 1
emb-cat w.emb | awk -F '\t' '{ print $2 "\t" $1 "\t" $3 }' |
    emb-cat -r >lab.emb || exit 1
printf 'q1\t2 9\nq2\t5 1\n' | emb-cat -r >q.emb || exit 1
printf 'the cat\nthe dog\n' >text.txt
emb-knn -k 2 w.emb q.emb >s1.txt || exit 1
emb-knn -k 2 g.emb q.emb >s2.txt || exit 1

# try PROGRAM ARGS...: the program plain, then with each option.
try() {
	"$@" >plain.out 2>plain.err
	st=$?
	echo "$1: exit $st, $(grep -c '' <plain.err) lines on stderr"
	p=$1
	shift
	for o in $opts; do
		"$p" $o "$@" >opt.out 2>opt.err
		st=$?
		r="exit $st"
		cmp -s plain.out opt.out || r="$r, OUTPUT DIFFERS"
		echo "$p $o: $r, $(grep -c '' <opt.err) lines on stderr"
	done
}
opts="-q -v --quiet --verbose -qv -vq"
try emb-augment -k 2 -K 2 -s 1 w.emb
try emb-bov g.emb
try emb-cat w.emb
try emb-eval -k 3 -c knn,centroid lab.emb
try emb-knnmerge s1.txt s2.txt
try emb-lookup -e "$TESTDATA/lookup/tiny.vec" text.txt
try emb-normalize w.emb
try emb-ose g.emb
try emb-pair -i 1 q.emb q.emb
try emb-split -n 2 -i 1 g.emb
opts="--quiet -v --verbose"
try emb-knn -k 2 w.emb q.emb
echo "emb-knn -v --quiet: $(emb-knn -v --quiet -k 2 w.emb q.emb 2>&1 \
    >/dev/null | grep -c '') lines on stderr"
# The README names the programs that print their summary by default:
# those whose -h says so of -v.
top=$TESTDATA/../..
for c in "$top"/bin/emb-*.c; do
	p=${c##*/}
	p=${p%.c}
	"$p" -h 2>&1 | grep -e '--verbose' | grep -q -E '\((the )?default\)' &&
	    echo "$p"
done >hsays
tr '\n' ' ' <"$top/README.md" |
    sed -n 's/.*summary\.  \(`emb-[^.]*\) print their summary by default.*/\1/p' |
    grep -o 'emb-[a-z]*' | sort >readme
if cmp -s hsays readme; then
	echo "README: the summary by default in $(tr '\n' ' ' <readme)"
else
	echo "README names $(tr '\n' ' ' <readme); -h says $(tr '\n' ' ' <hsays)"
fi
