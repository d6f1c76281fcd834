# emb-bias refuses misuse (exit 2) and bad word sets (exit 1) with a
# message naming the file and line; a set with too few of its words found
# is refused naming the missing words, never a silent NaN.
printf 'he\t1 0 0\nshe\t0 1 0\nman\t1 0.1 0\nwoman\t0.1 1 0\ngood\t0.5 0.5 1\nbad\t0.5 0.4 -1\nnice\t0.6 0.5 1\nugly\t0.4 0.6 -1\n' |
    emb-cat -r >v.emb || exit 1
run() {
	emb-bias "$@" >out.tsv
	echo "exit $?"
}
printf 'X m he man\nY f she woman\nA p good nice\nB n bad ugly\n' >ok.txt
run ok.txt
run -w ok.txt -t bogus v.emb
run -w ok.txt -t ripa v.emb
run -w ok.txt -S median v.emb
run -w ok.txt -c 1 v.emb
run -w ok.txt -n 0 v.emb
run -w ok.txt -D v.emb
printf 'X m he man\nZ f she woman\n' >role.txt
run -w role.txt v.emb
printf 'X m he man\nX n she\n' >name.txt
run -w name.txt v.emb
printf 'X m he man\nY\n' >noname.txt
run -w noname.txt v.emb
printf 'X m he man' | run -w /dev/stdin v.emb
printf 'X m he man\nY f she woman\nA p good nice\n' >nob.txt
run -w nob.txt v.emb
printf 'X m he man\nY f she woman girl lady\nA p good nice\nB n bad ugly\n' >oov.txt
run -w oov.txt v.emb
run -w oov.txt -m 0.5 v.emb
grep -c missing_word out.tsv
# Thirty missing words of 50 escaped bytes: the message line stays short.
awk 'BEGIN { w = ""; for (i = 0; i < 30; i++) { s = sprintf("%02d", i)
    for (j = 0; j < 48; j++) s = s "\033"; w = w " " s }
    print "X m he man\nY f she" w "\nA p good nice\nB n bad ugly" }' >long.txt
emb-bias -w long.txt v.emb 2>&1 >/dev/null | awk '{ print length($0) }'
run -w long.txt v.emb
printf 'X f she woman\nY m he\n' >pairs.txt
run -w ok.txt -t ripa -p pairs.txt v.emb
run -w ok.txt -t ripa -d nosuch.model v.emb
run -w ok.txt -f 2 v.emb
