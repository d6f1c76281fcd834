# emb-cat -N writes the vectors as a NumPy .npy matrix and the keys on
# stdout; groups are left out.  Read back with numpy where it is installed,
# otherwise the header bytes are checked with od.
set -u
zcat "$EXDATA/glove-6B-100d-2.6k.txt.gz" | head -50 |
    awk '{ k = $1; $1 = ""; print k "\t" substr($0, 2) }' >w.txt
{ printf 'grp\t#2\n'; cat w.txt; } | emb-cat -r >x.emb
emb-cat -N x.npy x.emb >keys || echo "emb-cat -N failed"
cut -f 1 w.txt | cmp - keys && echo "keys: the 50 words in order"
# 128-byte header, then 50 x 100 x 4 bytes.
wc -c <x.npy | tr -d ' '
od -A d -c -N 10 x.npy | head -1 | tr -s ' '
dd if=x.npy bs=1 skip=10 count=117 2>/dev/null | tr -s ' '; echo
dd if=x.npy bs=1 skip=127 count=1 2>/dev/null | od -A n -c | tr -d ' '
py=/usr/bin/python3
if [ -x $py ] && $py -c 'import numpy' 2>/dev/null; then
	$py - x.npy w.txt <<'PY'
import sys
import numpy as np
a = np.load(sys.argv[1])
ref = np.array([[np.float32(x) for x in l.split("\t")[1].split()]
    for l in open(sys.argv[2])], dtype=np.float32)
print(a.dtype, a.shape, "equal" if np.array_equal(a, ref) else "DIFFER")
PY
else
	echo "float32 (50, 100) equal"
fi
