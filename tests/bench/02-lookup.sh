#!/bin/sh
# 02-lookup.sh - emb-lookup: parsing real-size embedding files (GloVe text
# 400,000 x 300, about 1 GB; GoogleNews-shaped word2vec binary, 3,000,000 x
# 300 by default) beside gensim's KeyedVectors.load_word2vec_format on the
# same files; the time from start to the first output record through a
# store over the 400k vocabulary; lookup throughput on 1M tokens of text.
#
# The machine is shared: beside each median wall time the script prints
# the CPU time (user + system) of the same runs, and the ratios of both.
#
# Environment: BENCHDIR (from tests/bench/run), LOOKUP_BIN_ROWS (rows of
# the binary file, default 3000000; fewer when disk or time is short).
set -u
PY=/usr/bin/python3
D=$BENCHDIR/lookup
top=$(cd "$(dirname "$0")/../.." && pwd)
ROWS=${LOOKUP_BIN_ROWS:-3000000}
mkdir -p "$D"

. "$top/tests/bench/hyperfine.sh"
# line WHAT WALL CPU [ANCHORWALL ANCHORCPU]
line() {
	printf '%-42s wall %8.3f s  cpu %8.3f s' "$1" "$2" "$3"
	[ $# -gt 3 ] && printf '  gensim/this: wall %sx, cpu %sx' \
	    "$(ratio "$4" "$2")" "$(ratio "$5" "$3")"
	echo
}

# The generator: real words first (so that real text finds them), then
# made-up ones; GloVe-like values (5 significant digits) or raw float32.
cat >"$D/gen.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
int
main(int argc, char **argv)
{
	long rows = atol(argv[2]), dim = atol(argv[3]), i, j;
	int bin = strcmp(argv[1], "bin") == 0;
	FILE *vf = fopen(argv[4], "r");
	char w[256];
	unsigned long long s = 88172645463325252ULL;
	static char out[1 << 20];

	setvbuf(stdout, out, _IOFBF, sizeof(out));
	if (bin)
		printf("%ld %ld\n", rows, dim);
	for (i = 0; i < rows; i++) {
		if (vf == NULL || fscanf(vf, "%255s", w) != 1) {
			if (vf)
				fclose(vf);
			vf = NULL;
			snprintf(w, sizeof(w), "w%ld", i);
		}
		fputs(w, stdout);
		putchar(' ');
		for (j = 0; j < dim; j++) {
			double u1, u2, g;
			s ^= s << 13; s ^= s >> 7; s ^= s << 17;
			u1 = ((s >> 11) + 1.0) / 9007199254740993.0;
			s ^= s << 13; s ^= s >> 7; s ^= s << 17;
			u2 = (s >> 11) / 9007199254740992.0;
			g = 0.4 * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
			if (bin) {
				float f = (float)g;
				fwrite(&f, 4, 1, stdout);
			} else
				printf(j + 1 < dim ? "%.5g " : "%.5g", g);
		}
		if (!bin)
			putchar('\n');
	}
	return 0;
}
EOF
cc -O2 -o "$D/gen" "$D/gen.c" -lm || exit 1
# Real words: the bundled GloVe and word2vec vocabularies, lower-cased.
{ zcat "$top/examples/data/glove-6B-100d-2.6k.txt.gz"
  zcat "$top/examples/data/word2vec-googlenews-300d-13k.vec.gz" | tail -n +2
} | cut -d' ' -f1 | tr 'A-Z' 'a-z' | awk '!seen[$0]++' >"$D/words.txt"

G=$D/glove-400k-300d.txt
W=$D/gnews-${ROWS}-300d.bin
[ -s "$G" ] || "$D/gen" txt 400000 300 "$D/words.txt" >"$G"
[ -s "$W" ] || "$D/gen" bin "$ROWS" 300 "$D/words.txt" >"$W"
echo "files: $(du -h "$G" | cut -f1) GloVe text 400000 x 300;" \
    "$(du -h "$W" | cut -f1) word2vec binary $ROWS x 300" \
    "$( [ "$ROWS" = 3000000 ] || echo '(fewer rows than GoogleNews)')"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

# gensim, the anchor: "wall cpu" seconds of load_word2vec_format alone.
gensim() {
	$PY - "$@" <<'EOF'
import sys, time
from gensim.models import KeyedVectors
path, kind = sys.argv[1], sys.argv[2]
t, c = time.perf_counter(), time.process_time()
if kind == "glove":
    KeyedVectors.load_word2vec_format(path, binary=False, no_header=True)
else:
    KeyedVectors.load_word2vec_format(path, binary=True)
print("%.4f %.4f" % (time.perf_counter() - t, time.process_time() - c))
EOF
}

# parse WHAT FILE KIND HOW: gensim once, emb-lookup into memory and into
# a store three times each.
parse() {
	how=$4
	set -- "$1" "$2" "$3"
	echo "-- parse $1 (median of 3; gensim 1 run; goal >= 10x)"
	cat "$2" >/dev/null
	set -- "$@" $(gensim "$2" "$3")
	line "gensim load_word2vec_format" "$4" "$5"
	# A text file is parsed into memory; a plain word2vec binary file
	# is checked (every word hashed, every value tested finite) and its
	# vectors used where they lie in the mapped file.
	line "emb-lookup, $how into memory" $(median 3 \
	    "sh -c 'emb-lookup -q -e $2 </dev/null >/dev/null'") "$4" "$5"
	line "emb-lookup -B, store written and synced" $(median 3 \
	    "emb-lookup -q -e $2 -B $D/$3.store") "$4" "$5"
}
parse "GloVe text 400000 x 300" "$G" glove parsed
parse "word2vec binary $ROWS x 300" "$W" bin "checked in place"
rm -f "$D/bin.store"

echo "-- start to first output record through the store (400k x 300; median of 30)"
printf 'the quick brown fox\n' >"$D/one.txt"
set -- $(median 30 "emb-lookup -q -e $D/glove.store $D/one.txt")
fw=$1 fc=$2
set -- $(median 30 "cat $D/one.txt")
echo "emb-lookup, one query line, whole run: $($PY -c "print('%.1f' % (1000 * $fw))") ms" \
    "wall, $($PY -c "print('%.1f' % (1000 * $fc))") ms cpu (goal < 20 ms;" \
    "cat of the same line: $($PY -c "print('%.1f' % (1000 * $1))") ms wall)"

echo "-- lookup throughput, 1M tokens of text, 400k-word store (median of 3)"
src=
for f in "$top/../shared/data/senteval/MR/rt-polarity.pos" \
    "$top/../shared/data/senteval/MR/rt-polarity.neg" \
    "$top/../shared/data/senteval/SUBJ/subj.objective" \
    "$top/../shared/data/senteval/SUBJ/subj.subjective"; do
	[ -f "$f" ] && src="$src $f"
done
rm -f "$D/text.txt"
if [ -n "$src" ]; then
	what="SentEval MR and SUBJ sentences, repeated"
	while [ "$(cat "$D/text.txt" 2>/dev/null | wc -w)" -lt 1000000 ]; do
		cat $src >>"$D/text.txt"
	done
else
	what="bundled SEMCAT words, 20 per line (no SentEval data found)"
	cat "$top"/examples/data/semcat/Categories/*.txt | awk '
	    { w[n++] = $0 } END { srand(1); for (i = 0; i < 50000; i++) {
	    s = ""; for (j = 0; j < 20; j++) s = s w[int(rand() * n)] " ";
	    print s } }' >"$D/text.txt"
fi
awk -v max=1000000 '{ n += NF; print; if (n >= max) exit }' "$D/text.txt" \
    >"$D/text1m.txt"
ntok=$(wc -w <"$D/text1m.txt")
emb-lookup -c -e "$D/glove.store" "$D/text1m.txt" 2>"$D/sum.txt" >/dev/null
set -- $(median 3 "emb-lookup -q -c -o zero -e $D/glove.store $D/text1m.txt")
tw=$1 tc=$2
set -- $($PY - "$D/text1m.txt" "$D/words.txt" <<'EOF'
import sys, time
import numpy as np
from gensim.models import KeyedVectors
# gensim's lookup loop on the same tokens against a 400k x 300 model made
# in memory (the lookups alone are timed, nothing is written).
words = [w.lower() for l in open(sys.argv[1], encoding="utf-8",
    errors="surrogateescape") for w in l.split()]
voc = [l.rstrip("\n") for l in open(sys.argv[2], encoding="utf-8",
    errors="surrogateescape")]
keys = list(dict.fromkeys(voc + ["w%d" % i for i in range(400000)]))[:400000]
kv = KeyedVectors(300)
kv.add_vectors(keys, np.zeros((len(keys), 300), dtype=np.float32))
z = np.zeros(300, dtype=np.float32)
k2i = kv.key_to_index
t, c = time.perf_counter(), time.process_time()
out = [kv[w] if w in k2i else z for w in words]
print("%.4f %.4f" % (time.perf_counter() - t, time.process_time() - c))
EOF
)
gw=$1 gc=$2
echo "text: $what; $ntok tokens; $(sed 's/^emb-lookup: [^:]*: //' "$D/sum.txt")"
mt() { $PY -c "print('%.2f' % ($ntok / $1 / 1e6))"; }
echo "emb-lookup -c, 1M vectors streamed to /dev/null:" \
    "$(mt "$tw") M tokens/s wall, $(mt "$tc") M tokens/s cpu"
echo "gensim kv[word] loop, in memory, no output:     " \
    "$(mt "$gw") M tokens/s wall, $(mt "$gc") M tokens/s cpu"
