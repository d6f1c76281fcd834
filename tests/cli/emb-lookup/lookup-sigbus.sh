# A mapped file cut short while emb-lookup has it mapped: the next lookup
# touches a page past the new end, and the program names the file and
# exits 1 instead of dying of SIGBUS.  Once for a store, once for a plain
# word2vec binary file, whose vectors are read where they lie.
cutshort() {	# cutshort FILE: look "the" up after FILE is emptied
	rm -f q
	mkfifo q
	emb-lookup -q -e "$1" <q >out.emb 2>err.txt &
	pid=$!
	exec 3>q
	# Wait until the load is done and the input is read (read(2) on
	# fd 0), the file still mapped.
	i=0
	while { ! grep -qF "$1" /proc/$pid/maps 2>/dev/null ||
	    [ "$(cut -d' ' -f1,2 /proc/$pid/syscall 2>/dev/null)" != \
	    "0 0x0" ]; } && [ $i -lt 1000 ]
	do
		sleep 0.01
		i=$((i + 1))
	done
	: >"$1"
	echo the >&3
	exec 3>&-
	wait $pid
	echo "exit $?"
	cat err.txt
}
cp "$TESTDATA/lookup/tiny.vec" .
emb-lookup -q -e tiny.vec -B tiny.store
cutshort tiny.store
gunzip -c "$EXDATA/fasttext-en-300d-2k.w2v.bin.gz" >ft.bin
cutshort ft.bin
