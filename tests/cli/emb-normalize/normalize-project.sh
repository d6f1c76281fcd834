# A 2-D map: the coordinates of word vectors on the top two principal
# components of a fitted model (emb-normalize -P), against NumPy's
# eigenvectors of the covariance (each signed as the model signs it: its
# largest component positive).
py=/usr/bin/python3
$py -c 'import numpy' 2>/dev/null || {
	echo "python3 with numpy is not installed" >&2; exit 77; }
zcat "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" | awk '
	NR == 1 || NR > 601 { next }
	{ k = index($0, " "); print substr($0, 1, k - 1) "\t" substr($0, k + 1) }' >w.txt
emb-cat -r <w.txt >w.emb || exit 1
emb-normalize -q -F pc.txt -c -r 2 w.emb || exit 1
emb-normalize -q -P -M pc.txt w.emb >xy.emb || exit 1
emb-cat xy.emb >xy.txt
awk -F '\t' '{ print $1, split($2, x, " ") }' xy.txt | sort -u -k2 | awk '{ print "dimension", $2 }'
$py - <<'PYEOF'
import numpy as np
rows = [l.rstrip("\n").split("\t") for l in open("w.txt")]
X = np.array([[float(v) for v in r[1].split()] for r in rows])
Xc = X - X.mean(axis=0)
w, V = np.linalg.eigh(Xc.T @ Xc / len(X))
C = V[:, ::-1][:, :2].T
for c in C:
    if c[np.argmax(np.abs(c))] < 0:
        c *= -1
ref = Xc @ C.T
got = np.array([[float(v) for v in l.split("\t")[1].split()]
                for l in open("xy.txt")])
keys = [l.split("\t")[0] for l in open("xy.txt")]
print("keys kept:", keys == [r[0] for r in rows])
err = np.abs(got - ref).max() / np.abs(ref).max()
print("coordinates within 1e-5 of NumPy's:", err < 1e-5)
PYEOF
emb-normalize -P w.emb >/dev/null;		echo "-P without -M: $?"
emb-normalize -q -F p0.txt -c w.emb
emb-normalize -P -M p0.txt w.emb >/dev/null;	echo "no component: $?"
