#!/bin/sh
# ab.sh OLD NEW - every program of two builds (OLD and NEW are build
# directories, e.g. one of an earlier revision made in a git worktree) on
# the same inputs, in paired rounds: each round runs one program of OLD
# and of NEW in turn, and a row prints the median over AB_RUNS rounds (7)
# of NEW's wall time over OLD's, so that the machine's drift moves both
# sides alike.  A ratio below 1 is NEW faster.  Not part of make bench:
# it is for a change that should leave speed as it was.
#
#   git worktree add /tmp/old REV && make -C /tmp/old all
#   sh tests/bench/ab.sh /tmp/old/build build
set -u
[ $# -eq 2 ] || { echo "usage: ab.sh old-build new-build" >&2; exit 2; }
O=$(cd "$1" && pwd) N=$(cd "$2" && pwd) || exit 2
top=$(cd "$(dirname "$0")/../.." && pwd)
D=${BENCHDIR:-$top/build/bench}/ab
R=${AB_RUNS:-7}
V=$top/examples/data/word2vec-googlenews-300d-13k.vec.gz
mkdir -p "$D" && cd "$D" || exit 1

# Inputs from the bundled word2vec vectors: 20,000 lines of 2 to 16
# random words, their groups, their BOV, the words as queries, labels.
E=$N
[ -s w2v.store ] || $E/emb-lookup -q -e "$V" -B w2v.store || exit 1
[ -s s20k.txt ] || zcat "$V" | awk 'NR > 1 { w[++n] = $1 } END {
    srand(1); for (i = 0; i < 20000; i++) { m = 2 + int(rand() * 15); s = ""
	for (j = 0; j < m; j++) s = s (j ? " " : "") w[1 + int(rand() * n)]
	print i "\t" s } }' >s20k.txt
[ -s groups.emb ] || $E/emb-lookup -q -e w2v.store -f 1 <s20k.txt \
    >groups.emb || exit 1
[ -s sent.emb ] || $E/emb-bov -q <groups.emb >sent.emb || exit 1
[ -s lab.emb ] || $E/emb-cat sent.emb | awk -F '\t' '
    { print ($1 % 5) "\t" $0 }' | $E/emb-cat -r >lab.emb || exit 1
[ -s words.emb ] || zcat "$V" | awk 'NR > 1 { print $1 }' |
    $E/emb-lookup -q -e w2v.store >words.emb || exit 1
[ -s q2k.emb ] || $E/emb-cat words.emb | head -2000 | $E/emb-cat -r \
    >q2k.emb || exit 1
[ -s cls.emb ] || $E/emb-cat words.emb | awk -F '\t' '
    !/#[0-9]+$/ { print $1 "\tc" (NR % 50) "\t" $2 }' | $E/emb-cat -r \
    >cls.emb || exit 1

wall() {	# wall COMMAND: seconds, through sh
	s=$(date +%s.%N)
	sh -c "$1" >/dev/null 2>&1 || { echo nan; return; }
	e=$(date +%s.%N)
	echo "$e - $s" | bc -l
}
row() {		# row NAME COMMAND (@ stands for the build directory)
	: >"$D/r"
	i=0
	while [ $i -lt "$R" ]; do
		a=$(wall "$(echo "$2" | sed "s#@#$O#g")")
		b=$(wall "$(echo "$2" | sed "s#@#$N#g")")
		case "$a$b" in
		*nan*) echo "$1: failed" >&2; return ;;
		esac
		echo "$b / $a" | bc -l >>"$D/r"
		i=$((i + 1))
	done
	sort -g "$D/r" | awk -v n="$1" '{ v[NR] = $1 } END {
	    printf "%-14s new/old %.3f  (rounds %d, range %.3f-%.3f)\n",
		n, v[int((NR + 1) / 2)], NR, v[1], v[NR] }'
}

echo "new $N against old $O, median of $R paired rounds"
row emb-lookup '@/emb-lookup -q -e w2v.store -f 1 <s20k.txt'
row emb-lookup-vec "@/emb-lookup -q -e $V -f 1 <s20k.txt"
row emb-ose '@/emb-ose -q <groups.emb'
row emb-bov '@/emb-bov -q <groups.emb'
row emb-normalize '@/emb-normalize -q <groups.emb'
row emb-cat '@/emb-cat sent.emb'
row emb-cat-r '@/emb-cat sent.emb | @/emb-cat -r'
row emb-knn '@/emb-knn -k 10 words.emb q2k.emb'
row emb-eval '@/emb-eval -l 1 -c centroid,ridge,knn,lda -k 5 lab.emb'
row emb-augment '@/emb-augment -k 10 -K 2000 cls.emb'
row emb-pair '@/emb-pair -u sent.emb sent.emb'
row emb-split '@/emb-split -n 4 -i 2 <groups.emb | @/emb-split -j'
