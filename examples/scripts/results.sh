#!/bin/sh
# results.sh OUT PAPER NAME=VECTORS... - write RESULTS.md on stdout from
# the outputs of the runs under OUT (semcat.tsv, senteval.tsv, sts.tsv,
# retrieval.txt and the per-embedding meta.tsv and oov.tsv) beside the
# paper's published values (PAPER, paper-values.tsv); each NAME=VECTORS
# names an embedding file for the table of embeddings.  Every number in
# the document comes from these files; nothing is typed in.
set -eu
out=$1
paper=$2
shift 2

# The paper's family of one of our embedding names.
fam='function fam(n) { sub(/[0-9]+$/, "", n); return n }'

cat <<EOF
# Results: the paper's experiments, rerun

This file is written by \`make -C examples\` (the script
\`examples/scripts/results.sh\`) from the outputs of the runs under
\`examples/out/\`; no number in it is typed by hand.  The paper's values are
those of its tables, kept in \`examples/paper-values.tsv\`.  To regenerate
everything from scratch:

    make -C examples clean all

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
10-fold stratified cross-validation (seed 1111), the mean of the fold
accuracies; TREC, SST2, SST5: the task's train (and dev) sets, tested on
its test set; MRPC and SICK-E: the features |u - v| and u * v of the two
sentences (\`emb-pair\`), as SentEval builds them.  Classifiers:
\`emb-eval\` KNN (5 neighbours, cosine) and L2 logistic regression (C = 1),
which is SentEval's classifier with no hidden layer; the paper's first
table uses SentEval's MLP (run it with \`SENT_CLFS=knn,mlp\`: its weight
decay search over inner folds is slow here).  Accuracy in percent.

EOF
for clf in KNN LogReg MLP; do
	grep -q "	$clf	" "$out/senteval.tsv" 2>/dev/null || continue
	case $clf in
	KNN) pt=knn; pn="beside the paper's KNN table" ;;
	*) pt=mlp; pn="beside the paper's MLP table" ;;
	esac
	echo "### $clf, $pn"
	echo
	awk -F '\t' -v clf="$clf" -v pt="$pt" "$fam"'
	    FILENAME == ARGV[1] { if ($0 ~ /^#/ || $1 != pt) next
		p[$2, $3, $4] = $5; next }
	    $4 != clf { next }
	    { if (!($1 in se)) { se[$1]; E[++ne] = $1 }
	      if (!($3 in st)) { st[$3]; T[++nt] = $3 }
	      v[$1, $2, $3] = $5 }
	    END {
		hdr = "| task"; sep = "|---"
		for (e = 1; e <= ne; e++) {
		    hdr = hdr " | " E[e] " BOV | " E[e] " OSE | paper " fam(E[e]) " BOV | paper OSE"
		    sep = sep "|---|---|---|---"
		}
		print hdr " |"; print sep "|"
		for (t = 1; t <= nt; t++) {
		    line = "| " T[t]
		    for (e = 1; e <= ne; e++) {
			n = E[e]; f = fam(n)
			b = v[n, "bov", T[t]]; o = v[n, "ose", T[t]]
			if (b > o) b = "**" b "**"; else if (o > b) o = "**" o "**"
			line = line " | " b " | " o " | " p[f, "bov", T[t]] " | " p[f, "ose", T[t]]
		    }
		    print line " |"
		}
		for (e = 1; e <= ne; e++) {
		    n = E[e]; f = fam(n); w = l = pw = pl = 0
		    for (t = 1; t <= nt; t++) {
			if (v[n, "ose", T[t]] > v[n, "bov", T[t]]) w++
			if (v[n, "ose", T[t]] < v[n, "bov", T[t]]) l++
			if ((f, "ose", T[t]) in p) {
			    if (p[f, "ose", T[t]] + 0 > p[f, "bov", T[t]] + 0) pw++
			    if (p[f, "ose", T[t]] + 0 < p[f, "bov", T[t]] + 0) pl++ }
		    }
		    printf "\n%s: OSE better than BOV on %d of the %d tasks, worse on %d (the paper, %s: better on %d, worse on %d).", n, w, nt, l, f, pw, pl
		}
		print ""
	    }' "$paper" "$out/senteval.tsv"
	echo
done

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

## STS12-16: Spearman correlation, BOV against OSE

\`make -C examples sts\` (\`scripts/sts.sh\`): the cosine of the two
composed sentences of each pair against the gold score (\`emb-eval -p\`),
the subsets SentEval uses (STS13 without SMT), unscored pairs (blank gold
lines) skipped.  SentEval reports for each year the mean of the per-subset
correlations and their mean weighted by pair count; we also give the
correlation over all the year's pairs pooled.  The paper does not say which
it prints; we set it beside our mean.

EOF
awk -F '\t' "$fam"'
    FILENAME == ARGV[1] { if ($0 ~ /^#/ || $1 != "sts") next
	p[$2, $3, $4] = $5; next }
    { if (!($1 in se)) { se[$1]; E[++ne] = $1 }
      if (!($3 in sy)) { sy[$3]; Y[++ny] = $3 }
      v[$1, $2, $3, $4] = $5 }
    END {
	print "| embedding | year | BOV mean | OSE mean | BOV wmean | OSE wmean | BOV pooled | OSE pooled | paper BOV | paper OSE |"
	print "|---|---|---|---|---|---|---|---|---|---|"
	for (e = 1; e <= ne; e++) for (y = 1; y <= ny; y++) {
	    n = E[e]; f = fam(n)
	    printf "| %s | %s", n, Y[y]
	    split("spearman_mean spearman_wmean spearman_pooled", M, " ")
	    for (i = 1; i <= 3; i++)
		printf " | %.3f | %.3f", v[n, "bov", Y[y], M[i]],
		    v[n, "ose", Y[y], M[i]]
	    printf " | %s | %s |\n", p[f, "bov", Y[y]], p[f, "ose", Y[y]]
	}
	for (e = 1; e <= ne; e++) {
	    n = E[e]; f = fam(n); w = pw = 0
	    for (y = 1; y <= ny; y++) {
		if (v[n, "ose", Y[y], "spearman_mean"] > v[n, "bov", Y[y], "spearman_mean"]) w++
		if (p[f, "ose", Y[y]] + 0 > p[f, "bov", Y[y]] + 0) pw++
	    }
	    printf "\n%s: OSE above BOV (mean) in %d of %d years (the paper, %s: %d of %d).", n, w, ny, f, pw, ny
	}
	print ""
    }' "$paper" "$out/sts.tsv"

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
