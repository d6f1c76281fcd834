# The EXAMPLES of emb-bias(1) run as printed, from the top of the source
# tree (here: the bundled data through a link), each with output.
top=$(cd "$TESTDATA/../.." && pwd)
ln -s "$top/examples" examples || exit 1
# The literal blocks of EXAMPLES, from the source (\e is a backslash).
awk '/^\.Sh EXAMPLES/ { on = 1 } /^\.Sh DIAG/ { on = 0 }
    on && /^\.Bd -literal/ { n++; f = "ex" n ".sh"; lit = 1; next }
    on && /^\.Ed/ { lit = 0; close(f); next }
    lit { gsub(/\\e/, "\\"); print >f }' "$top/man/emb-bias.1"
for f in ex*.sh; do
	sh -e "$f" >"$f.out" 2>"$f.err"
	echo "$f: exit $?, $(wc -l <"$f.out") lines out, $(wc -l <"$f.err") err"
done
