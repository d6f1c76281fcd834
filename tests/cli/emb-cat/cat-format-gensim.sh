# gensim, the common consumer, loads what emb-cat -f writes with the very
# float32 values of the stream: word2vec binary and text, fastText .vec,
# GloVe (no_header), plain and gzip-compressed.
set -u
py=/usr/bin/python3
if ! [ -x $py ] || ! $py -c 'import gensim' 2>/dev/null; then
	echo "python3 with gensim is not installed" >&2
	exit 77
fi
zcat "$EXDATA/glove-6B-100d-2.6k.txt.gz" | head -300 |
    awk '{ k = $1; $1 = ""; print k "\t" substr($0, 2) }' >w.txt
printf 'tiny\t1e-45 -0 3.4028235e+38\nneg\t-1.1754942e-38 0.1 -7\né\t0 1 2\n' >x.txt
for s in w x; do
	emb-cat -r $s.txt >$s.emb
	emb-cat -N $s.npy $s.emb >$s.keys
	for f in w2vbin w2vtext vec glove; do
		emb-cat -f $f $s.emb >$s.$f
		emb-cat -f $f -z $s.emb >$s.$f.gz
	done
done
$py - <<'PY' 2>&1
import logging, numpy as np
from gensim.models import KeyedVectors
logging.disable(logging.WARNING)
for s in "w", "x":
	a = np.load(s + ".npy")
	keys = open(s + ".keys", "rb").read().decode().split("\n")[:-1]
	for f in "w2vbin", "w2vtext", "vec", "glove":
		for z in "", ".gz":
			kw = {"binary": f == "w2vbin"}
			if f == "glove":
				kw["no_header"] = True
			kv = KeyedVectors.load_word2vec_format(s + "." + f + z, **kw)
			ok = (kv.index_to_key == keys and kv.vectors.dtype == np.float32
			    and np.array_equal(kv.vectors.view(np.uint32), a.view(np.uint32)))
			print(s, f + z, a.shape, "identical" if ok else "DIFFER")
PY
