# A named set with no words is refused as such (not "0 of 0 words not
# in"), before any vector is read.  When A and B hold the same words,
# every association s(w, A, B) is 0 by definition (not the rounding of
# two sums in two orders): WEAT prints its figures, the effect size nan,
# exits 0 and says why on standard error; as it does when every target
# word has the same association.  A set whose vectors are one vector is
# named, with the likely cause (its words dropped upstream, as SEAT's
# capitalised names are from lower-case GloVe), and so is ECT's rho when
# it is undefined.
cat >v.txt <<'END'
he	1 0 0
she	0 1 0
man	1 0.1 0
woman	0.1 1 0
good	0.5 0.5 1
bad	0.5 0.4 -1
nice	0.6 0.5 1
ugly	0.3 0.7 -1
END
emb-cat -r v.txt >v.emb || exit 1
# run ARGS...: emb-bias's exit status; its output in out.tsv.
run() {
	emb-bias "$@" >out.tsv; echo "exit $?"
}
printf 'X m he man\nY f\nA p good nice\nB n bad ugly\n' >empty.txt
run -w empty.txt v.emb
printf 'X m he man\nY f she woman\nA p good\nB n bad ugly\n' >emptyp.txt
printf 'X m\nY f she\n' >pairs.txt
run -t ripa -p pairs.txt -w emptyp.txt v.emb
# X = Y, A = B in another order.
printf 'X m he man woman\nY f he man woman\nA p good nice bad\nB n bad good nice\n' >same.txt
run -b 0 -w same.txt v.emb
grep -v ':s:' out.tsv | cut -f3,4
# X and Y apart, A = B: nan all the same.
printf 'X m he man\nY f she woman\nA p good nice\nB n nice good\n' >ab.txt
run -b 0 -w ab.txt v.emb
grep -w -e effect_size -e statistic -e p out.tsv | cut -f3,4
# Every target word the same vector: the same association, not 0.
printf 'a\t1 0\nb\t1 0\nc\t2 0\nd\t1 0\nx\t1 1\ny\t0 1\n' | emb-cat -r >flat.emb ||
    exit 1
printf 'X m a b\nY f c d\nA p x\nB n y\n' >flat.txt
run -b 0 -w flat.txt flat.emb
grep -w -e effect_size -e p out.tsv | cut -f3,4
# ECT: the attribute words at one cosine from each mean; one attribute word.
printf 'a\t1 0\nb\t1 0.1\nc\t1 -0.1\nd\t1 0\nx\t1 1\ny\t1 -1\n' |
    emb-cat -r >ect.emb || exit 1
printf 'X m b c\nY f a d\nA p x\nB n y\n' >ect.txt
run -t ect -w ect.txt ect.emb
grep -w ect out.tsv | cut -f3,4
printf 'X m a b\nY f c d\nA p x\n' >ect1.txt
run -t ect -w ect1.txt ect.emb
grep -w ect out.tsv | cut -f3,4
# SEAT on WEAT 6: its capitalised names are not in the bundled GloVe, so
# that every sentence of X and Y is its template "this is" alone.
awk '!/^#/ { for (i = 3; i <= NF; i++) print $i "\tthis is " $i }' \
    "$EXDATA/bias/weat6.txt" |
    emb-lookup -q -f 1 -e "$EXDATA/glove-6B-300d-1k.txt.gz" |
    emb-ose -q >seat6.emb || exit 1
emb-bias -b 0 -w "$EXDATA/bias/weat6.txt" seat6.emb 2>&1 >out.tsv |
    sed 's|^emb-bias: .*/|emb-bias: |'
grep -w -e effect_size -e p out.tsv | cut -f3,4
