#!/bin/sh
# results.sh OUT PAPER NAME=VECTORS... - write RESULTS.md on stdout from
# the outputs of the runs under OUT (semcat.tsv, senteval.tsv, sts.tsv,
# retrieval.txt, fairness.txt and the per-embedding meta.tsv and oov.tsv)
# beside the
# paper's published values (PAPER, paper-values.tsv); each NAME=VECTORS
# names an embedding file for the table of embeddings.  Every number in
# the document comes from these files; nothing is typed in.
set -eu
out=$1
paper=$2
shift 2

# The comparisons of OSE and BOV (emb-eval --versus) of every embedding.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for x in senteval probing sts; do
	cat "$out"/$x/*/paired.tsv >"$tmp/$x.tsv" 2>/dev/null || :
done

# p-values as the tables print them; significant at 5 %.
fmtp='function fp(p) { return p == "" ? "-" : p < 0.001 ? "<0.001" : sprintf("%.3f", p) }
function sig(p) { return p != "" && p < 0.05 }'

# The paper's family of one of our embedding names.
fam='function fam(n) { sub(/[0-9]+$/, "", n); return n }'

cat <<EOF
# Results: the paper's experiments, rerun

This file is written by \`make -C examples\` (the script
\`examples/scripts/results.sh\`) from the outputs of the runs under
\`examples/out/\`; no number in it is typed by hand.  The paper's values are
those of its tables, kept in \`examples/paper-values.tsv\`.  To regenerate
everything from scratch (\`-j2\` runs two pipelines at once):

    make -C examples clean
    make -C examples

Each section names the make target that reruns it alone and the script
that does the work; the make variables (\`examples/Makefile\`) hold every
input path and parameter.

## Embeddings

| name | file | words x dim |
|---|---|---|
EOF
for a; do
	n=${a%%=*}
	f=${a#*=}
	wd=$(gzip -dc -f "$f" | awk 'NR == 1 && NF == 2 { h = $1 " x " $2 }
	    NR == 1 { d = NF - 1 } END {
	    if (h != "") print h; else print NR " x " d }')
	echo "| $n | \`$f\` | $wd |"
done
cat <<EOF

These are the subsets bundled in \`examples/data/\` (see its README): the
full GoogleNews (3M words), fastText (2M) and GloVe (400k) files cannot be
obtained here.  Their small vocabularies are the main reason our numbers
differ from the paper's; the coverage (OOV) figures below say by how much.
Point the \`VEC_*\` variables at full files to rerun at full size.

## Table 1: SEMCAT word classification, with and without augmentation

\`make -C examples semcat\` (\`scripts/semcat.sh\`).  Protocol:

- SEMCAT's 100 categories, a word repeated inside a category kept once; a
  word that belongs to several categories stays in each (as in the paper).
- Words looked up exactly as written (\`emb-lookup -w\`); the words an
  embedding lacks are dropped.  **Category rule: a category is kept when
  the embedding covers at least MIN of its distinct words** (MIN below;
  the paper keeps categories of at least 100 words with full
  vocabularies).
- Each kept category split 50/50 at random (\`scripts/semcat-split.awk\`,
  seed 1): the first ceil(n/2) of a seeded shuffle train, the rest test.
- Augmentation: for each category, K sets of k distinct training words
  (\`emb-augment -k k -K K\`, never the same set twice), each composed by
  \`emb-ose\` or \`emb-bov\` into one new training example of the category.
  k in {2, 5, 10, 15, 20}; the paper does not give K.  Each augmented run
  is repeated with several augmentation seeds; the tables give the mean
  (and the standard deviation over the seeds).
- Classifiers (\`emb-eval\`): KNN (5 neighbours, cosine), LDA, nearest
  centroid (NC), ridge; trained on the training words plus the augmented
  examples, tested on the test words; accuracy.

EOF
echo "| embedding | MIN | categories kept | train words | test words | SEMCAT entries covered | K per category | seeds |"
echo "|---|---|---|---|---|---|---|---|"
for m in "$out"/semcat/*/meta.tsv; do
	[ -f "$m" ] || continue
	n=$(cut -f1 "$m" | head -1)
	seeds=$(awk -F '\t' -v n="$n" '$1 == n && $2 != "none" { s[$4] }
	    END { for (x in s) c++; print c + 0 }' "$out/semcat.tsv")
	awk -F '\t' -v seeds="$seeds" '{ v[$2] = $3; n = $1 } END {
	    printf "| %s | %d | %d | %d | %d | %d of %d (%.1f%%; OOV %.1f%%) | %d | %s |\n",
		n, v["min_words"], v["categories_kept"], v["train_words"],
		v["test_words"], v["covered_entries"], v["semcat_entries"],
		100 * v["coverage"], 100 - 100 * v["coverage"],
		v["augmented_per_category"], seeds }' "$m"
done
echo
echo "Categories that get fewer than K augmented examples at a given k, because"
echo "their training half holds fewer than k words (no set at all) or too few"
echo "words for K distinct sets (\`emb-augment\` writes all it can and says so):"
echo
echo "| embedding | k | categories with no set | with fewer than K sets |"
echo "|---|---|---|---|"
for m in "$out"/semcat/*/meta.tsv; do
	[ -f "$m" ] || continue
	d=${m%/meta.tsv}
	n=${d##*/}
	for f in "$d"/augment-*.log; do
		[ -f "$f" ] || continue
		k=${f##*/augment-}
		k=${k%.log}
		echo "$k $(grep -c ', no [0-9]*-set' "$f" || true)" \
		    "$(grep -c 'make.* only' "$f" || true)"
	done | sort -n | awk -v n="$n" '{ printf "| %s | %d | %d | %d |\n",
	    n, $1, $2, $3 }'
done
echo

