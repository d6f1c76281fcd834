# The bash completion that make builds from the programs' option tables
# (emb.bash beside them, installed under each program's name): options,
# the words of an option's argument, file names for a file argument and
# for operands, nothing for a number.
command -v bash >/dev/null || { echo "no bash"; exit 77; }
comp=$(dirname "$(command -v emb-cat)")/emb.bash
touch vectors.vec notes.txt
# try WORDS...: complete the last word of the command line WORDS.
try() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
	    _emb "$1"; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
	    sh "$comp" "$@"
	echo "<- $*"
}
try emb-knn --nei
try emb-lookup --v
try emb-lookup -o s
try emb-lookup --oov = z
try emb-lookup --oov=f
try emb-lookup -e vec
try emb-lookup --vectors = no
try emb-eval --sh
try emb-eval --shrinkage a
try emb-eval -k ''
try emb-bov -m m
try emb-ose -n ''
try emb-cat -f w2v
try emb-split no
bash -c '. "$1"; complete -p emb-eval emb-split' sh "$comp"
