# A regular file is what it holds (emb(5), TEXT INPUTS): its last line
# without LF is read as a line, in every kind of text input, with the
# same output and status as the file with the LF.  Some published files
# end so (EN-SimVerb-3500.txt, EN-MTurk-287.txt), as gensim, awk and sort
# read them.  The refusal of a pipe cut mid-line is text-cut.
set -u
T=$(printf '\t')
# label, a file ending in LF, a command reading "$f": status and output
# for the file less its final LF, and whether they are the file's own.
chk() {
	f=in.${2##*.}
	cp "$2" "$f"
	eval "$3" >a.out 2>a.err
	ea=$?
	head -c -1 "$2" >"$f"
	[ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" != '\n' ] || exit 1
	eval "$3" >b.out 2>b.err
	eb=$?
	r=differs
	[ "$ea" -eq "$eb" ] && cmp -s a.out b.out && cmp -s a.err b.err &&
	    r=same
	echo "$1: exit $eb, $r ($(wc -l <b.out) lines)"
	cat b.err
}
emb-cat -r "$TESTDATA/sts-a.txt" >a.emb || exit 1
emb-cat -r "$TESTDATA/sts-b.txt" >b.emb || exit 1
emb-cat -r "$TESTDATA/ws-words.txt" >w.emb || exit 1
chk "gold scores, emb-eval -g" "$TESTDATA/sts-gold.txt" \
    'emb-eval -p b.emb -g "$f" -T sts a.emb'
chk "word pairs, emb-eval -w" "$TESTDATA/ws-pairs.txt" \
    'emb-eval -w "$f" -T ws w.emb'
printf 'cat cat\ndog dog\ncar car\n' >dict.txt
chk "dictionary, emb-eval -L" dict.txt 'emb-eval -L "$f" -R w.emb w.emb'
printf 'cat\t1 0\ndog\t0.9 0.1\ncar\t0 1\nbus\t0.1 0.9\n' |
    emb-cat -r >s.emb || exit 1
printf 'cat\t1 0\ndog\t0.8 0.2\ncar\t0 1\nbus\t0.2 0.8\n' |
    emb-cat -r >t.emb || exit 1
printf 'cat cat\ndog dog\ncar car\nbus bus\n' >pairs.txt
chk "dictionary, emb-align -d" pairs.txt \
    'emb-align -q -F m.txt -d "$f" s.emb t.emb && cat m.txt'
printf 'he\t1 0\nshe\t0 1\nman\t0.9 0.1\nwoman\t0.1 0.9\ngood\t0.6 0.5\nbad\t0.4 0.7\nnice\t0.7 0.4\nugly\t0.3 0.6\n' |
    emb-cat -r >v.emb || exit 1
printf 'X m he man\nY f she woman\nA p good nice\nB n bad ugly\n' >sets.txt
chk "sets, emb-bias -w" sets.txt 'emb-bias -w "$f" v.emb'
printf 'g\t#2\nx\t1 0\ny\t0 1\n' | emb-cat -r >g.emb || exit 1
printf 'y 2\nx 1\n' >freq.txt
chk "frequencies, emb-bov -w" freq.txt 'emb-bov -q -w "$f" g.emb | emb-cat'
printf 'g\t#2\nx\t1 0 0\ny\t0 1 0\n' | emb-cat -r >p.emb || exit 1
printf '0.3 0.3\n' >dist.txt
chk "distances, emb-ose -F" dist.txt \
    'emb-ose -q -p -F "$f" p.emb | emb-cat'
cp "$TESTDATA/lookup/tiny.vec" .
printf 'the cat\nthe\n' >query.txt
chk "queries, emb-lookup" query.txt 'emb-lookup -q -e tiny.vec "$f" | emb-cat'
chk "queries, emb-lookup <" query.txt \
    'emb-lookup -q -e tiny.vec <"$f" | emb-cat'
printf 'the\ncat\n' >words.txt
chk "word list, emb-lookup -w" words.txt \
    'emb-lookup -q -w -e tiny.vec "$f" | emb-cat'
printf 'g\t#1\na\t1 2\nb\t3 4.5\n' >view.txt
chk "text view, emb-cat -r" view.txt 'emb-cat -r "$f" | emb-cat'
emb-cat -r view.txt >x.emb || exit 1
emb-cat -N x.npy x.emb >keys.txt || exit 1
chk "keys, emb-cat -n -K" keys.txt 'emb-cat -n x.npy -K "$f"'
printf "q${T}1${T}a${T}0.5\nq${T}2${T}b${T}0.75\n" >nn1.txt
printf "q${T}1${T}c${T}0.25\nq${T}2${T}d${T}0.625\n" >nn2.txt
chk "neighbour list, emb-knnmerge" nn1.txt 'emb-knnmerge -k 3 "$f" nn2.txt'
printf "1${T}q${T}1${T}a${T}0.5\n2${T}q${T}1${T}c${T}0.25\n" >tagged.txt
chk "tagged lists, emb-knnmerge <" tagged.txt 'emb-knnmerge -k 2 <"$f"'
chk "word2vec text, emb-lookup -e" tiny.vec \
    'emb-lookup -D -e "$f" | emb-cat'
printf 'king 0.5 -1\nqueen 2 0.25\nman 1 4.5\n' >glove.txt
chk "GloVe text, emb-lookup -e" glove.txt 'emb-lookup -D -e "$f" | emb-cat'
printf 'x\t1 0 0\ny\t0 1 0\nz\t1 1 1\n' | emb-cat -r >m.emb || exit 1
emb-normalize -q -F pca.txt -r 1 m.emb || exit 1
chk "model, emb-normalize -M" pca.txt 'emb-normalize -q -M "$f" m.emb | emb-cat'
# gzip is framed by its trailer: whole through a pipe too.
head -c -1 glove.txt | gzip -n >glove.gz
gzip -dc glove.gz | tail -c 3 | od -An -c
cat glove.gz | emb-lookup -D -e - | emb-cat
echo "gzip through a pipe, no LF: exit $?"
exit 0
