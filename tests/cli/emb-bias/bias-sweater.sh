# Figures published on the same vectors: the R package sweater's README
# (gesistsa/sweater at 2a72c79, 2023) runs Garg et al.'s occupations
# against male and female words on its `googlenews` data, the word2vec
# subset bundled here exactly (examples/data/README.md).  Side by side,
# emb-bias rounded as sweater prints (7 significant digits):
#   RND, sweater's rnd() on the vectors as they are: -6.341598 (-U here);
#   MAC, sweater's mac() mean cosine similarity 0.1375856, emb-bias's
#   Manzini et al.'s mean cosine distance: 1 minus it.
S=$EXDATA/bias
emb-lookup -q -D -e "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" \
    >w2v.emb || exit 1
emb-bias -U -t rnd -w "$S/garg-occupations.txt" w2v.emb |
    awk -F '\t' '$3 == "rnd" { printf "RND: emb-bias %.7g, sweater %s\n",
	$4, "-6.341598" }'
awk '$1 == "X" { $1 = "A" } $1 == "A" && $2 == "occupations" { $1 = "X" }
    $1 != "Y"' "$S/garg-occupations.txt" >mac.txt
emb-bias -t mac -w mac.txt w2v.emb |
    awk -F '\t' '$3 == "mac" { printf "MAC: emb-bias 1 - %.7g, sweater %s\n",
	1 - $4, "0.1375856" }'
