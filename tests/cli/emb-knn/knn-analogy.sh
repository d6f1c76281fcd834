# Word analogies (3CosAdd) on the bundled word2vec vectors: b - a + c with
# a, b, c excluded, and the accuracy report in the manner of word2vec's
# compute-accuracy (per section, and questions seen / total).  The query
# stream is what emb-lookup gives for lines "section<TAB>a b c d": a group
# per question keyed by its fields, its members the known words; a question
# with an unknown word is counted in the total but not seen.  The figures
# agree with a numpy transcription of compute-accuracy on the same vectors.
gzip -dc "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" >w2v.txt
awk 'NR > 1 { w = $1; gsub(/\\/, "\\\\", w); $1 = ""; sub(/ +$/, "");
    print w "\t" substr($0, 2) }' w2v.txt | emb-cat -r >ref.emb || exit 1
awk -v Q="$TESTDATA/knn-questions.txt" -f "$TESTDATA/knn-questions.awk" \
    w2v.txt | emb-cat -r >q.emb || exit 1
echo "== report"
emb-knn -R -g 1 ref.emb <q.emb
echo "== report, one section, expected answer from a key field"
# Lines "section<TAB>d<TAB>a b c": groups of three, the answer in the key.
awk -v Q="$TESTDATA/knn-questions.txt" -v ANSWER=1 \
    -f "$TESTDATA/knn-questions.awk" w2v.txt | emb-cat -r >q3.emb || exit 1
emb-knn -R -e 2 ref.emb <q3.emb
echo "== neighbours of b - a + c"
emb-knn -A -k 2 ref.emb <q.emb | head -8
echo "== groups too small to ask are skipped, with a count"
emb-cat q.emb | awk -F '\t' 'NR == 1 { print "short\t#2" } NR == 2 || NR == 3' |
    emb-cat -r >two.emb || exit 1
cat two.emb q.emb | emb-knn -A -k 1 ref.emb | head -2
echo "== a vector outside any group"
emb-knn -A ref.emb <ref.emb
echo "exit $?"
