# The bash completion that make builds from the programs' option tables
# (emb.bash beside them, installed under each program's name): options,
# the words of an option's argument (of each word of a comma-separated
# list), file names for a file argument and for operands, nothing for a
# number.
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
# A comma-separated list: each word after a comma as the first.
try emb-eval -c ''
try emb-eval -c knn,m
try emb-eval --classifiers=knn,c
try emb-align -n unit,c
try emb-bias -t weat,r
bash -c '. "$1"; complete -p emb-eval emb-split' sh "$comp"
# make install puts it where bash-completion loads it by the command's
# name, beside the programs, emb(7) and the SentEval converter.
top=$(cd "$TESTDATA/../.." && pwd)
b=$(dirname "$(command -v emb-cat)")
san=
case $b in *-san) san=SAN=1 ;; esac
make -s -C "$top" $san install DESTDIR="$PWD/root" PREFIX=/usr \
    >install.log 2>&1 || { cat install.log; exit 1; }
for f in bin/emb-knn share/bash-completion/completions/emb-knn \
    share/man/man7/emb.7 share/emb/senteval-prep.sh; do
	[ -f "root/usr/$f" ] && echo "installed: $f"
done
bash -c '. "$1"; COMP_WORDS=(emb-knn --neigh); COMP_CWORD=1; _emb emb-knn
    echo "${COMPREPLY[@]}"' sh root/usr/share/bash-completion/completions/emb-knn
