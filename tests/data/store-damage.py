#!/usr/bin/env python3
"""store-damage.py - damage a store in every region; every program that
reads it must answer as the undamaged store does, or exit 1 naming it.

    store-damage.py NAME STORE PER SEED CMD...

STORE is a store emb-lookup -B wrote (a copy is damaged, never STORE);
each CMD is a shell command in which the word STORE stands for the damaged
copy.  For each region of the layout (emb-store(5)) in turn, PER times
each: one bit flipped, one byte changed to another value, and the 4096-byte
page that holds a byte of the region zeroed (each at a byte of the region
drawn with SEED).  Every command then runs on the damaged copy and must:

  - exit 0 with the undamaged copy's standard output, byte for byte; or
  - exit 1 with a one-line message on standard error that begins with the
    program's name and names the store, its standard output a prefix of
    the undamaged one (what it printed before it found the damage).

A line a region: how many runs gave the same answer and how many were
refused, and then every run that did neither; exit 1 if there was one.
"""
import os
import random
import struct
import subprocess
import sys

PAGE = 4096


def regions(b):
    """(name, start, end) of every region of store bytes b."""
    le32 = lambda o: struct.unpack_from('<I', b, o)[0]
    le64 = lambda o: struct.unpack_from('<Q', b, o)[0]
    dim, count, stride = le32(12), le64(16), le32(24)
    nb, pool, flags = le32(28), le64(32), le32(56)
    out = [('header', 0, 64)]
    at = 64
    bucket = 0
    if flags & 1:
        bucket = le32(64 + 8)
        out.append(('subword header', 64, 128))
        at = 128
    out.append(('vectors', at, at + count * stride * 4))
    at += count * stride * 4
    if flags & 1:
        out.append(('subword rows', at, at + bucket * stride * 4))
        at += bucket * stride * 4
    if flags & 2:
        dp = le32(at + 4)
        rows = le64(at + 8)
        out.append(('search header', at, at + 64))
        at += 64
        for name, size in (('codes', rows * dp), ('norms', rows * 8),
                           ('scales', rows * 4), ('errors', rows * 4)):
            if size:
                out.append((name, at, at + size))
            at += size
    if flags & 4:
        out.append(('row checksums header', at, at + 64))
        out.append(('row checksums', at + 64, at + 64 + (count + bucket) * 4))
        at += 64 + (count + bucket) * 4
    out.append(('offsets', at, at + (count + 1) * 4))
    at += (count + 1) * 4
    out.append(('words', at, at + pool))
    at += (pool + 3) // 4 * 4
    out.append(('buckets', at, at + nb * 4))
    assert at + nb * 4 == len(b), 'layout does not add up'
    return out


def run(cmd, path):
    r = subprocess.run(cmd.replace('STORE', path), shell=True,
                       stdin=subprocess.DEVNULL, capture_output=True)
    return r.returncode, r.stdout, r.stderr


def main():
    name, store, per, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
        int(sys.argv[4])
    cmds = sys.argv[5:]
    orig = open(store, 'rb').read()
    rng = random.Random(seed)
    work = 'damaged.store'
    good = []
    for c in cmds:
        rc, out, err = run(c, store)
        if rc != 0:
            sys.exit('%s: fails on the undamaged store: %s' % (c, err))
        good.append(out)
    wrong = 0
    for rname, lo, hi in regions(orig):
        same = refused = 0
        for i in range(per * 3):
            b = bytearray(orig)
            at = rng.randrange(lo, hi)
            how = i % 3
            if how == 0:
                b[at] ^= 1 << rng.randrange(8)
                what = 'bit flipped at %d' % at
            elif how == 1:
                b[at] = (b[at] + rng.randrange(1, 256)) & 255
                what = 'byte changed at %d' % at
            else:
                p = at // PAGE * PAGE
                b[p:p + PAGE] = bytes(len(b[p:p + PAGE]))
                what = 'page zeroed at %d' % p
            if b == orig:
                same += len(cmds)
                continue
            with open(work, 'wb') as f:
                f.write(b)
            for c, g in zip(cmds, good):
                rc, out, err = run(c, work)
                prog = c.split()[0].encode()
                lines = err.splitlines()
                if rc == 0 and out == g:
                    same += 1
                elif (rc == 1 and len(lines) >= 1 and
                      lines[-1].startswith(prog + b': ') and
                      work.encode() in lines[-1] and g.startswith(out)):
                    refused += 1
                else:
                    wrong += 1
                    print('WRONG %s: %s, %s: exit %d, %s' % (
                        rname, what, c, rc,
                        (lines[-1] if lines else b'(no message)')[:200]))
        print('%s %s: %d same answer, %d refused' % (name, rname, same,
                                                     refused))
    os.unlink(work)
    sys.exit(1 if wrong else 0)


main()
