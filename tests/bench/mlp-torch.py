#!/usr/bin/python3
# mlp-torch.py - the PyTorch side of tests/bench/10-mlp.sh: SentEval's MLP
# and its weight-decay search on a train/dev/test split, as SentEval's
# SplitClassifier runs it, on the CPU.
#
#   mlp-torch.py X.npy KEYS NHID SEED...
#
# X.npy holds the rows (float32, emb-cat -N), KEYS one line per row with
# the label in tab field 2 and the split (train, dev, test) in field 3.
# For each SEED, one whole run: for each weight decay of 1e-5, 1e-4, 1e-3,
# 1e-2 a model fitted on train and early-stopped on dev, its dev accuracy
# rounded to 0.01 %; the first best value refitted (SentEval fits it
# again) and scored on test.  The network: Linear(d, NHID), Dropout(0),
# Sigmoid, Linear(NHID, classes) (NHID 0: one Linear); cross-entropy,
# Adam (lr 1e-3) with the weight decay, batches of 64, epochs of 4 passes,
# at most 200 passes, tenacity 5.  Prints per seed "seed<TAB>test
# accuracy<TAB>weight decay<TAB>wall seconds<TAB>CPU seconds" (the time of
# the search and the refit, data already loaded).
import sys
import time

import numpy as np
import torch
from torch import nn

BATCH, EPOCH_SIZE, MAX_EPOCH, TENACITY = 64, 4, 200, 5
REGS = [1e-5, 1e-4, 1e-3, 1e-2]


def accuracy(model, X, y):
    model.eval()
    ok = 0
    with torch.no_grad():
        for i in range(0, len(X), BATCH):
            ok += (model(X[i:i + BATCH]).argmax(1) == y[i:i + BATCH]).sum()
    return float(ok) / len(X)


def fit(Xtr, ytr, Xdv, ydv, ncls, nhid, l2, seed):
    np.random.seed(seed)
    torch.manual_seed(seed)
    d = Xtr.shape[1]
    if nhid == 0:
        model = nn.Sequential(nn.Linear(d, ncls))
    else:
        model = nn.Sequential(nn.Linear(d, nhid), nn.Dropout(p=0.0),
                              nn.Sigmoid(), nn.Linear(nhid, ncls))
    # SentEval sets size_average = False after construction, which
    # PyTorch has ignored since 0.4.1: the loss is the batch mean.
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(model.parameters(), weight_decay=l2)
    nepoch, best, bad, stop, keep = 0, -1.0, 0, False, None
    while not stop and nepoch <= MAX_EPOCH:
        model.train()
        for _ in range(EPOCH_SIZE):
            perm = torch.from_numpy(np.random.permutation(len(Xtr)))
            for i in range(0, len(Xtr), BATCH):
                idx = perm[i:i + BATCH]
                loss = loss_fn(model(Xtr[idx]), ytr[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
        nepoch += EPOCH_SIZE
        acc = accuracy(model, Xdv, ydv)
        if acc > best:
            best = acc
            keep = [p.detach().clone() for p in model.parameters()]
        else:
            if bad >= TENACITY:
                stop = True
            bad += 1
    with torch.no_grad():
        for p, q in zip(model.parameters(), keep):
            p.copy_(q)
    return model


def main():
    X = np.load(sys.argv[1]).astype(np.float32)
    lab, part = [], []
    with open(sys.argv[2]) as f:
        for line in f:
            k = line.rstrip("\n").split("\t")
            lab.append(k[1])
            part.append(k[2])
    nhid = int(sys.argv[3])
    classes = sorted(set(l for l, p in zip(lab, part) if p == "train"))
    cls = {c: i for i, c in enumerate(classes)}
    sets = {}
    for p in ("train", "dev", "test"):
        rows = [i for i in range(len(lab)) if part[i] == p and
                lab[i] in cls]
        sets[p] = (torch.from_numpy(X[rows]),
                   torch.tensor([cls[lab[i]] for i in rows]))
    # Test rows whose label has no training row count as errors.
    ntest = sum(1 for p in part if p == "test")
    for seed in sys.argv[4:]:
        seed = int(seed)
        t0, c0 = time.perf_counter(), time.process_time()
        scores = []
        for l2 in REGS:
            m = fit(*sets["train"], *sets["dev"], len(classes), nhid, l2,
                    seed)
            scores.append(round(100 * accuracy(m, *sets["dev"]), 2))
        l2 = REGS[int(np.argmax(scores))]
        m = fit(*sets["train"], *sets["dev"], len(classes), nhid, l2, seed)
        Xte, yte = sets["test"]
        acc = accuracy(m, Xte, yte) * len(Xte) / ntest
        print("%d\t%.6f\t%g\t%.3f\t%.3f" % (seed, acc, l2,
              time.perf_counter() - t0, time.process_time() - c0),
              flush=True)


main()
