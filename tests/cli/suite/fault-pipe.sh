# A closed pipe: `emb-cat ... | head -1` ends quietly (killed by SIGPIPE,
# nothing on stderr), for text and binary output, early and late in the
# output, and down a pipeline.  When this shell was started with SIGPIPE ignored (which a child
# cannot undo), the programs see EPIPE instead: then they must exit 1 with
# a message; both outcomes are reported the same way below.
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "w%d\t%d 1 2 3\n", i, i }' \
    >big.txt
emb-cat -r big.txt >big.emb
ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status 2>/dev/null)
ignored=0
[ -n "$ign" ] && [ $(( 0x$ign >> 12 & 1 )) = 1 ] && ignored=1

check() {	# what status err
	if [ $ignored = 0 ] && [ "$2" = 141 ] && [ ! -s "$3" ]; then
		echo "$1: quiet"
	elif [ $ignored = 1 ] && [ "$2" = 1 ] && grep -q 'Broken pipe' "$3"
	then
		echo "$1: quiet"
	else
		echo "$1: exit $2, stderr:"
		cat "$3"
	fi
}

{ emb-cat big.emb 2>err; echo $? >st; } | head -1 >/dev/null
check "text | head -1" "$(cat st)" err
{ emb-cat -r big.txt 2>err; echo $? >st; } | head -c 100 >/dev/null
check "emb-cat -r | head -c 100" "$(cat st)" err
{ emb-cat -k big.emb 2>err; echo $? >st; } | head -1 >/dev/null
check "keys | head -1" "$(cat st)" err
{ emb-cat -N m.npy big.emb 2>err; echo $? >st; } | head -1 >/dev/null
check "keys beside .npy | head -1" "$(cat st)" err
{ emb-cat big.emb 2>err; echo $? >st; } | head -50000 >/dev/null
check "text | head -50000" "$(cat st)" err
{ emb-cat -r big.txt 2>err1; echo $? >st1; } |
    { emb-cat 2>err2; echo $? >st2; } | head -1 >/dev/null
check "emb-cat -r | emb-cat | head -1, first" "$(cat st1)" err1
check "emb-cat -r | emb-cat | head -1, second" "$(cat st2)" err2
