# Huge declared sizes are refused before anything is allocated: a hostile
# header or record must give a clear message, not an out-of-memory failure
# (nor a crash, nor a long wait).  Run with the address space limited to
# 64 MiB, which the largest legal dimension (2^20) still fits in; where
# the programs cannot start under the limit (sanitizer or valgrind builds
# reserve far more), the same checks run without it.
lim=65536
# (The probe runs in its own shell, so that a program killed by the limit
# is reported there, not on this test's stderr.)
sh -c '(ulimit -v $1 && emb-cat --version); exit $?' sh $lim \
    >/dev/null 2>&1 || lim=unlimited
run() {
	(ulimit -v $lim; "$@")
}
H='\211EMB\r\n\032\n\001\000\000\000'

printf "$H\377\377\377\377" >dim4g.emb
run emb-cat dim4g.emb
echo "dimension 2^32-1: exit $?"
printf "$H\001\000\020\000" >dimover.emb
run emb-cat dimover.emb
echo "dimension 2^20+1: exit $?"
printf "$H\000\000\020\000V\377\377\377\377" >key4g.emb
run emb-cat key4g.emb
echo "key length 2^32-1: exit $?"
printf "$H\001\000\000\000G\000\000\000\000\377\377\377\377" >group4g.emb
run emb-cat group4g.emb
echo "group of 2^32-1: exit $?"
printf "$H\000\000\020\000V\000\000\020\000abc" >keymax.emb
run emb-cat keymax.emb
echo "legal maximum key and dimension, then nothing: exit $?"

printf 'a\t1 2 3\n' | run emb-cat -r -d 1048576 >/dev/null
echo "text, declared dimension 2^20: exit $?"
printf 'g\t#4294967295\na\t1\n' | run emb-cat -r >/dev/null
echo "text, group of 2^32-1: exit $?"
awk 'BEGIN { printf "a\t"; for (i = 0; i <= 1048576; i++) printf "0 "
	print "" }' |
    run emb-cat -r >/dev/null
echo "text, 2^20+1 components: exit $?"
