# emb-lookup -B replaces its store by rename, so it refuses (exit 2) a
# name that is not a regular file (a FIFO, a directory, a symbolic link,
# a device) and leaves it as it was; and a build ended by SIGTERM, SIGHUP
# or SIGINT removes its temporary, so that a failed build leaves nothing.
set -u
cp "$TESTDATA/lookup/tiny.vec" .
emb-lookup -q -e tiny.vec -D >tiny.emb
emb-lookup -q -e tiny.vec -B real.store
mkfifo fifo
mkdir dir
ln -s real.store link.store
for t in fifo dir link.store; do
	emb-lookup -q -e tiny.vec -B $t
	echo "-B $t: exit $?"
done
[ -p fifo ] && echo "fifo: still a FIFO"
[ -d dir ] && echo "dir: still a directory"
[ -L link.store ] && echo "link.store: still a symbolic link"
emb-lookup -q -e tiny.vec -B tiny.vec
echo "-B its own input: exit $?"
cmp tiny.vec "$TESTDATA/lookup/tiny.vec" && echo "tiny.vec: unchanged"
ls
# A build stalled on a FIFO that holds the start of a stream, then ended
# by a signal once its temporary exists.  (A background job of a script
# starts with SIGINT ignored, which the program keeps: env gives it back.)
mkfifo in
for sig in TERM HUP INT; do
	env --default-signal=INT emb-lookup -q -e in -B s.store &
	pid=$!
	exec 3>in
	head -c 40 tiny.emb >&3
	i=0
	while [ $i -lt 200 ] && ! ls s.store.tmp.* >/dev/null 2>&1; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -$sig $pid
	# (the shell's own word on the signal is not part of the test)
	{ wait $pid; st=$?; } 2>/dev/null
	echo "SIG$sig: exit $st"
	exec 3>&-
	ls s.store* 2>/dev/null
done
exit 0
