# A set holds each word once: a word named twice in a role (on one line
# or on two, or twice once lower-cased by -l) is refused, naming the file,
# the line, the set and the word, before any vector is read; so that what
# WEAT holds and costs (|X u Y| x |A u B| cosines) follows the distinct
# words.  A word in two roles is no repeat.  A pairs file may name a word
# in several pairs, but not a pair twice.
printf 'he\t1 0 0\nshe\t0 1 0\nman\t1 0.1 0\nwoman\t0.1 1 0\ngood\t0.5 0.5 1\nbad\t0.5 0.4 -1\nnice\t0.6 0.5 1\nugly\t0.4 0.6 -1\n' |
    emb-cat -r >v.emb || exit 1
run() {
	emb-bias "$@" >out.tsv
	echo "exit $?"
}
# Each role one word 3,500 times (96 KB): refused at once, in little
# memory (each cosine of the repeats held, this would need 392 MB).
awk 'BEGIN { split("X Y A B", r, " "); split("he she good bad", w, " ")
    for (k = 1; k <= 4; k++) { printf "%s s%d", r[k], k
	for (i = 0; i < 3500; i++) printf " %s", w[k]; print "" } }' >rep.txt
# Sanitizer and valgrind builds cannot start under an address-space
# limit (they reserve far more): there the same runs go without it.
lim=200000
sh -c '(ulimit -v $1 && emb-cat --version); exit $?' sh $lim \
    >/dev/null 2>&1 || lim=unlimited

(ulimit -v $lim; run -b 0 -n 10 -E 0 -w rep.txt v.emb)
printf 'X m he man\nY f she woman\nA p good nice\nB n bad ugly\nX m man\n' \
    >twolines.txt
run -w twolines.txt v.emb
printf 'X m he man He\nY f she woman\nA p good nice\nB n bad ugly\n' \
    >case.txt
run -b 0 -m 0.5 -w case.txt v.emb
run -l -w case.txt v.emb
# In two roles: no repeat.
printf 'X m he man\nY f she woman\nA p good nice he\nB n bad ugly\n' \
    >roles.txt
run -b 0 -w roles.txt v.emb
grep -c 'A:found	3' out.tsv
# Pairs: 'she' in two pairs is fine; a pair named twice is not.
printf 'X m he man\nY f she woman\nA p good nice\nB n bad ugly\n' >ok.txt
printf 'X m he man\nY f she she\n' >share.txt
run -t ripa -b 0 -p share.txt -w ok.txt v.emb
grep -w pairs out.tsv | grep ripa
printf 'X m he man he\nY f she woman she\n' >twice.txt
run -t ripa -b 0 -p twice.txt -w ok.txt v.emb
run -D -p twice.txt v.emb
printf 'X m he man He\nY f she woman She\n' >twicel.txt
run -l -D -p twicel.txt v.emb