# Table 1 at k = 5, ours beside the paper's.
awk -F '\t' -v OFS='\t' "$fam"'
    FILENAME == ARGV[1] { if ($0 ~ /^#/ || $1 != "table1") next
	p[$2, $3, $4] = $5; next }
    { if ($2 != "none" && $3 != 5) next
      key = $1 SUBSEP $2 SUBSEP $5
      s[key] += $6; q[key] += $6 * $6; c[key]++
      if (!($1 in seen)) { seen[$1]; order[++ne] = $1 } }
    END {
	split("KNN LDA NC Ridge", C, " ")
	split("none bov ose", M, " ")
	name["none"] = "no augm."; name["bov"] = "BOV"; name["ose"] = "OSE"
	print "Accuracy at k = 5 (the paper'"'"'s Table 1), ours and the paper'"'"'s:"
	print ""
	print "| embedding | method | KNN | LDA | NC | Ridge | paper KNN | paper LDA | paper NC | paper Ridge |"
	print "|---|---|---|---|---|---|---|---|---|---|"
	for (e = 1; e <= ne; e++) {
	    n = order[e]
	    for (i = 1; i <= 3; i++) {
		line = "| " n " | " name[M[i]]
		for (j = 1; j <= 4; j++) {
		    key = n SUBSEP M[i] SUBSEP C[j]
		    if (!(key in c)) { line = line " | -"; continue }
		    mu = s[key] / c[key]
		    v = q[key] / c[key] - mu * mu
		    if (c[key] > 1)
			line = line sprintf(" | %.3f (%.3f)", mu,
			    sqrt(v > 0 ? v * c[key] / (c[key] - 1) : 0))
		    else
			line = line sprintf(" | %.3f", mu)
		}
		for (j = 1; j <= 4; j++) {
		    key = fam(n) SUBSEP M[i] SUBSEP C[j]
		    line = line " | " (key in p ? p[key] : "-")
		}
		print line " |"
	    }
	}
    }' "$paper" "$out/semcat.tsv"
cat <<EOF

In parentheses: the standard deviation over the augmentation seeds (the
split is the same in every run).  The paper's GloVe values stand beside
both of our GloVe files.

## The figure: accuracy against k

