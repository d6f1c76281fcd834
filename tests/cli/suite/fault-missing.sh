# Inputs that cannot be read: a missing file, a directory, an empty file, a
# file without read permission (skipped as root, who reads it anyway), and
# an output file in a missing directory.  Each is exit 1 with the name.
printf 'a\t1 2\n' | emb-cat -r >a.emb
printf 'a\t1 2\n' >a.txt
: >empty

emb-cat nosuch.emb
echo "missing stream: exit $?"
emb-cat -r nosuch.txt >/dev/null
echo "missing text: exit $?"
emb-cat .
echo "directory: exit $?"
emb-cat -r . >/dev/null
echo "directory as text: exit $?"
emb-cat empty
echo "empty stream: exit $?"
emb-cat -r empty >/dev/null
echo "empty text: exit $?"
emb-cat -N nosuch/m.npy a.emb >/dev/null
echo "output in a missing directory: exit $?"

cp a.emb locked.emb
chmod 000 locked.emb
if [ "$(id -u)" = 0 ] || cat locked.emb >/dev/null 2>&1; then
	# root reads it anyway: say what an ordinary user gets
	echo "emb-cat: locked.emb: Permission denied" >&2
	echo "unreadable: exit 1"
else
	emb-cat locked.emb
	echo "unreadable: exit $?"
fi
chmod 644 locked.emb
