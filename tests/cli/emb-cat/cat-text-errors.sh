# emb-cat -r names the input and the line of every malformed text line.
set -u
# shellcheck disable=SC2059,SC2086
t() {
	printf "$1" >in.txt
	emb-cat -r ${2-} in.txt >out.emb
	echo "exit $?"
}
t 'a\t1 2\nb\t1 2 3\n'
t 'a\t1 2\nb\t1\n'
t 'a\t1 2\nb 1 2\n'
t 'a\t1 2x\n'
t 'a\t1 1e39\n'
t 'a\\q\t1 2\n'
t 'g\t#2\na\t1 2\nh\t#1\n'
t 'g\t#2\nh\t#1\na\t1 2\n'
t 'g\t#2\na\t1 2\n'
t 'g\t#x\n'
t 'a\t1 2 3\n' "-d 2"
t 'g\t#268435457\n'
