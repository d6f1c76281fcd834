#!/usr/bin/env python3
"""contextual.py - token vectors, one row a token, as emb-cat -n reads them.

    contextual.py VECTORS SENTENCES OUT

VECTORS    a GloVe text file (gzip or not) standing in for a model
SENTENCES  lines "id TAB label TAB tokens"
OUT        prefix: writes OUT.npy (float32, shape (tokens, dim)) and
           OUT.keys, one line "id TAB label TAB token" a row

A contextual model gives each token of a sentence its own vector.  With
Hugging Face transformers (not needed here) the rows come from the model:

    from transformers import AutoTokenizer, AutoModel
    tok = AutoTokenizer.from_pretrained("bert-base-uncased")
    model = AutoModel.from_pretrained("bert-base-uncased")
    enc = tok(text, return_tensors="pt")
    outputs = model(**enc)
    rows = outputs.last_hidden_state[0].detach().numpy()  # one a token
    tokens = tok.convert_ids_to_tokens(enc["input_ids"][0])

and replace lookup() below.  Here each known token's vector is looked up
in VECTORS, so that the recipe runs without a model.
"""
import gzip
import sys

import numpy as np


def esc(s):
    """A raw string as one emb(5) key field."""
    return (s.replace("\\", "\\\\").replace("\t", "\\t")
            .replace("\n", "\\n").replace("\r", "\\r").replace("\0", "\\0"))


def main():
    vecpath, sentpath, out = sys.argv[1:4]
    op = gzip.open if vecpath.endswith(".gz") else open
    table = {}
    with op(vecpath, "rt", encoding="utf-8") as f:
        for line in f:
            w, *v = line.rstrip("\n").split(" ")
            table[w] = np.array(v, dtype=np.float32)

    def lookup(tokens):
        # The place of outputs.last_hidden_state[0]: one row a token.
        known = [t for t in tokens if t in table]
        return known, [table[t] for t in known]

    rows, keys = [], []
    with open(sentpath, encoding="utf-8") as f:
        for line in f:
            sid, label, text = line.rstrip("\n").split("\t")
            tokens, vecs = lookup(text.lower().split())
            rows.extend(vecs)
            keys.extend("%s\t%s\t%s" % (esc(sid), esc(label), esc(t))
                        for t in tokens)
    np.save(out + ".npy", np.array(rows, dtype=np.float32))
    with open(out + ".keys", "w", encoding="utf-8") as f:
        f.writelines(k + "\n" for k in keys)


if __name__ == "__main__":
    main()
