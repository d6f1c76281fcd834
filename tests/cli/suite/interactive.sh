# Words typed one at a time into emb-lookup | emb-knn are answered one at
# a time: emb-lookup flushes what a line made, and emb-knn searches the
# queries it has, whenever their input would wait.  The words come
# through a FIFO and the answers go to another; the second word is
# written only once the first answer has been read, so that a pipeline
# holding its answers until the end of its input, or until a batch
# fills, never gives the first one (the timeout turns that hang into a
# failure; the test does not otherwise depend on time).
set -u
cat >ref.txt <<'T'
east	1 0
north	0 1
northeast	1 1
T
emb-cat -r ref.txt >ref.emb || exit 1
mkfifo words answers || exit 1
emb-lookup -q -e ref.emb <words | emb-knn -k 1 ref.emb >answers &
exec 3>words 4<answers
# one: the next line on fd 4, read a byte at a time by sh; when none
# comes, the input is closed and the answers are printed as they come.
one() {
	timeout 60 sh -c 'IFS= read -r l && echo "$l"' <&4 && return
	echo "no answer before the next word"
	exec 3>&-
	cat <&4
	wait
	exit 1
}
echo east >&3
one
echo northeast >&3
one
echo north >&3
exec 3>&-
cat <&4
wait
echo "exit $?"
