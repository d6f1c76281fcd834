# emb-cat ... | head -1 ends quietly: no message, and the emb-cat stage
# ends by SIGPIPE (status 141) or cleanly, never with an error.  The stage's
# own status is taken through a FIFO.
set -u
zcat "$EXDATA/word2vec-googlenews-300d-13k.vec.gz" | sed 1d | head -3000 |
    awk '{ k = $1; $1 = ""; print k "\t" substr($0, 2) }' >w.txt
emb-cat -r w.txt >x.emb
mkfifo f

# stage NAME READER EMB-CAT-ARGS...: emb-cat into the READER pipeline
# through f.
stage() {
	name=$1 reader=$2
	shift 2
	emb-cat "$@" >f 2>err &
	pid=$!
	eval "$reader" <f
	wait $pid
	st=$?
	case $st in
	0|141)	echo "$name: stage ended quietly" ;;
	*)	echo "$name: exit $st" ;;
	esac
	cat err
}
stage text "head -1 | cut -c 1-30" x.emb
stage -r "head -c 16 | od -A n -t x1" -r w.txt
stage -k "head -1" -k x.emb
