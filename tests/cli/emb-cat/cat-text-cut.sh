# emb-cat -r: every line of the text view ends in LF but the last of a
# regular file (emb(5), TEXT INPUTS).  From a pipe, a text whose last line
# has none was cut short: exit 1 naming the line, and no trailer, so that
# the next stage sees a truncated stream rather than a whole one.  The
# same bytes in a regular file are read as they are.
set -u
# shellcheck disable=SC2059
t() {
	printf "$1" | emb-cat -r >out.emb
	echo "pipe: exit $?"
	emb-cat out.emb >/dev/null 2>&1
	echo "next stage: exit $?"
	printf "$1" >in.txt
	emb-cat -r in.txt >out.emb
	echo "file: exit $?"
	emb-cat out.emb
	echo "next stage: exit $?"
}
# Cut inside the number 4.5: "b 3 4" would pass for a whole line.
printf 'a\t1 2\nb\t3 4.5\n' | head -c 12 | emb-cat -r >cut.emb
echo "pipe cut: exit $?"
emb-cat cut.emb >/dev/null 2>&1
echo "next stage: exit $?"
t 'a\t1 2\nb\t3 4'
t 'a\t1 2'
t 'g\t#1\na\t1 2\nh\t#0'
t 'a\t1 2\nb'
t 'a\t1 2\n\n'
t 'a\t1 2\nb\t3 4\n'
