# A stream of empty groups only (lines where no word was known): the text
# has no vector line to tell the dimension, so -r needs -d.
set -u
printf 'line1\t#0\nline2\tthe same\t#0\nline3\t#0\n' >g.txt
emb-cat -r -d 300 g.txt >g.emb || echo "emb-cat -r -d failed"
emb-cat g.emb
emb-cat -k g.emb | wc -l | tr -d ' '
wc -c <g.emb | tr -d ' '
emb-cat -r g.txt >out
echo "without -d: exit $?"
wc -c <out | tr -d ' '
