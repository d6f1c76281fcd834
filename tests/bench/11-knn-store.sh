#!/bin/sh
# 11-knn-store.sh - one question to a big vocabulary: emb-knn searching a
# store where it lies (its search section, mapped) beside the paths that
# read the whole reference set first (the same store without its search
# section, quantized at every start; the vectors as a stream, read and
# copied) and beside gensim (KeyedVectors.load(mmap='r') + most_similar
# in a fresh process: Debian python3-gensim).
#
# Synthetic stores of 1,000,000 and 3,000,000 x 300 (Gaussian vectors,
# knn-store.py gen) built by emb-lookup -B; 2 threads (KNNSTORE_THREADS);
# the whole process timed (wall, and peak RSS from /usr/bin/time), one
# query and 1,000 queries, page cache warm, each command run in turn with
# the others (paired) KNNSTORE_RUNS times (5): medians and ratios.  Then
# a cold start (the store's pages dropped from the page cache with
# posix_fadvise, that file only) and, where a memory cgroup can be made
# (root, cgroup v2 memory.max or v1 memory.limit_in_bytes), a search of
# the 3M store under a limit below its size.  gensim's 1,000 questions
# take minutes: KNNSTORE_GSQ=100 asks 100 of them and scales the time.
# KNNSTORE_SIZES picks the sizes ("1000000 3000000"); the big files (up
# to 15 GB) are removed at the end unless KNNSTORE_KEEP=1.
# KNNSTORE_BASE=DIR sets another build beside this one: its emb-lookup
# builds the same vectors into a store of its own format, its emb-knn
# searches it in the same run, paired, and the last line of each size
# gives this build's time over that one's (the bar for a change to the
# store or the search: a query may cost at most 10% more).
set -u
here=$(cd "$(dirname "$0")" && pwd)
d=$BENCHDIR/knnstore
py=/usr/bin/python3
gs="$py $here/knn-store.py"
R=${KNNSTORE_RUNS:-5}
GSQ=${KNNSTORE_GSQ:-1000}
T=${KNNSTORE_THREADS:-2}
K=10
mkdir -p "$d" || exit 1
OMP_NUM_THREADS=$T OPENBLAS_NUM_THREADS=$T BLIS_NUM_THREADS=$T
export OMP_NUM_THREADS OPENBLAS_NUM_THREADS BLIS_NUM_THREADS

median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# run NAME COMMAND...: append wall seconds and peak RSS (KB) to NAME.t, .m
run() {
	rn=$1
	shift
	t0=$(date +%s%N)
	/usr/bin/time -f %M -o "$d/rss" "$@" >"$d/$rn.out" 2>"$d/$rn.err" || {
		echo "  $rn failed:" >&2
		cat "$d/$rn.err" >&2
		return 1
	}
	t1=$(date +%s%N)
	echo "$(( (t1 - t0) / 1000000 ))" | awk '{ print $1 / 1000 }' \
	    >>"$d/$rn.t"
	tail -1 "$d/rss" >>"$d/$rn.m"
}

