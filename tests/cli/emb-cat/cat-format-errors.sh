# emb-cat -f refuses what the formats cannot carry, naming the record, and
# leaves no output file behind; repeated words are only warned about.
set -u
run() {	# run ARGS...: emb-cat -f ARGS, its exit status, and what -o left
	emb-cat -f "$@" >/dev/null
	echo "emb-cat -f $*: exit $?"
	ls out* 2>/dev/null
}
printf 'a\t1 2\nb\t3 4\n' | emb-cat -r >ok.emb
printf 'g\t#1\na\t1 2\n' | emb-cat -r >group.emb
printf 'a\t1 2\nb c\t3 4\n' | emb-cat -r >space.emb
printf 'a\t1 2\nb\\tc\t3 4\n' | emb-cat -r >tab.emb
printf 'a\t1 2\nb\\nc\\r\\0\t3 4\n' | emb-cat -r >nl.emb
printf 'a\t1 2\n\t3 4\n' | emb-cat -r >empty.emb
printf 'a\tx\t1 2\nb\t3 4\n' | emb-cat -r >fields.emb
printf 'a\t1 2\nb\t3 4\na\t5 6\n' | emb-cat -r >dup.emb
printf '12\t3\nb\t4\n' | emb-cat -r >num.emb
run w2vbin -o out group.emb
run glove -o out space.emb
run w2vtext -o out tab.emb
run vec -o out nl.emb
run w2vbin -o out empty.emb
run w2vbin -o out -w 2 fields.emb
run w2vtext -o out -S _ nl.emb
cat out
rm -f out
run glove -o out dup.emb
cat out
rm -f out
run glove -o out num.emb
cat group.emb | emb-cat -f vec -z -o out
echo "from a pipe, emb-cat -f vec -z -o out: exit $?"
ls out* 2>/dev/null
run vec -o out num.emb
rm -f out
echo "-- usage"
run w2vbin -o ok.emb ok.emb
run nope ok.emb
run glove -a ok.emb
run glove -S ' ' ok.emb
run glove -S ab ok.emb
emb-cat -z ok.emb >/dev/null
echo "emb-cat -z without -f: exit $?"
