# Faults in the middle of a pipeline, through every filter: a stage fed a
# truncated stream (its upstream died) or hostile numbers must fail or
# cope as documented, and never pass a clean-looking stream on.  Prints
# only what goes wrong (so a program not built yet is simply not checked).
#
# For each filter F (emb-ose, emb-bov, emb-normalize -l) and emb-knn:
#   - input cut inside a record: F exits 1 naming the truncation, and what
#     it wrote is itself a truncated stream (emb-cat on it exits 1);
#   - a real upstream killed by SIGKILL in front of F | emb-knn: both fail;
#   - NaN in the input: refused (exit 1);
#   - zero vectors, denormals, dimensions 1 and 10,000, groups of 1 and
#     of 100,000 members: exit 0 and a finite output (emb-cat refuses
#     non-finite values), one record per group.
# And emb-lookup on emb(5) vectors that go bad early: an error, not a hang.
has() { command -v "$1" >/dev/null; }
bad() { echo "$*"; }

# The inputs.  g.emb: 3,000 groups of 3 members, dimension 8.
awk 'BEGIN { srand(3); for (i = 1; i <= 3000; i++) { printf "g%d\t#3\n", i
	for (m = 0; m < 3; m++) { printf "w%d", m
		for (j = 0; j < 8; j++) printf "%s%.6f", j ? " " : "\t", rand() - 0.5
		printf "\n" } } }' >g.txt
emb-cat -r g.txt >g.emb
size=$(wc -c <g.emb)
head -c $((size / 2 + 3)) g.emb >cut.emb
awk 'BEGIN { for (i = 0; i < 50; i++) { printf "r%d", i
	for (j = 0; j < 8; j++) printf "%s%d", j ? " " : "\t", (i + j) % 5 - 2
	printf "\n" } }' | emb-cat -r >ref8.emb
printf 'n\t#2\na\t1 0\nb\tnan 1\n' | emb-cat -r -a >nan.emb
printf 'z\t#2\na\t0 0\nb\t0 0\nd\t#2\nc\t1e-45 0\ne\t0 -1e-45\n' |
    emb-cat -r >zero.emb
printf 'one\t#1\na\t0.5\ntwo\t#2\nb\t1\nc\t-2\n' | emb-cat -r >d1.emb
awk 'BEGIN { srand(5); for (i = 0; i < 3; i++) { printf "g%d\t#2\n", i
	for (m = 0; m < 2; m++) { printf "w%d\t", m
		for (j = 0; j < 10000; j++) printf "%s%.5f", j ? " " : "", rand() - 0.5
		printf "\n" } } }' | emb-cat -r >d10k.emb
awk 'BEGIN { srand(9); print "big\t#100000"
	for (i = 0; i < 100000; i++) printf "m%d\t%.6f %.6f %.6f\n", i,
	    rand() - 0.5, rand() - 0.5, rand() - 0.5 }' | emb-cat -r >big.emb

# ok NAME FILE: FILE is a whole, finite stream of N records (count in $n).
records() {
	emb-cat -k "$2" 2>err.txt | wc -l >n.txt
	n=$(cat n.txt)
	[ ! -s err.txt ] || bad "$1: output: $(cat err.txt)"
}

for f in "emb-ose -q" "emb-bov -q" "emb-normalize -lq" "emb-knn -k 2 ref8.emb"; do
	set -- $f
	has "$1" || continue
	name=$f
	# Cut input.
	$f <cut.emb >out.emb 2>err.txt
	st=$?
	[ $st = 1 ] || bad "$name, cut input: exit $st"
	grep -q truncated err.txt || bad "$name, cut input: $(cat err.txt)"
	case $1 in
	emb-knn) ;;
	*)	emb-cat -k out.emb >/dev/null 2>&1 &&
		    bad "$name, cut input: its output looks whole" ;;
	esac
	# NaN.
	$f <nan.emb >/dev/null 2>err.txt
	st=$?
	[ $st = 1 ] || bad "$name, NaN input: exit $st"
	[ "$1" = emb-knn ] && continue
	# Numeric hostility: a finite record per group (per record for
	# emb-normalize, which keeps the framing).
	for t in zero:2:6 d1:2:5 d10k:3:9 big:1:100001; do
		in=${t%%:*}
		want=${t#*:}
		[ "$1" = emb-normalize ] && want=${want#*:} || want=${want%:*}
		$f <$in.emb >out.emb 2>err.txt
		st=$?
		[ $st = 0 ] || { bad "$name, $in: exit $st: $(cat err.txt)"
			continue; }
		records "$name, $in" out.emb
		[ "$n" = "$want" ] ||
		    bad "$name, $in: $n records, expected $want"
	done
done

# emb-lookup reading an emb(5) vectors file that goes bad early, with more
# than a pipe's worth of data after the bad record: an error, not a hang
# (its reader thread was left blocked on the pipe).  The timeout only
# turns a hang into a failure.
if has emb-lookup; then
	awk 'BEGIN { for (i = 0; i < 30000; i++) printf "w%d\t%d 1 2 3\n", i, i }' |
	    emb-cat -r >v.emb
	{ head -c 16 v.emb; printf 'X'; tail -c +17 v.emb; } >vbad.emb
	timeout 600 emb-lookup -e vbad.emb -D >/dev/null 2>err.txt
	st=$?
	[ $st = 1 ] || bad "emb-lookup, bad emb vectors: exit $st"
fi

# A real upstream killed mid-stream in front of FILTER | emb-knn (see
# fault-killed for the mechanism): emb-cat -r flushes one block and waits;
# once tee has passed it on, emb-cat -r is killed.
has emb-ose && has emb-knn || exit 0
awk 'BEGIN { for (i = 0; i < 40000; i++)
	printf "g%06d\t#1\nw\t%d 0.5 -1 2 0 0 0 1\n", i, i % 97 }' >in.txt
mkfifo fifo
( sh -c 'echo $$ >up.pid; exec emb-cat -r' <fifo | tee mid.emb |
    { emb-ose -q 2>ose.err; echo $? >ose.exit; } |
    { emb-knn -k 1 ref8.emb >knn.out 2>knn.err; echo $? >knn.exit; } ) \
    2>/dev/null &
exec 3>fifo
cat in.txt >&3
# Records: G "g000000" (16 bytes) and V "w" with 8 floats (38 bytes).
i=0
while :; do
	sz=$(wc -c <mid.emb 2>/dev/null || echo 0)
	r=$(((sz - 16) % 54))
	[ "$sz" -gt $((1048576 - 54)) ] && { [ $r = 0 ] || [ $r = 16 ]; } &&
	    break
	i=$((i + 1))
	[ $i -gt 300 ] && { bad "chain: upstream never wrote a block"; break; }
	sleep 0.1
done
kill -KILL "$(cat up.pid)"
exec 3>&-
wait
[ "$(cat ose.exit)" = 1 ] || bad "chain: emb-ose exit $(cat ose.exit)"
grep -q truncated ose.err || bad "chain: emb-ose: $(cat ose.err)"
[ "$(cat knn.exit)" = 1 ] || bad "chain: emb-knn exit $(cat knn.exit)"
# (emb-ose may die before its first block: then emb-knn sees no header.)
grep -q 'truncated\|empty input' knn.err ||
    bad "chain: emb-knn: $(cat knn.err)"
exit 0
