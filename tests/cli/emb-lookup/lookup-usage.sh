# Usage errors exit 2; --version and --help.
cp "$TESTDATA/lookup/tiny.vec" .
v=tiny.vec
emb-lookup --version
emb-lookup --help >help.txt; echo "--help: $?"
head -1 help.txt
emb-lookup </dev/null; echo "no -e: $?"
emb-lookup -e "$v" -o maybe </dev/null; echo "-o maybe: $?"
emb-lookup -e "$v" -o unk </dev/null; echo "-o unk without -u: $?"
emb-lookup -e "$v" -n 0 </dev/null; echo "-n 0: $?"
emb-lookup -e "$v" -D -w </dev/null; echo "-D -w: $?"
emb-lookup -e "$v" -f 1 -w </dev/null; echo "-f -w: $?"
emb-lookup -e "$v" -L x </dev/null; echo "-L without -w: $?"
emb-lookup -e "$v" a b </dev/null; echo "two operands: $?"
emb-lookup -e "$v" -u nosuchword </dev/null; echo "unknown -u word: $?"
emb-lookup -e "$v" nosuchfile; echo "missing input: $?"
