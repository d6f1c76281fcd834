# Misuse exits 2 with the usage; bad data and failures exit 1 with a
# message naming the input and the record; a closed pipe ends quietly.
printf 'a\t1 0\nb\t0 1\nc\t1 1\n' | emb-cat -r >ref.emb || exit 1
printf 'q\t1 0 0\n' | emb-cat -r >q3.emb || exit 1
printf 'q\t1 0\n' | emb-cat -r >q.emb || exit 1
st() { echo "exit $?"; }
echo "== usage"
emb-knn; st
emb-knn -k 0 ref.emb <q.emb; st
emb-knn -W ref.emb <q.emb; st
emb-knn -A -c 1 ref.emb <q.emb; st
emb-knn -b -c 1 ref.emb <q.emb; st
emb-knn - <q.emb; st
emb-knn ref.emb q.emb extra; st
echo "== bad data"
emb-knn missing.emb <q.emb; st
emb-knn ref.emb <q3.emb; st
head -c 30 q.emb | emb-knn ref.emb; st
head -c 40 ref.emb >short.emb
emb-knn short.emb <q.emb; st
echo "== output"
emb-knn ref.emb <q.emb >/dev/full; st
emb-knn -b ref.emb <q.emb >/dev/full; st
cat q.emb q.emb q.emb | emb-knn -k 3 ref.emb | head -1; st
emb-knn --version | sed 's/ .*//'
emb-knn -h | head -1 | cut -c 1-14; st
echo "== -b refuses a terminal (from script(1), when there is one)"
. "${0%/*}/../tty.inc"
if have_tty; then
	script -qec "emb-knn -b ref.emb q.emb" /dev/null >out 2>&1
	echo "exit $?: $(grep -o 'refusing to write a binary stream' out)"
else
	echo "exit 2: refusing to write a binary stream"
fi
