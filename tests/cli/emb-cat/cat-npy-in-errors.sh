# emb-cat -n refuses what is not a 2-D float array with one key per row,
# naming the file: sizes are checked before anything is allocated, a short
# array writes no trailer, bytes after the data are found.
set -u
# npy DICT: a version 1.0 .npy header holding the dictionary DICT.
npy() {
	n=$((${#1} + 1))
	printf '\223NUMPY\001\000'"\\$(printf %03o $((n % 256)))"
	printf "\\$(printf %03o $((n / 256)))"'%s\n' "$1"
}
d2="{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }"
printf 'a\nb\n' >keys
{ npy "$d2"; printf '\000\000\200\077\000\000\000\100\000\000\100\100\000\000\200\100'; } >ok.npy
emb-cat -n ok.npy -K keys | emb-cat
run() {	# name, then the rest of emb-cat's arguments
	n=$1
	shift
	emb-cat -n "$n" "$@" >out.emb
	echo "$n: exit $?, $(wc -c <out.emb | tr -d ' ') bytes out"
}
# A header declaring 10^12 rows in a file of 80 bytes: refused at once.
{ npy "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000, 4), }"
    printf '0123456789'; } >huge.npy
run huge.npy -K keys
# The same from a pipe: rows are read as they come.
cat huge.npy | run - -K keys
sed 's/False/True /' huge.npy | run - -K keys
head -c 70 ok.npy >short.npy
run short.npy -K keys
cat short.npy | run - -K keys
emb-cat <out.emb >/dev/null
{ cat ok.npy; echo x; } >long.npy
run long.npy -K keys
cat long.npy | run - -K keys
head -c 30 ok.npy >inhdr.npy
run inhdr.npy -K keys
printf 'PK\003\004' >zip.npy
run zip.npy -K keys
: >empty.npy
run empty.npy -K keys
{ printf '\223NUMPY\004\000'; tail -c +9 ok.npy; } >v4.npy
run v4.npy -K keys
printf '\223NUMPY\002\000\377\377\377\377' >biglen.npy
run biglen.npy -K keys
for dict in "{'descr': '<f4', 'fortran_order': False, }" \
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), 'x': 1}" \
    "{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 2), }" \
    "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }" \
    "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2), }" \
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 0), }" \
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), } x" \
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 99999999999999999999), }" \
    "[1, 2]"; do
	npy "$dict" >bad.npy
	run bad.npy -K keys
done
# The keys: as many as rows, escaped as emb(5) keys, each ending in LF
# (the last of a regular file needs none).
printf 'a\n' >k1
run ok.npy -K k1
printf 'a\nb\nc\n' >k3
run ok.npy -K k3
printf 'a\nb' >knolf
run ok.npy -K knolf
printf 'a\nb\\x\n' >kesc
run ok.npy -K kesc
run ok.npy -K keys -g 2
run ok.npy -K nosuch
# Non-finite values: refused, or let through with -a.
{ npy "$d2"; printf '\000\000\300\177\000\000\000\100\000\000\200\177\000\000\200\100'; } >nan.npy
run nan.npy -K keys
emb-cat -n nan.npy -K keys -a | emb-cat -a
# Usage.
emb-cat -n ok.npy; echo "no -K: exit $?"
emb-cat -n ok.npy -K keys -G 1; echo "-G without -g: exit $?"
emb-cat -n ok.npy -K keys x.emb; echo "a file operand: exit $?"
emb-cat -n - -K - <keys; echo "both on stdin: exit $?"
emb-cat -n ok.npy -K keys -g 1 -G 0; echo "-G 0: exit $?"
# What numpy's format cannot have: a shape with a leading zero ("04" is
# no Python literal) and a header whose dictionary ends without its
# newline; "00" is zero, as Python reads it.
sed 's/(2, 2), }/(02, 2),}/' ok.npy >lead0.npy
run lead0.npy -K keys
{ npy "{'descr': '<f4', 'fortran_order': False, 'shape': (00, 2), }"; } >zero.npy
printf '' >nokeys
run zero.npy -K nokeys
{ npy "$d2" | tr '\n' ' '; printf '\000\000\200\077\000\000\000\100\000\000\100\100\000\000\200\100'; } >nolf.npy
run nolf.npy -K keys
exit 0
