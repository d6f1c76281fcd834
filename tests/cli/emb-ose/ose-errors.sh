# Usage errors exit 2; bad input, a full disk and a truncated stream exit 1.
printf 'a\t#2\nx\t1 0\ny\t0 1\n' | emb-cat -r >g.emb || exit 1
emb-ose -x g.emb >/dev/null;		echo "bad option: $?"
emb-ose g.emb g.emb >/dev/null;		echo "two operands: $?"
emb-ose -c 0.5 g.emb >/dev/null;	echo "-c without -p: $?"
emb-ose -p g.emb >/dev/null;		echo "-p without distances: $?"
emb-ose -p -c 0.5 -D 2 g.emb >/dev/null; echo "-p with two sources: $?"
emb-ose -p -c 3 g.emb >/dev/null;	echo "-c out of range: $?"
emb-ose -i -a g.emb >/dev/null;		echo "-i with -a: $?"
emb-ose -j 100 g.emb >/dev/null;	echo "-j too large: $?"
emb-ose -h | head -1;			echo "-h: $?"
emb-ose --version
emb-ose nosuch.emb >/dev/null;		echo "missing file: $?"
emb-ose g.emb >/dev/full;		echo "full disk: $?"
head -c 30 g.emb >t.emb
emb-ose t.emb >/dev/null;		echo "truncated: $?"
emb-ose -i g.emb >/dev/full;		echo "-i full disk: $?"
