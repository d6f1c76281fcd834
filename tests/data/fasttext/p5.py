# p5.py - emb-cat's text view of word vectors as "fasttext
# print-word-vectors" prints them: the word, then each component (the
# float32 itself, exactly) with 5 significant digits and a space after it.
import struct
import sys

for line in sys.stdin:
    f = line.rstrip("\n").split("\t")
    v = [struct.unpack("f", struct.pack("f", float(x)))[0]
         for x in f[-1].split()]
    print(f[0] + " " + "".join("%.5g " % x for x in v))
