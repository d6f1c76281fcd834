# emb-split -i names a part that must exist, with -l as with -n: a part
# past the last is a usage error (exit 2) and nothing is written, with -l
# once the input has told how many parts there are.
set -u
printf 'a\t1 2\nb\t3 4\nc\t5 6\n' | emb-cat -r >x.emb
printf '' | emb-cat -r -d 2 >empty.emb
run() {
	"$@" >out.emb
	echo "$*: exit $?, $(wc -c <out.emb | tr -d ' ') bytes"
}
run emb-split -n 3 -i 3 x.emb
run emb-split -n 3 -i 4 x.emb
run emb-split -l 2 -i 2 x.emb
run emb-split -l 2 -i 3 x.emb
run emb-split -l 2 -i 100 x.emb
run emb-split -l 2 -i 3 - <x.emb
run emb-split -l 2 -i 1 empty.emb
run emb-split -l 2 -i 2 empty.emb
