# Without SentEval's data (SENTEVAL naming an empty folder), make -C
# examples plans what runs on the bundled data (SEMCAT, the figure, the
# probing samples, the word retrieval) and neither the SentEval tasks nor
# RESULTS.md, and ends by naming the missing tasks and the variable; make
# sts stops at once with that message, having written nothing.
set -u
top=$(cd "$TESTDATA/../.." && pwd)
mkdir none
ex() {
	make --no-print-directory -C "$top/examples" B="$PWD/bin" \
	    OUT="$PWD/out" BUILD_PROGS=: SENTEVAL="$PWD/none" "$@" \
	    >ex.out 2>&1
	st=$?
	sed -e "s|$PWD/||g" -e 's/Makefile:[0-9]*/Makefile/' \
	    -e 's/^make\[[0-9]*\]/make/' ex.out
	return $st
}
ex -n all >plan.txt
for s in semcat.sh figure.sh probing-prep.sh 04-retrieval.sh \
    senteval-prep.sh sts.sh results.sh; do
	if grep -q "$s" plan.txt; then echo "$s: runs"; else echo "$s: not run"; fi
done
grep -q 'echo "$SENT_HELP"$' plan.txt && echo "then the message"
ex -s sts
echo "make sts: exit $?"
if [ -e out ]; then echo "written: $(ls out)"; else echo "nothing written"; fi
