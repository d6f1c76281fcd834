# Keys are bytes: invalid UTF-8, escaped TAB, newline, backslash and NUL
# inside a field pass through every direction unchanged.
set -u
printf 'caf\351\tw\\tx\t1 2\n\377\376\\n\\r\\0\\\\\t3 4\nna\303\257ve\t5 6\n' >x.txt
emb-cat -r x.txt >x.emb
emb-cat x.emb | cmp - x.txt && echo "text -> stream -> text: same bytes"
emb-cat -k x.emb | cmp - "$(printf 'caf\351\tw\\tx\n\377\376\\n\\r\\0\\\\\nna\303\257ve\n' >k; echo k)" &&
    echo "-k: same key bytes"
emb-cat -N x.npy x.emb | cmp - k && echo "-N keys: same key bytes"
# The key bytes sit in the stream as they are in the text.
od -A d -t x1 -j 16 -N 18 x.emb | head -2
# The second key's field count, as cut(1) sees it.
emb-cat -k x.emb | awk -F '\t' '{ print NF }' | tr '\n' ' '; echo