\`make -C examples figure\` (\`scripts/figure.sh\`, gnuplot): for each
embedding, the accuracy of each classifier against k, OSE solid, BOV
dashed, no augmentation dotted; means over the seeds.

![SEMCAT accuracy against k](semcat-figure.png)

The mean over the four classifiers, as the paper's figure summarises it
(no augmentation, then BOV / OSE for each k):

EOF
awk -F '\t' '
    { if (!($1 in seen)) { seen[$1]; order[++ne] = $1 }
      if (!($3 in ks) && $2 != "none") { ks[$3]; kk[++nk] = $3 }
      s[$1, $2, $3] += $6; c[$1, $2, $3]++ }
    END {
	hdr = "| embedding | none"; sep = "|---|---"
	for (i = 1; i <= nk; i++) { hdr = hdr " | k=" kk[i]; sep = sep "|---" }
	print hdr " |"; print sep "|"
	for (e = 1; e <= ne; e++) {
	    n = order[e]
	    line = sprintf("| %s | %.3f", n, s[n, "none", 0] / c[n, "none", 0])
	    for (i = 1; i <= nk; i++) {
		k = kk[i]
		if (c[n, "bov", k] == 0) { line = line " | -"; continue }
		line = line sprintf(" | %.3f / %.3f", s[n, "bov", k] / c[n, "bov", k],
		    s[n, "ose", k] / c[n, "ose", k])
	    }
	    print line " |"
	}
    }' "$out/semcat.tsv"
awk -F '\t' '
    $2 != "none" { key = $1 SUBSEP $3 SUBSEP $4 SUBSEP $5
      if ($2 == "bov") b[key] = $6; else o[key] = $6 }
    END { for (k in o) if (k in b) { n++; if (o[k] > b[k]) w++
	    else if (o[k] < b[k]) l++ }
	printf "\nOver all embeddings, k, seeds and classifiers, OSE augmentation beats BOV augmentation in %d of %d paired runs, loses in %d, ties in %d.\n", w, n, l, n - w - l }' "$out/semcat.tsv"
awk -F '\t' '
    $2 == "none" { base[$1, $5] = $6; next }
    { key = $1 SUBSEP $2 SUBSEP $3 SUBSEP $5; s[key] += $6; c[key]++ }
    END { for (k in s) { split(k, f, SUBSEP); n++
	    if (s[k] / c[k] > base[f[1], f[4]]) up++ }
	printf "Averaged over the seeds, an augmented configuration (embedding, method, k, classifier) beats the same classifier without augmentation in %d of %d cases.\n", up, n }' "$out/semcat.tsv"

cat <<EOF

## Sentence classification: BOV against OSE

\`make -C examples senteval\` (\`scripts/senteval-prep.sh\`,
\`scripts/senteval.sh\`), on SentEval's data in \`SENTEVAL\`.  Protocol, as
SentEval's: the sentences as SentEval tokenises them (split on blanks);
each token looked up as written, then in lower case when missing; OOV
tokens left out of their sentence; a sentence with no known token becomes
the zero vector (\`emb-ose\`/\`emb-bov\` default).  MR, CR, SUBJ and MPQA:
stratified cross-validation (seed 1111), the mean of the fold
accuracies; TREC, SST2, SST5: the task's train (and dev) sets, tested on
its test set; MRPC and SICK-E: the features |u - v| and u * v of the two
sentences (\`emb-pair\`), as SentEval builds them.  Classifiers, the
paper's two: \`emb-eval\` KNN (5 neighbours, cosine; 10 folds) and
SentEval's MLP (see "The MLP" below) with SentEval's default \`kfold\` of
5 (\`SENT_MLPK\`): 5 outer folds for MR, CR, SUBJ and MPQA, each choosing
its weight decay by the mean accuracy over 5 inner folds of its training
part, as SentEval's InnerKFoldClassifier does; for TREC and MRPC, which
have no dev set, the weight decay chosen by 5-fold cross-validation on
the training set, as its KFoldClassifier does; SST2, SST5 and SICK-E
choose it on their dev sets.  SentEval's example scripts set \`kfold\`
to 10, which fits 410 models per task and composition where 5 fits 105;
\`SENT_MLPK=10\` runs it so.  Accuracy in percent.

EOF
for clf in KNN LogReg MLP; do
	grep -q "	$clf	" "$out/senteval.tsv" 2>/dev/null || continue
	case $clf in
	KNN) pt=knn; pn="beside the paper's KNN table" ;;
	*) pt=mlp; pn="beside the paper's MLP table" ;;
	esac
	echo "### $clf, $pn"
	echo
	awk -F '\t' -v clf="$clf" -v pt="$pt" "$fam$fmtp"'
	    FILENAME == ARGV[1] { if ($0 ~ /^#/ || $1 != pt) next
		p[$2, $3, $4] = $5; next }
	    FILENAME == ARGV[2] { if ($3 != clf) next
		d[$1, $2] = $4; lo[$1, $2] = $5; hi[$1, $2] = $6; mp[$1, $2] = $7
		sdo[$1, $2] = $12; sdb[$1, $2] = $13; ns = $14; next }
	    $4 != clf { next }
	    { if (!($1 in se)) { se[$1]; E[++ne] = $1 }
	      if (!($3 in st)) { st[$3]; T[++nt] = $3 }
	      v[$1, $2, $3] = $5 }
	    function acc(x, sd) { return ns > 1 ? x " ± " sd : x }
	    END {
		hdr = "| task"; sep = "|---"
		for (e = 1; e <= ne; e++) {
		    hdr = hdr " | " E[e] " BOV | " E[e] " OSE | OSE − BOV [95% CI] | p | paper " fam(E[e]) " BOV | paper OSE"
		    sep = sep "|---|---|---|---|---|---"
		}
		print hdr " |"; print sep "|"
		for (t = 1; t <= nt; t++) {
		    line = "| " T[t]
		    for (e = 1; e <= ne; e++) {
			n = E[e]; f = fam(n); k = n SUBSEP T[t]
			b = v[n, "bov", T[t]]; o = v[n, "ose", T[t]]
			bs = acc(b, sdb[k]); os = acc(o, sdo[k])
			if (b > o) bs = "**" bs "**"; else if (o > b) os = "**" os "**"
			ci = k in d ? sprintf("%+.2f [%+.2f, %+.2f]", d[k], lo[k], hi[k]) : "-"
			line = line " | " bs " | " os " | " ci " | " fp(mp[k]) " | " p[f, "bov", T[t]] " | " p[f, "ose", T[t]]
		    }
		    print line " |"
		}
		for (e = 1; e <= ne; e++) {
		    n = E[e]; f = fam(n); w = l = pw = pl = sw = sl = 0
		    for (t = 1; t <= nt; t++) {
			k = n SUBSEP T[t]
			if (v[n, "ose", T[t]] > v[n, "bov", T[t]]) w++
			if (v[n, "ose", T[t]] < v[n, "bov", T[t]]) l++
			if (sig(mp[k]) && d[k] > 0) sw++
			if (sig(mp[k]) && d[k] < 0) sl++
			if ((f, "ose", T[t]) in p) {
			    if (p[f, "ose", T[t]] + 0 > p[f, "bov", T[t]] + 0) pw++
			    if (p[f, "ose", T[t]] + 0 < p[f, "bov", T[t]] + 0) pl++ }
		    }
		    printf "\n%s: OSE better than BOV on %d of the %d tasks, worse on %d (the paper, %s: better on %d, worse on %d); counting only the differences significant at 5 %% (exact McNemar test): better on %d, worse on %d.", n, w, nt, l, f, pw, pl, sw, sl
		}
		print ""
	    }' "$paper" "$tmp/senteval.tsv" "$out/senteval.tsv"
	echo
done
cat <<'EOF'
Accuracy in percent; for the MLP, the mean over its seeds ± their standard
deviation.  OSE − BOV: the difference in points on the same test sentences
(with folds, over the pooled out-of-fold predictions; for the MLP, each
sentence's most frequent class over the seeds), its 95 % bootstrap
interval (2,000 samples of the sentences) and the p-value of the exact
McNemar test, from one `emb-eval --versus` run per task and classifier
(`man emb-eval`).  Bold marks the higher accuracy whether or not the
difference is significant.

EOF

# The tasks a classifier of the paper's was not run on (SENT_CLFS).
awk -F '\t' '{ if (!($3 in t)) T[++nt] = $3; t[$3]; c[$4, $3] }
    END { for (k = 1; k <= 2; k++) { clf = k == 1 ? "KNN" : "MLP"; m = ""
	    for (i = 1; i <= nt; i++) if (!((clf, T[i]) in c)) m = m " " T[i]
	    if (m != "") printf "The %s was not run on:%s (its rows are missing above; `examples/README.md` says what the MLP over three seeds costs).\n\n", clf, m } }' \
    "$out/senteval.tsv"
echo "OOV rates of the sentence tasks (tokens the embedding lacks, after the lower-case fallback; lines left with no known token):"
echo
echo "| embedding | task | lines | tokens | OOV tokens | OOV rate | empty lines |"
echo "|---|---|---|---|---|---|---|"
for f in "$out"/senteval/*/oov.tsv "$out"/sts/*/oov.tsv; do
	[ -f "$f" ] || continue
	awk -F '\t' '{ printf "| %s | %s | %d | %d | %d | %.1f%% | %d |\n",
	    $1, $2, $3, $4, $5, 100 * $6, $7 }' "$f"
done

cat <<EOF

## Probing tasks: BOV against OSE

\`make -C examples probing\` (\`scripts/probing-prep.sh\`,
\`scripts/senteval.sh\`), on the samples of SentEval's ten probing files
bundled in \`examples/data/senteval-probing/\` (its README says how they
were taken), or on the full files when \`PROBING\` names a folder holding
them.  Protocol, as for the sentence tasks: SentEval's tokens (split on
blanks), each looked up as written, then in lower case; OOV tokens left
out; BOV and OSE of the rest.  Each classifier is trained on the task's
training lines and scored on its test lines.  KNN: 5 neighbours, cosine.
MLP: SentEval's (see "The MLP" below), its weight decay chosen on the dev
lines; the samples have none, so 10 % of the training lines are held out
as the MLP's dev rows (\`emb-eval --dev-share 0.1\`, seeded; the release
holds 10,000 dev lines beside 100,000 for training); on WordContent the
MLP has no hidden layer, as SentEval's probing code sets it.  Accuracy in
percent; the better of BOV and OSE in bold.  The BERT, RoBERTa and USE
columns are the paper's alone: to fill them, compose the token vectors of
a transformer as \`examples/05-contextual.sh\` does
(\`scripts/contextual.py\` writes one group of token vectors per
sentence) and run \`emb-bov\`, \`emb-ose\` and \`emb-eval\` on them as
\`scripts/senteval.sh\` does.

EOF
for clf in MLP KNN; do
	case $clf in
	MLP) pt=probe_mlp; pn="the paper's MLP table" ;;
	KNN) pt=probe_knn; pn="the paper's KNN table (its annex)" ;;
	esac
	echo "### $clf, beside $pn"
	echo
	awk -F '\t' -v clf="$clf" -v pt="$pt" "$fam$fmtp"'
	    BEGIN { split("sentence_length Length word_content WordContent tree_depth Depth top_constituents TopConstituents bigram_shift BigramShift past_present Tense subj_number SubjNumber obj_number ObjNumber odd_man_out OddManOut coordination_inversion CoordinationInversion", a, " ")
		for (i = 1; i < 20; i += 2) { pname[a[i]] = a[i + 1]; T[++nt] = a[i] }
		split("BERT RoBERTa", X, " ") }
	    FILENAME == ARGV[1] { if ($0 ~ /^#/ || $1 != pt) next
		p[$2, $3, $4] = $5; next }
	    FILENAME == ARGV[2] { if ($3 != clf) next
		d[$1, $2] = $4; mp[$1, $2] = $7; sdo[$1, $2] = $12
		sdb[$1, $2] = $13; ns = $14; next }
	    $4 != clf { next }
	    { if (!($1 in se)) { se[$1]; E[++ne] = $1 }
	      v[$1, $2, $3] = $5 }
	    function bold(x, y, sd) { sd = ns > 1 ? x " ± " sd : x
		return x > y ? "**" sd "**" : sd }
	    END {
		hdr = "| task"; sep = "|---"
		for (e = 1; e <= ne; e++) {
		    hdr = hdr " | " E[e] " BOV | OSE | OSE − BOV, p | paper " fam(E[e]) " BOV | OSE"
		    sep = sep "|---|---|---|---|---"
		}
		hdr = hdr " | paper BERT BOV | OSE | paper RoBERTa BOV | OSE | paper USE | ours BOV / OSE wins | significant only | paper BOV / OSE wins (same 3) | paper (all 5) |"
		sep = sep "|---|---|---|---|---|---|---|---|---|"
		print hdr; print sep
		for (t = 1; t <= nt; t++) {
		    k = T[t]; q = pname[k]; line = "| " q
		    wb = wo = pb = po = ab = ao = sb = so = 0
		    for (e = 1; e <= ne; e++) {
			n = E[e]; f = fam(n); j = n SUBSEP k
			b = v[n, "bov", k]; o = v[n, "ose", k]
			line = line " | " bold(b, o, sdb[j]) " | " bold(o, b, sdo[j]) " | " (j in d ? sprintf("%+.2f, %s", d[j], fp(mp[j])) : "-") " | " p[f, "bov", q] " | " p[f, "ose", q]
			if (b > o) wb++; if (o > b) wo++
			if (sig(mp[j]) && d[j] < 0) sb++
			if (sig(mp[j]) && d[j] > 0) so++
			if (p[f, "bov", q] + 0 > p[f, "ose", q] + 0) pb++
			if (p[f, "ose", q] + 0 > p[f, "bov", q] + 0) po++
		    }
		    ab = pb; ao = po
		    for (x = 1; x <= 2; x++) {
			line = line " | " p[X[x], "bov", q] " | " p[X[x], "ose", q]
			if (p[X[x], "bov", q] + 0 > p[X[x], "ose", q] + 0) ab++
			if (p[X[x], "ose", q] + 0 > p[X[x], "bov", q] + 0) ao++
		    }
		    line = line " | " p["USE", "-", q]
		    print line " | " wb " / " wo " | " sb " / " so " | " pb " / " po " | " ab " / " ao " |"
		    WB += wb; WO += wo; PB += pb; PO += po; AB += ab; AO += ao
		    SB += sb; SO += so
		}
		printf "\nOSE against BOV, counted as the paper counts them (a win where one accuracy is higher, ties not counted): ours, OSE ahead in %d and BOV in %d of the %d comparisons of %d embeddings x %d tasks; the paper, for the same three embedding families, OSE %d and BOV %d; over its five embeddings, OSE %d and BOV %d of %d.  Counting only the differences significant at 5 %% (exact McNemar test on the same test sentences): OSE %d, BOV %d; the other %d differences are within what the sample cannot tell apart.\n",
		    WO, WB, ne * nt, ne, nt, PO, PB, AO, AB, 5 * nt, SO, SB, ne * nt - SO - SB
	    }' "$paper" "$tmp/probing.tsv" "$out/probing.tsv"
	echo
done
cat <<'EOF'
Accuracy in percent; for the MLP, the mean over its seeds ± their standard
deviation.  OSE − BOV, p: the difference in points on the same test
sentences (for the MLP, each sentence's most frequent class over the
seeds) and the p-value of the exact McNemar test (`emb-eval --versus`);
the 95 % intervals are in `out/probing/*/paired.tsv`.

EOF

cat <<EOF
### The MLP

SentEval's classifier (\`senteval/tools/classifier.py\`, \`validation.py\`),
as \`emb-eval -c mlp\` runs it (\`man emb-eval\`): Linear, Dropout, Sigmoid,
Linear; cross-entropy, the mean over each batch of 64 rows (SentEval asks
for the sum, but sets it after the loss is built, which PyTorch ignores
since 0.4.1, so its runs train on the mean); Adam (learning rate 1e-3)
with the weight decay on every parameter; epochs of 4 passes, at most 200
passes, early stopping with tenacity 5; the weight decay chosen from 1e-5,
1e-4, 1e-3, 1e-2 by dev accuracy, as SentEval's SplitClassifier does
(by inner folds where there are no dev rows, see the sentence section);
seeds 1111, 1112 and 1113 (\`SENT_SEEDS\`, \`PROBE_SEEDS\`: \`emb-eval
--seeds 3\`), whose mean the tables give; single precision, as PyTorch
computes it.  Where the paper is
silent we chose: 50 hidden units, the smallest of the sizes SentEval's
authors searched for the probing tasks (50, 100, 200) and the cheapest,
and dropout 0, SentEval's default (its authors also searched 0.1 and
0.2; searching both would multiply the fits by 9).  The figures are the
same for every thread count (\`tests/cli/emb-eval/eval-mlp-threads.sh\`).

What the samples are, task by task: lines of each split, the MLP's dev
rows carved from training, the labels, the test lines whose label occurs
in the training sample (no classifier can get the others right), and the
token OOV rate of each embedding (after the lower-case fallback).

EOF
hdr="| task | train | test | MLP dev | labels train / test | test lines with a trained label"
sep="|---|---|---|---|---|---"
for f in "$out"/probing/*/oov.tsv; do
	[ -f "$f" ] || continue
	d=${f%/oov.tsv}
	hdr="$hdr | OOV ${d##*/}"
	sep="$sep|---"
