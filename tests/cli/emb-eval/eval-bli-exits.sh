# The error exits of emb-eval -L free what they hold: under the sanitizers
# (make check SAN=1) no leak report follows the one line of the message,
# even with no pointer on a stack or in a register counted (as
# suite/error-exits does).  A dictionary none of whose source words has a
# translation in both spaces; spaces of two dimensions.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}use_stacks=0:use_registers=0
export ASAN_OPTIONS LSAN_OPTIONS
printf 'king\t1 0\nqueen\t0 1\n' | emb-cat -r >src.emb || exit 1
printf 'Tking\t1 0.1\nTqueen\t0.1 1\n' | emb-cat -r >tgt.emb || exit 1
printf 'Tking\t1 0.1 0\n' | emb-cat -r >tgt3.emb || exit 1
printf 'king Tnone\nghost Tking\n' >none.txt
printf 'king Tking\n' >dict.txt
emb-eval -L none.txt -R tgt.emb src.emb;	echo "no translation: $?"
emb-eval -L dict.txt -R tgt3.emb src.emb;	echo "dimensions: $?"
