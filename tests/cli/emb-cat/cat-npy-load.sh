# What numpy makes of emb-cat -N after a failure: no array at all, never an
# empty or short one that loads without complaint.
set -u
py=/usr/bin/python3
if ! [ -x $py ] || ! $py -c 'import numpy' 2>/dev/null; then
	echo "python3 with numpy is not installed" >&2
	exit 77
fi
load() {
	$py - "$1" <<'PY'
import sys
import numpy as np
try:
	a = np.load(sys.argv[1])
	print(sys.argv[1], "loads:", a.dtype, a.shape)
except Exception as e:
	print(sys.argv[1], "does not load:", type(e).__name__)
PY
}
printf 'a\t1 2\nb\t3 4\nc\t5 6\n' | emb-cat -r >x.emb
head -c 40 x.emb >cut.emb
emb-cat -N whole.npy x.emb >/dev/null
load whole.npy
emb-cat -N cut.npy cut.emb >/dev/null 2>&1
echo "truncated input: exit $?"
load cut.npy
mkfifo p
cat p >fifo.npy &
emb-cat -N p cut.emb >/dev/null 2>&1
echo "truncated input, FIFO: exit $?"
wait
load fifo.npy
