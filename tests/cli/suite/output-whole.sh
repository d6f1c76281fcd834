# A file a program names is written whole or not at all: emb-eval's
# --predictions and emb-normalize -F's model leave nothing after a failed
# run (an older file of that name is kept as it was), and appear whole
# after a good one.
printf 'a\tx\t1 0\nb\ty\t0 1\nc\tx\t1 .1\nd\ty\t.1 1\n' | emb-cat -r >t.emb ||
    exit 1
head -c 40 t.emb >cut.emb
emb-eval -l 2 -k 2 -c knn --predictions p.txt cut.emb >/dev/null 2>&1
echo "eval, input cut: exit $?, predictions left: $(ls p.txt 2>/dev/null)"
echo old >p.txt
emb-eval -l 2 -k 2 -c knn --predictions p.txt cut.emb >/dev/null 2>&1
echo "eval, input cut: p.txt holds $(cat p.txt)"
emb-eval -l 2 -k 2 -c knn --predictions p.txt t.emb >/dev/null
echo "eval: exit $?, $(wc -l <p.txt) predictions"
emb-normalize -q -F m.txt cut.emb 2>/dev/null
echo "normalize -F, input cut: exit $?, model left: $(ls m.txt 2>/dev/null)"
emb-normalize -q -F m.txt t.emb
echo "normalize -F: exit $?, $(wc -l <m.txt) model lines"
ls
