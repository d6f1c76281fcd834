# A store cut short while emb-lookup has it mapped: the next lookup
# touches a page past the new end, and the program names the file and
# exits 1 instead of dying of SIGBUS.
cp "$TESTDATA/lookup/tiny.vec" .
emb-lookup -q -e tiny.vec -B tiny.store
mkfifo q
emb-lookup -q -e tiny.store <q >out.emb 2>err.txt &
pid=$!
exec 3>q
# Wait until the store is mapped.
i=0
while ! grep -q 'tiny\.store' /proc/$pid/maps 2>/dev/null && [ $i -lt 500 ]
do
	sleep 0.01
	i=$((i + 1))
done
: >tiny.store
echo the >&3
exec 3>&-
wait $pid
echo "exit $?"
cat err.txt
