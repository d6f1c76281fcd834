# emb-split: contiguous, counted, round-robin and hashed parts; every part
# a valid stream, no group split; parts rejoined by cat and -j give the
# input back byte for byte; -i writes the same part as the files hold.
set -e
cat >g.txt <<'TXT'
s1	pos	#2
a	1 2
b	3 4
s2	neg	#0
s3	pos	#1
c	5 6
x	neg	7 8
y	pos	9 10
s4	neg	#3
d	1 1
e	2 2
f	-0 3e-45
TXT
emb-cat -r g.txt >g.emb
show() {
	for f in "$@"; do
		echo "== $f"
		emb-cat "$f"
	done
}

echo "-- -n 3 (contiguous, balanced)"
emb-split -n 3 g.emb
show part1.emb part2.emb part3.emb
cat part1.emb part2.emb part3.emb | emb-split -j | cmp - g.emb
for i in 1 2 3; do
	emb-split -n 3 -i $i g.emb | cmp - part$i.emb
	# from a pipe: the same parts
	cat g.emb | emb-split -n 3 -i $i | cmp - part$i.emb
done

echo "-- -n 8: more parts than units, the empty ones too"
emb-split -n 8 -o 'p%d' <g.emb
ls p?
show p1 p2
cat p1 p2 p3 p4 p5 p6 p7 p8 | emb-split -j | cmp - g.emb

echo "-- -l 2 (from a pipe)"
cat g.emb | emb-split -l 2 -o 'l%03d.emb'
ls l*.emb
show l003.emb
cat l*.emb | emb-split -j | cmp - g.emb
emb-split -l 2 -i 2 g.emb | cmp - l002.emb

echo "-- -n 2 -r"
emb-split -n 2 -r -o 'r%d%%' g.emb
show r1% r2%

echo "-- -n 3 -k 2 (by label)"
emb-split -n 3 -k 2 -o 'k%d' g.emb
show k1 k2 k3
emb-split -n 3 -k 2 -i 2 g.emb | cmp - k2

echo "-- -j on one segment, and on a segment without records"
emb-split -j g.emb | cmp - g.emb
printf '' | emb-cat -r -d 2 >empty.emb
cat empty.emb g.emb empty.emb empty.emb | emb-split -j | cmp - g.emb
emb-split -l 5 -o 'e%d' empty.emb
ls e?
emb-split -j empty.emb | cmp - empty.emb