# show NAME LABEL [BASE]: median seconds and MB, and NAME's / BASE's time
show() {
	t=$(median <"$d/$1.t") m=$(median <"$d/$1.m")
	if [ $# -gt 2 ]; then
		b=$(median <"$d/$3.t")
		r=$(echo "$t $b" | awk '{ printf "%.1f", $1 / $2 }')
		printf "  %-44s %8.3f s %7.0f MB  %6sx\n" "$2" "$t" \
		    "$(echo "$m" | awk '{ print $1 / 1024 }')" "$r"
	else
		printf "  %-44s %8.3f s %7.0f MB\n" "$2" "$t" \
		    "$(echo "$m" | awk '{ print $1 / 1024 }')"
	fi
}

# In a memory cgroup of LIMIT bytes (as root, v2 or v1): COMMAND...
limited() {
	lim=$1
	shift
	if [ -w /sys/fs/cgroup/cgroup.subtree_control ] &&
	    grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		cg=/sys/fs/cgroup/emb-bench-$$
		mkdir "$cg" && echo "$lim" >"$cg/memory.max" &&
		    echo 0 >"$cg/memory.swap.max" 2>/dev/null
	else
		own=$(sed -n 's/^[0-9]*:memory://p' /proc/self/cgroup)
		[ -n "$own" ] && [ -w "/sys/fs/cgroup/memory$own" ] || return 2
		cg=/sys/fs/cgroup/memory$own/emb-bench-$$
		mkdir "$cg" && echo "$lim" >"$cg/memory.limit_in_bytes"
	fi || return 2
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$@"
	rc=$?
	rmdir "$cg"
	return $rc
}

# The int8 arithmetic's own limit (knn-int8.c: the search's kernel on a
# strip held in the cache, T threads): 1,000 queries need 1000 x n x 300
# of its multiply-adds.
top=$(cd "$here/../.." && pwd)
bld=$(dirname "$(command -v emb-knn)")
cc -O2 -D_GNU_SOURCE -I"$top/lib" -o "$d/knn-int8" "$here/knn-int8.c" \
    "$bld/libemb.a" -lblis -llapack -lz -lm -lpthread || exit 1
echo "load average before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
for n in ${KNNSTORE_SIZES:-1000000 3000000}; do
	s=$d/ref$n
	[ -s "$s.bin" ] && [ -s "$s.kv" ] || $gs gen "$n" 300 1 "$s.bin" \
	    "$s.kv" || exit 1
	[ -s "$s.store" ] || emb-lookup -q -e "$s.bin" -B "$s.store" || exit 1
	[ -s "$s.old" ] || $gs strip "$s.store" "$s.old" || exit 1
	if [ -n "${KNNSTORE_BASE:-}" ]; then
		"$KNNSTORE_BASE/emb-lookup" -q -e "$s.bin" -B "$s.base" ||
		    exit 1
	fi
	rm -f "$s.bin"
	# One word, and 1,000 spread over the vocabulary.
	echo w5 | emb-lookup -q -e "$s.store" >"$d/q1.emb" || exit 1
	awk -v n="$n" 'BEGIN { for (i = 0; i < 1000; i++)
	    print "w" (i * 997 + 5) % n }' >"$d/q1k.txt"
	emb-lookup -q -e "$s.store" <"$d/q1k.txt" >"$d/q1k.emb" || exit 1
	kb=$(emb-knn -v -k $K "$s.store" "$d/q1.emb" 2>&1 >/dev/null |
	    sed -n 's/.* \([0-9]*\) of [0-9]* rescored.*/\1/p')
	codes=$(( (n + 63) / 64 * 64 * 300 ))
	cat "$s.store" "$s.old" "$s.kv" "$s.kv.vectors.npy" >/dev/null
	[ -z "${KNNSTORE_BASE:-}" ] || cat "$s.base" >/dev/null
	rm -f "$d"/*.t "$d"/*.m
	i=0
	while [ $i -lt "$R" ]; do
		run new1 emb-knn -j "$T" -k $K "$s.store" "$d/q1.emb" &&
		run old1 emb-knn -j "$T" -k $K "$s.old" "$d/q1.emb" &&
		run gs1 $gs gensim "$s.kv" $K w5 &&
		run new1k emb-knn -j "$T" -k $K "$s.store" "$d/q1k.emb" &&
		run old1k emb-knn -j "$T" -k $K "$s.old" "$d/q1k.emb" ||
		    exit 1
		if [ -n "${KNNSTORE_BASE:-}" ]; then
			run base1 "$KNNSTORE_BASE/emb-knn" -j "$T" -k $K \
			    "$s.base" "$d/q1.emb" || exit 1
			cmp -s "$d/base1.out" "$d/new1.out" || {
				echo "  the base build answers otherwise" >&2
				exit 1
			}
		fi
		i=$((i + 1))
	done
	# gensim answers one question at a time, a scan of all the vectors
	# each: KNNSTORE_GSQ of the 1,000 (all by default), once, its time
	# scaled to 1,000.
	head -n "$GSQ" "$d/q1k.txt" >"$d/gsq.txt"
	run gs1k $gs gensim "$s.kv" $K $(cat "$d/gsq.txt") || exit 1
	awk -v n="$GSQ" '{ print $1 * 1000 / n }' "$d/gs1k.t" >"$d/gs1k.x"
	mv "$d/gs1k.x" "$d/gs1k.t"
	echo "$n references x 300 (store $(($(wc -c <"$s.store") / 1000000))" \
	    "MB, its codes $((codes / 1000000)) MB), k = $K, $T threads," \
	    "whole process, warm page cache, median of $R:"
	echo "  (the last column: time / the store searched in place)"
	show new1 "one query, store searched in place"
	show old1 "one query, store quantized at load" new1
	show gs1 "one query, gensim load(mmap) + most_similar" new1
	show new1k "1,000 queries, store searched in place"
	show old1k "1,000 queries, store quantized at load" new1k
	show gs1k "1,000 queries, gensim ($GSQ asked, once)" new1k
	if [ -n "${KNNSTORE_BASE:-}" ]; then
		show base1 "one query, the base build's store and search" new1
		echo "  one query: this build / the base build =" \
		    "$(paste "$d/new1.t" "$d/base1.t" | awk '{ print $1 / $2 }' |
		    median) (median of the paired ratios)"
	fi
	if lim=$("$d/knn-int8" 300 "$T" 5); then
		echo "$lim" | awk -v n="$n" -v t="$(median <"$d/new1k.t")" '{
		    s = 1000 * n * 300 / ($3 * 1e9)
		    printf "  1,000 queries: the int8 limit %.3f s (%.0f GMAC/s," \
			" %s); the search / the limit = %.2f\n", s, $3, $4 " " $5 " " $6, t / s }'
	fi
	rss=$(median <"$d/new1.m")
	echo "  one query: peak RSS / (codes + rows rescored) = $(echo \
	    "$rss $codes $kb" | awk '{ printf "%.2f", $1 * 1024 / \
	    ($2 + $3 * 1216) }') ($kb rows rescored)"
	# The stream of the same vectors: what emb-knn always read before.
	if [ "$n" -le 1000000 ]; then
		emb-lookup -e "$s.store" -D >"$s.emb" 2>/dev/null || exit 1
		cat "$s.emb" >/dev/null
		i=0
		while [ $i -lt 3 ] && [ $i -lt "$R" ]; do
			run str1 emb-knn -j "$T" -k $K "$s.emb" "$d/q1.emb" ||
			    exit 1
			i=$((i + 1))
		done
		show str1 "one query, stream reference (median of 3)" new1
		rm -f "$s.emb"
	fi
	# Cold: the store's pages (and gensim's) dropped first.
	for i in 1 2 3; do
		$gs evict "$s.store"
		run cnew1 emb-knn -j "$T" -k $K "$s.store" "$d/q1.emb" || exit 1
		$gs evict "$s.kv" "$s.kv.vectors.npy"
		run cgs1 $gs gensim "$s.kv" $K w5 || exit 1
	done
	show cnew1 "cold cache: one query, store in place"
	show cgs1 "cold cache: one query, gensim" cnew1
	show new1 "(warm: one query, store in place)" cnew1
	# Bigger than memory: a limit below the store's size.
	if [ "$n" -ge 3000000 ]; then
		lim=$((codes + 256000000))
		$gs evict "$s.store"
		: >"$d/lim1.t"
		: >"$d/lim1.m"
		limited "$lim" /bin/sh -c 't0=$(date +%s%N); emb-knn -j "$1" \
		    -k "$2" "$3" "$4" >/dev/null || exit 1; t1=$(date +%s%N); \
		    echo $(( (t1 - t0) / 1000000 ))' sh "$T" $K "$s.store" \
		    "$d/q1k.emb" >"$d/lim.out" 2>"$d/lim.err"
		case $? in
		0) echo "  memory limit $((lim / 1000000)) MB (store" \
		    "$(($(wc -c <"$s.store") / 1000000)) MB), cold: 1,000" \
		    "queries in $(awk '{ print $1 / 1000 }' "$d/lim.out") s" ;;
		2) echo "  memory limit: no memory cgroup can be made here" ;;
		*) echo "  memory limit $((lim / 1000000)) MB: failed:" \
		    "$(cat "$d/lim.err")" ;;
		esac
	fi
	[ "${KNNSTORE_KEEP:-0}" = 1 ] || rm -f "$s.store" "$s.old" "$s.kv" \
	    "$s.kv.vectors.npy" "$s.base"
done
echo "load average after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