done
echo "$hdr |"
echo "$sep|"
for f in "$out"/probing/prep/*.txt; do
	[ -f "$f" ] || continue
	t=${f##*/}
	t=${t%.txt}
	row=$(awk -F '\t' '
	    $3 == "train" { tr++; if (!($2 in L)) nl++; L[$2] }
	    $3 == "dev" { dv++ }
	    $3 == "test" { te++; lab[++n] = $2; if (!($2 in M)) nm++; M[$2] }
	    END { for (i = 1; i <= n; i++) if (lab[i] in L) k++
		printf "| %s | %d | %d | %d | %d / %d | %.1f%%", FILENAME, tr,
		    te, dv ? dv : int(0.1 * tr), nl, nm, 100 * k / n }' "$f")
	row=${row#| $f}
	for o in "$out"/probing/*/oov.tsv; do
		[ -f "$o" ] || continue
		row="$row | $(awk -F '\t' -v t="$t" '$2 == t {
		    printf "%.1f%%", 100 * $6 }' "$o")"
	done
	echo "| $t$row |"
done
cat <<'EOF'

What the samples can and cannot show.  The release has 100,000 training
lines per task; the samples have 1.1 to 1.6 thousand, so every accuracy
here sits below what the full files would give, most for the tasks with
many classes, and a difference of a point or two between BOV and OSE on
a test set of 700 to 1,400 lines is within the noise of the sample (one
line is 0.07 to 0.14 points; the standard error of an accuracy of 60 %
on 900 lines is 1.6 points).  The paired tests above say which
differences the sample does resolve: the McNemar test looks only at the
sentences the two compositions classify differently, so it separates
smaller differences than two independent intervals would, but a
difference it does not call significant is one this sample cannot
decide, not evidence of a tie.
EOF
awk -F '\t' '$3 == "MLP" { n++; s = $12 + $13; if (($4 < 0 ? -$4 : $4) <= s) k++
	if ($14 > ns) ns = $14 }
    END { if (n) printf "The MLP adds its own noise: over its %d seeds, the OSE − BOV difference is no larger than the two standard deviations added in %d of %d cells, which is why the comparison uses the seeds'"'"' vote.\n", ns, k, n }' \
    "$tmp/probing.tsv"
cat <<'EOF'
The counts of wins
compare the two compositions on the same sample, which is what the
sample can support; they say nothing about the paper's absolute figures,
and a count of wins that are not significant is mostly a count of coin
flips.  Where the differences are significant, task by task (embeddings x
classifiers, exact McNemar test at 5 %):
EOF
awk -F '\t' '
    { if (!($2 in seen)) { seen[$2]; T[++nt] = $2 }
      n[$2]++; if ($7 < 0.05 && $4 > 0) o[$2]++
      if ($7 < 0.05 && $4 < 0) b[$2]++ }
    END { for (t = 1; t <= nt; t++)
	    printf "%s%s: OSE %d, BOV %d of %d", t == 1 ? "" : "; ", T[t],
		o[T[t]], b[T[t]], n[T[t]]
	print "." }' "$tmp/probing.tsv"
cat <<'EOF'
WordContent is not the paper's task at this size: its 1,000 classes are words, the training
sample holds a few hundred of them, and about a third of its test lines
carry a word never seen in training (table above), which no classifier can
get right; its figures are reported as measured on that sample and must
not be read as the task's.  BigramShift and CoordinationInversion
change word order only, which neither BOV nor OSE sees (both are the
same for any order of the words): chance (50 %) is what both can score
there, as in the paper.
EOF

# The same tables on other data: the samples with their splits swapped.
if [ -s "$out/swap/probing.tsv" ]; then
	cat "$out"/swap/probing/*/paired.tsv >"$tmp/swap.tsv" 2>/dev/null || :
	cat <<'EOF'

### The same tables on other data

`make -C examples probing` also reruns every cell through `PROBING=`, as
a user would on the full files, on another sample: the bundled pages with
their roles swapped (`scripts/probing-swap.sh`: the test pages train, the
training pages test), so that each figure comes from other lines, and
from fewer training lines (0.7-1.4k).  Its tables are in
`out/swap/probing.tsv` and `out/swap/probing/*/paired.tsv`, in the layout
above.  The counts of the two samples side by side (a win as the paper
counts it; significant: exact McNemar test at 5 %; agree: cells
significant on both samples in the same direction; flip: significant on
both in opposite directions):

| classifier | sample | OSE / BOV wins | significant only, OSE / BOV | of cells | agree | flip |
|---|---|---|---|---|---|---|
EOF
	awk -F '\t' "$fmtp"'
	    FNR == 1 { f++ }
	    f == 1 || f == 3 { v[f, $1, $2, $3, $4] = $5; next }
	    { k = $1 SUBSEP $2 SUBSEP $3; d[f, k] = $4; p[f, k] = $7; c[k] = $3 }
	    END {
		for (k in c) {
		    split(k, K, SUBSEP); n = K[1]; t = K[2]; cl = K[3]
		    for (s = 2; s <= 4; s += 2) {
			w = s == 2 ? 1 : 3
			b = v[w, n, "bov", t, cl]; o = v[w, n, "ose", t, cl]
			cells[s, cl]++
			if (o > b) wo[s, cl]++; if (b > o) wb[s, cl]++
			if (sig(p[s, k]) && d[s, k] > 0) so[s, cl]++
			if (sig(p[s, k]) && d[s, k] < 0) sb[s, cl]++
		    }
		    if (sig(p[2, k]) && sig(p[4, k]))
			if ((d[2, k] > 0) == (d[4, k] > 0)) ag[cl]++
			else fl[cl]++
		}
		split("MLP KNN", C, " ")
		for (i = 1; i <= 2; i++)
		    for (s = 2; s <= 4; s += 2)
			printf "| %s | %s | %d / %d | %d / %d | %d | %s | %s |\n",
			    s == 2 ? C[i] : "", s == 2 ? "bundled" : "swapped",
			    wo[s, C[i]], wb[s, C[i]], so[s, C[i]], sb[s, C[i]],
			    cells[s, C[i]], s == 2 ? ag[C[i]] + 0 : "",
			    s == 2 ? fl[C[i]] + 0 : ""
	    }' "$out/probing.tsv" "$tmp/probing.tsv" "$out/swap/probing.tsv" \
	    "$tmp/swap.tsv"
	cat <<'EOF'

A difference significant on both samples has kept its sign where the
flip column is 0.  The same tables on the full files (100,000 training
lines a task): `make -C examples probing
PROBING=/path/to/SentEval/data/probing OUT=out-full`; the MLP's cost
grows with the training lines (the README's table of what the MLP costs
per task: SST2's 67,349 rows with a dev split, four fits, 8.6 s a seed).
EOF
fi

cat <<EOF

## STS12-16: Spearman correlation, BOV against OSE

\`make -C examples sts\` (\`scripts/sts.sh\`): the cosine of the two
composed sentences of each pair against the gold score (\`emb-eval -p\`),
the subsets SentEval uses (STS13 without SMT), unscored pairs (blank gold
lines) skipped.  SentEval reports for each year the mean of the per-subset
correlations and their mean weighted by pair count; we also give the
correlation over all the year's pairs pooled.  The paper does not say which
it prints; we set it beside our mean.

EOF
awk -F '\t' "$fam$fmtp"'
    FILENAME == ARGV[1] { if ($0 ~ /^#/ || $1 != "sts") next
	p[$2, $3, $4] = $5; next }
    FILENAME == ARGV[2] { d[$1, $2, $3] = $4; lo[$1, $2, $3] = $5
	hi[$1, $2, $3] = $6; bp[$1, $2, $3] = $7; next }
    { if (!($1 in se)) { se[$1]; E[++ne] = $1 }
      if (!($3 in sy)) { sy[$3]; Y[++ny] = $3 }
      v[$1, $2, $3, $4] = $5 }
    END {
	print "| embedding | year | BOV mean | OSE mean | BOV wmean | OSE wmean | BOV pooled | OSE pooled | OSE − BOV mean [95% CI] | p | pooled p | Williams p | paper BOV | paper OSE |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (e = 1; e <= ne; e++) for (y = 1; y <= ny; y++) {
	    n = E[e]; f = fam(n)
	    printf "| %s | %s", n, Y[y]
	    split("spearman_mean spearman_wmean spearman_pooled", M, " ")
	    for (i = 1; i <= 3; i++)
		printf " | %.3f | %.3f", v[n, "bov", Y[y], M[i]],
		    v[n, "ose", Y[y], M[i]]
	    k = n SUBSEP Y[y] SUBSEP "spearman_mean"
	    q = n SUBSEP Y[y] SUBSEP "spearman_pooled"
	    printf " | %+.3f [%+.3f, %+.3f] | %s | %s | %s", d[k], lo[k], hi[k],
		fp(bp[k]), fp(bp[q]), fp(bp[n, Y[y], "williams"])
	    printf " | %s | %s |\n", p[f, "bov", Y[y]], p[f, "ose", Y[y]]
	}
	for (e = 1; e <= ne; e++) {
	    n = E[e]; f = fam(n); w = pw = sw = sl = 0
	    for (y = 1; y <= ny; y++) {
		k = n SUBSEP Y[y] SUBSEP "spearman_mean"
		if (v[n, "ose", Y[y], "spearman_mean"] > v[n, "bov", Y[y], "spearman_mean"]) w++
		if (p[f, "ose", Y[y]] + 0 > p[f, "bov", Y[y]] + 0) pw++
		if (sig(bp[k]) && d[k] > 0) sw++
		if (sig(bp[k]) && d[k] < 0) sl++
	    }
	    printf "\n%s: OSE above BOV (mean) in %d of %d years (the paper, %s: %d of %d); significantly (bootstrap, 5 %%) above in %d, below in %d.", n, w, ny, f, pw, ny, sw, sl
	}
	print ""
    }' "$paper" "$tmp/sts.tsv" "$out/sts.tsv"
cat <<'EOF'

OSE − BOV: the difference of the Spearman means on the same pairs, its
95 % interval and p-value from a paired bootstrap of the pairs, stratified
by subset (2,000 samples); pooled p: the same for the pooled Spearman
correlation; Williams p: Williams' test of the two pooled Pearson
correlations, which share the gold scores (`emb-eval --versus`).  All
summaries and Pearson's figures, with their intervals, are in
`out/sts/*/paired.tsv`; `out/sts/*/protocol.tsv` holds the protocol line
of each figure.
EOF

cat <<EOF

## Word retrieval and Problem 2

\`make -C examples retrieval\` (\`04-retrieval.sh\` with
\`VEC=\$(VEC_word2vec)\`): the five vocabulary words nearest to the OSE and
to the BOV of a few word sets (the set's own words excluded; \`emb-knn\` over
the whole vocabulary dumped by \`emb-lookup -D\`), then Problem 2 on the
group "doctor nurse hospital": its interval of common distances
(\`emb-ose -i\`), a vector at alpha_lo + 0.1 from each member
(\`emb-ose -p -c\`), and its measured distances to the members.

\`\`\`
EOF
cat "$out/retrieval.txt"
echo '```'

# shellcheck disable=SC2086
sh "$(dirname "$0")/align-results.sh" "$out" ${ALIGN:-fasttext word2vec}

cat <<EOF

## Is OSE a fair composition?  Gendered and ethnic-name pairs

The paper offers OSE as "a neutral semantic representation for two or
more gender or ethnic variations of the same word".  \`make -C examples
fairness\` (\`07-fairness.sh\`, measured by \`emb-bias\`) composes each
pair with \`emb-ose\` and with \`emb-bov\` (mean): Bolukbasi et al.'s
equalize pairs found in the word2vec vectors (male first, less those among
the definitional pairs or WEAT 7's attributes), and WEAT 4's European and
African American names paired in list order, in GloVe.  Every composed
vector is scaled to unit length and measured: its RIPA along the group
direction (the first principal component of other pairs' differences: the
definitional gender pairs; WEAT 3's names), positive towards the first
member; WEAT with the OSEs and the BOVs as the two target sets (gender:
WEAT 7's male and female terms as attributes; names: WEAT 5's pleasant and
unpleasant), beside the members themselves as targets; and the gap between
the cosines of the composed vector to the two members.  Intervals are
95 %: bootstrap over words for RIPA's mean and WEAT's effect size, mean
+- 1.96 standard errors for |RIPA| and the gaps.  A composition is called
fairer on a measure only when its whole interval lies below the other's.

\`\`\`
EOF
cat "$out/fairness.txt"
echo '```'
echo
awk '/^== / { g = $2; sub(/:$/, "", g) }
    /^verdict, [|]RIPA[|]/ { sub(/^verdict, [|]RIPA[|]: /, ""); r[g] = $0 }
    /^verdict, distance/ { sub(/^verdict, distance to each member: /, "")
	d[g] = $0; o[++n] = g }
    END {
	printf "So, here: along the group direction, "
	for (i = 1; i <= n; i++)
		printf "%s%s: %s", (i > 1 ? "; " : ""), o[i], r[o[i]]
	printf ".  In distance to each member, "
	for (i = 1; i <= n; i++)
		printf "%s%s: %s", (i > 1 ? "; " : ""), o[i], d[o[i]]
	print "."
    }' "$out/fairness.txt"
cat <<EOF

What this means.  OSE is at the same distance from both members by
construction (its gaps above are float rounding), and BOV is not: in that
sense, the paper's, OSE is the fair one.  But for a pair the OSE is the
normalized mean of the two unit vectors (the unit vector at equal cosine
to both and closest to them), so it differs from BOV only by BOV's
weighting of each member by its norm; it removes no group direction.  Its
RIPA is (RIPA(a) + RIPA(b)) / |a + b| for unit a, b: zero only when the
members project symmetrically, and they need not (the members' row above
gives each side's mean), so the composition leans to the side that
projects further, as BOV does.  Equal distance to the members is not
neutrality along the group direction; hard debiasing (\`emb-bias(1)\`,
EXAMPLES) is what removes the direction.
EOF

cat <<EOF

## Discussion

What the numbers above say; every figure here is computed from the same
outputs.

EOF

# SEMCAT: the gap to the paper, and words shared between categories.
awk -F '\t' "$fam"'
    FILENAME == ARGV[1] { if ($0 ~ /^#/ || $1 != "table1") next
	p[$2, $3, $4] = $5; next }
    $2 == "none" && (fam($1), "none", $5) in p {
	if (!($1 in c)) E[++ne] = $1
	d[$1] += p[fam($1), "none", $5] - $6; c[$1]++ }
    END { printf "- SEMCAT without augmentation, our accuracy below the paper'"'"'s (mean over the four classifiers):"
	for (e = 1; e <= ne; e++)
	    printf " %s %.3f%s", E[e], d[E[e]] / c[E[e]], e < ne ? ";" : "."
	print "" }' "$paper" "$out/semcat.tsv"
for d in "$out"/semcat/*/; do
	[ -f "$d/split.txt" ] || continue
	n=$(basename "$d")
	awk -F '\t' -v n="$n" '
	    NR == FNR { ncat[$1]++; next }
	    $3 == "test" { t++; if (ncat[$1] > 1) a++ }
	    END { printf "  %s: %.1f%% of the test entries are words that also belong to another kept category;\n", n, 100 * a / t }' \
	    "$d/split.txt" "$d/split.txt"
done
cat <<EOF
  SEMCAT lists a word under every category it fits, so no classifier can
  get all of these right.  The paper kept 30 categories of at least 100
  words with full vocabularies; we keep those our subsets cover well
  enough (table above), so the categories, their sizes and the training
  sets differ: the absolute accuracies are not comparable, only the
  effects of augmentation are.
EOF
awk -F '\t' '
    $2 == "none" { base[$1, $5] = $6; next }
    { key = $5 SUBSEP $1 SUBSEP $2 SUBSEP $3; s[key] += $6; c[key]++ }
    END { for (k in s) { split(k, f, SUBSEP); n[f[1]]++
	    if (s[k] / c[k] > base[f[2], f[1]]) up[f[1]]++ }
	printf "- Augmentation helps (means over the seeds; all embeddings, methods and k):"
	split("KNN NC LDA Ridge", C, " ")
	for (i = 1; i <= 4; i++)
	    printf " %s in %d of %d cases%s", C[i], up[C[i]], n[C[i]], i < 4 ? ";" : "."
	print " The paper saw the clearest gain for KNN, a smaller one for nearest centroid, and BOV and OSE augmentation close to each other."
    }' "$out/semcat.tsv"
awk -F '\t' '
    $2 != "none" { key = $1 SUBSEP $3 SUBSEP $5; s[$2, key] += $6
	c[$2, key]++; K[key] }
    END { for (k in K) { n++
	    d = s["ose", k] / c["ose", k] - s["bov", k] / c["bov", k]
	    if (d > 0) w++; if (d < 0) l++ }
	printf "- OSE against BOV augmentation (means over the seeds): OSE higher in %d of %d (embedding, k, classifier) cases, lower in %d; the spread over the seeds (Table 1) is of the order of most of these differences.\n", w, n, l }' \
    "$out/semcat.tsv"

# Sentence tasks.
awk -F '\t' "$fam"'
    FILENAME == ARGV[1] { if ($0 ~ /^#/ || ($1 != "knn" && $1 != "mlp")) next
	p[$1, $2, $3, $4] = $5; next }
    { t = $4 == "KNN" ? "knn" : "mlp"; f = fam($1)
      if (!((t, f, $2, $3) in p)) next
      k = $1 " " $4
      if (!(k in c)) K[++nk] = k
      d = $5 - p[t, f, $2, $3]; s[k] += d
      a[k] += d < 0 ? -d : d; c[k]++ }
    END { printf "- Sentence tasks, our accuracy minus the paper'"'"'s, in points (mean over the tasks and both compositions; the MLP, or LogReg when it is run, against the paper'"'"'s MLP):"
	for (i = 1; i <= nk; i++)
	    printf " %s %+.2f (mean absolute difference %.2f);", K[i],
		s[K[i]] / c[K[i]], a[K[i]] / c[K[i]]
	print " The word2vec subset stays closest to the paper.  The fastText and GloVe samples have lower token OOV rates than the word2vec subset (OOV table) and still do worse: they are small samples made for other purposes (the GloVe 100d file is its 2,604 most frequent words), so they cover the frequent function words and lack more of the rarer content words that carry sentiment and topic; we have not measured this." }' \
    "$paper" "$out/senteval.tsv"
cat "$out"/senteval/*/compose.log | awk '
    /^emb-ose: .*repeated members left out/ {
	for (i = 1; i <= NF; i++) {
	    if ($i == "repeated") r += $(i - 1)
	    if ($(i + 1) == "groups,") g += $i } }
    END { printf "- OSE treats a sentence as a set: a word repeated in a sentence counts once (%d repeated tokens left out in %d composed sentences of the classification tasks), while BOV weighs it by its count.\n", r, g }'
cat <<'EOF'
  BOV is the plain mean of the raw vectors, as in the paper, so long
  vectors (frequent and function words in fastText) dominate it, while
  OSE works on unit vectors: this may be why OSE gains most over BOV with
  the fastText sample, which is rich in such tokens.  We have not tested
  that explanation.
- Classifiers: the tables use the paper's, SentEval's MLP and KNN (the
  sentence tasks those of \`SENT_CLFS\`);
  the MLP's cross-validation uses SentEval's default 5 folds where its
  example scripts give 10 (see the sentence section).  Logistic
  regression, SentEval's classifier without a hidden layer, runs with
  `SENT_CLFS=knn,logreg`.  KNN uses 5 neighbours; the paper does not give
  its k, nor K for the augmentation.
- STS: the paper does not say whether its figures are SentEval's mean or
  weighted mean over the subsets; both are above.
- Not reproduced: the contextual embeddings (BERT, RoBERTa, USE) of the
  paper; their models are not available here.  The probing tasks run on
  samples of their files (see their section).
EOF
