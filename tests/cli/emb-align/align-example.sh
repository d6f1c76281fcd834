# The first example of emb-align(1), as the page gives it.
printf 'a\t1 0\nb\t0 2\n' | emb-cat -r >s.emb
printf 'A\t0 1\nB\t-2 0\n' | emb-cat -r >t.emb
printf 'a A\nb B\n' >dict.txt
emb-align -q -F rot.txt -d dict.txt s.emb t.emb
printf 'x\t3 0\n' | emb-cat -r | emb-align -q -M rot.txt | emb-cat
