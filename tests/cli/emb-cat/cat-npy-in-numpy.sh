# emb-cat -n on arrays NumPy wrote: float64, big-endian, Fortran order,
# format version 2.0 and 3.0, each read as the same stream.
set -u
py=/usr/bin/python3
if ! [ -x $py ] || ! $py -c 'import numpy' 2>/dev/null; then
	echo "no numpy for /usr/bin/python3" >&2
	exit 77
fi
printf 'a\t1 2 0.1\nb\t-0.5 1e-45 3e38\nc\t3.25 -0 7\n' | emb-cat -r >x.emb
emb-cat -N x.npy x.emb >x.keys
$py -c '
import numpy as np
from numpy.lib import format as f
a = np.load("x.npy")
for n, t in (("le8", "<f8"), ("be4", ">f4"), ("be8", ">f8")):
	np.save(n + ".npy", a.astype(t))
	np.save(n + "F.npy", np.asfortranarray(a.astype(t)))
for v in (2, 3):
	with open("v%d.npy" % v, "wb") as o:
		f.write_array(o, a, version=(v, 0))
np.save("wide.npy", np.array([[1e39]]))
np.save("i4.npy", np.zeros((2, 2), dtype="<i4"))
np.save("obj.npy", np.array([[None]], dtype=object), allow_pickle=True)
np.save("one.npy", np.zeros(3, dtype="<f4"))
np.save("three.npy", np.zeros((1, 2, 3), dtype="<f4"))
np.save("scalar.npy", np.float32(1))
np.save("empty.npy", np.zeros((0, 4), dtype="<f4"))
'
for n in le8 le8F be4 be4F be8 be8F v2 v3; do
	emb-cat -n $n.npy -K x.keys | cmp - x.emb && echo "$n: same stream"
	cat $n.npy | emb-cat -n - -K x.keys | cmp - x.emb &&
	    echo "$n, from a pipe: same stream"
done
echo x >k1
: >k0
for n in wide i4 obj one three scalar; do
	emb-cat -n $n.npy -K k1 >/dev/null
	echo "$n: exit $?"
done
emb-cat -n empty.npy -K k0 | emb-cat -k
echo "empty: exit $?"
