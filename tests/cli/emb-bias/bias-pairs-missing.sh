# The pairs' missing words are named as the sets' are, when -m lets a
# pair with a missing word be dropped: as rows of test "pairs" (R:found,
# R:missing, R:missing_word) beside RIPA, and with -D, whose output is a
# stream, on standard error, one line per word with its line and pair.
printf 'he\t1 0 0\nshe\t0 1 0\nman\t1 0.1 0\nwoman\t0.1 1 0\ngood\t0.5 0.5 1\nbad\t0.5 0.4 -1\nnice\t0.6 0.5 1\nugly\t0.4 0.6 -1\n' |
    emb-cat -r >v.emb || exit 1
printf 'X m he man\nY f she woman\nA p good nice\nB n bad ugly\n' >ok.txt
printf 'X m he man boy king\nY f she woman girl\nY f queen\n' >pairs.txt
emb-bias -t ripa -b 0 -m 0.5 -p pairs.txt -w ok.txt v.emb |
    grep -v -e '	words	' -e word: || exit 1
emb-bias -D -m 0.5 -p pairs.txt v.emb >diff.emb || exit 1
emb-cat diff.emb | cut -f1,2
