# emb-eval --versus: misuse exits 2, a second representation whose keys
# differ from the first's exits 1 naming the record.
emb-cat -r "$TESTDATA/eval-train.txt" >a.emb || exit 1
emb-cat -r "$TESTDATA/eval-test.txt" >t.emb || exit 1
sed '3s/r3/x3/' "$TESTDATA/eval-train.txt" | emb-cat -r >b.emb || exit 1
emb-eval -t t.emb --versus a.emb a.emb; echo $?
emb-eval --versus-second t.emb a.emb; echo $?
emb-eval --names x a.emb; echo $?
emb-eval --versus a.emb --names x a.emb; echo $?
emb-eval --versus a.emb --names x,y/z a.emb; echo $?
emb-eval --versus - a.emb <a.emb >/dev/null; echo $?
emb-eval -w - --versus a.emb a.emb </dev/null; echo $?
emb-eval --seeds 0 a.emb; echo $?
emb-eval --resamples 0 a.emb; echo $?
emb-eval -k 3 -c centroid --versus b.emb a.emb >/dev/null; echo $?
emb-eval -k 3 -c centroid --versus t.emb a.emb >/dev/null; echo $?
