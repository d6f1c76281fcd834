# emb-bov: empty groups under each policy, usage errors, bad input.
printf 'a\t#1\nx\t1 2\nempty\t#0\nb\t#1\ny\t0 0\n' | emb-cat -r >g.emb || exit 1
echo "-- zero (default)"
emb-bov g.emb | emb-cat
echo "-- skip"
emb-bov -e skip g.emb | emb-cat
echo "-- unit: zero members only is empty too"
emb-bov -q -m unit -e skip g.emb | emb-cat
echo "-- error"
emb-bov -e error g.emb >/dev/null;	echo "exit $?"
emb-bov -m median g.emb >/dev/null;	echo "bad method: $?"
emb-bov -m max -w f g.emb >/dev/null;	echo "-w with max: $?"
emb-bov -w nosuch g.emb >/dev/null;	echo "missing freq file: $?"
printf 'good\n' >bad.txt
emb-bov -w bad.txt g.emb >/dev/null;	echo "bad freq file: $?"
emb-bov g.emb >/dev/full;		echo "full disk: $?"
head -c 40 g.emb | emb-bov >/dev/null;	echo "truncated: $?"
emb-bov --help;				echo "--help: $?"
