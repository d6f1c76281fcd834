# A store damaged after it was built (a bit flipped, a byte changed, a
# page zeroed, in every region of its layout) gives every program that
# reads it the undamaged store's answer, or makes it exit 1 naming the
# store: never another answer (emb-store(5) CHECKS).  A word-vector store
# (300 GloVe words, dimension 100: five strips of codes) and one built
# from a fastText model (subword rows), each through emb-lookup (words,
# and unknown words from their n-grams), emb-knn (plain, CSLS, mutual,
# 3CosMul) and emb-bias; tests/data/store-damage.py does the damage.
zcat "$EXDATA/glove-6B-100d-2.6k.txt.gz" | head -300 >g.txt
emb-lookup -q -e g.txt -B g.store || exit 1
awk 'NR % 15 == 1 { print $1 }' g.txt >words.txt
emb-lookup -q -w -e g.store <words.txt >q.emb || exit 1
awk 'NR % 30 == 1 { w = $1; getline; x = $1; getline; print w, x, $1 }' \
    g.txt | emb-lookup -q -e g.store >abc.emb || exit 1
printf 'X x the of and\nY y to a in\nA a for is on\nB b that by with\n' \
    >sets.txt
python3 "$TESTDATA/store-damage.py" glove g.store 3 1 \
    'emb-lookup -q -e STORE -w words.txt' \
    'emb-knn -j 2 -k 4 STORE q.emb' \
    'emb-knn -j 2 --csls 3 -k 2 STORE q.emb' \
    'emb-knn -j 2 --mutual -k 3 STORE q.emb' \
    'emb-knn -j 2 -A --cosmul -k 2 STORE abc.emb' \
    'emb-bias -b 0 -n 100 -w sets.txt STORE' || echo "glove: wrong answers"
d=$TESTDATA/fasttext
emb-lookup -q -e "$d/model.bin" -B f.store || exit 1
printf 'the stream\nxyzzy cafe\n' >f.txt
emb-lookup -q -w -e f.store -o subword f.txt >fq.emb || exit 1
python3 "$TESTDATA/store-damage.py" fasttext f.store 4 2 \
    'emb-lookup -q -e STORE -o subword f.txt' \
    'emb-knn -j 2 -k 3 STORE fq.emb' || echo "fasttext: wrong answers"
