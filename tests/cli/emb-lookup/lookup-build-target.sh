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
# A run stalled on its input (the start of a stream), then ended by a
# signal once its output is open: SIGKILL too leaves nothing behind.
. "${0%/*}/../signal.inc"
head -c 40 tiny.emb >head.emb
for sig in TERM HUP INT KILL; do
	stalled $sig s.store head.emb emb-lookup -q -e in -B s.store
done
exit 0
