# emb-eval -r: a malformed qrels line exits 1 naming its line, a bad
# stream its record; a misuse exits 2.  The first line of standard error
# of each, with its exit status.
st() {
	"$@" >/dev/null 2>err
	echo "exit $?: $(head -1 err)"
}
printf 'd1\t1 0\nd2\t0 1\n' | emb-cat -r >c.emb || exit 1
printf 'q1\t1 0\nq2\t0 1\n' | emb-cat -r >q.emb || exit 1
printf 'q1 0 d1 1\n' >ok.txt
echo "== qrels"
printf 'q1 0 d1 1\nq1 d2\n' >two.txt
st emb-eval -r two.txt c.emb q.emb
printf 'q1 0 d1 1 x\n' >five.txt
st emb-eval -r five.txt c.emb q.emb
printf 'q1 0 d1 1\nq2 0 d2 1.5\n' >float.txt
st emb-eval -r float.txt c.emb q.emb
printf 'q1 0 d1 99999999999\n' >huge.txt
st emb-eval -r huge.txt c.emb q.emb
printf 'query-id\tcorpus-id\tscore\nq1\td1\t1\n' >header.tsv
st emb-eval -r header.tsv c.emb q.emb
printf 'q1 0 d1 1\nq2 d2 1\n' >mixed.txt
st emb-eval -r mixed.txt c.emb q.emb
printf 'q1 0 d1 1\nq2 0 d1 1\n# again\nq1 0 d1 2\n' >twice.txt
st emb-eval -r twice.txt c.emb q.emb
printf '# nothing\n\n' >empty.txt
st emb-eval -r empty.txt c.emb q.emb
printf 'q1 0 d1 1\nq2 0 d2 1' | st emb-eval -r /dev/stdin c.emb q.emb
printf 'q7 0 d1 1\n' >none.txt
emb-eval -r none.txt c.emb q.emb 2>&1 >/dev/null
echo "exit $?"
st emb-eval -r nosuch.txt c.emb q.emb
echo "== streams"
printf 'd1\t1 0\nd2\t0 1\nd1\t1 1\n' | emb-cat -r >dup.emb
st emb-eval -r ok.txt dup.emb q.emb
st emb-eval -r ok.txt c.emb dup.emb
st emb-eval -r ok.txt -i 2 c.emb q.emb
printf 'd1\t1 0 0\n' | emb-cat -r >c3.emb
st emb-eval -r ok.txt c3.emb q.emb
printf 'g\t#1\nd1\t1 0\n' | emb-cat -r >grouped.emb
st emb-eval -r ok.txt grouped.emb q.emb
: | emb-cat -r -d 2 >nothing.emb
st emb-eval -r ok.txt nothing.emb q.emb
echo "== misuse"
st emb-eval -K 1 c.emb
st emb-eval --per-query p.txt c.emb
st emb-eval -r ok.txt
st emb-eval -r ok.txt c.emb q.emb q.emb
st emb-eval -r ok.txt -p q.emb -g ok.txt c.emb
st emb-eval -r ok.txt -K 0 c.emb q.emb
st emb-eval -r ok.txt -K 1,,x c.emb q.emb
st emb-eval -r ok.txt -K , c.emb q.emb
st emb-eval -r ok.txt -K 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33 c.emb q.emb
st emb-eval -r ok.txt - <q.emb
st emb-eval -r - c.emb <ok.txt
st emb-eval -r ok.txt --versus c.emb c.emb q.emb
st emb-eval -r ok.txt --per-query x.txt --predictions x.txt c.emb q.emb
st emb-eval -r ok.txt --per-query q.emb c.emb q.emb
