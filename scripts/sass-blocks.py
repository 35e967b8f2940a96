#!/usr/bin/env python3
"""sass-blocks.py — where a kernel's executed instructions go, from Nsight Compute's per-SASS
table (`ncu -i REP --page source --csv --print-source sass`, written by scripts/gpu-profile).

Runs of consecutive SASS instructions that executed the same number of times are one basic
block (or several blocks that always run together); the blocks are listed by the warp
instructions they executed, largest first, with their share of the kernel, their length and
their opcode mix. With --triplets N each line also says how many instructions per triplet
(thread instructions: warp instructions x 32 / N) the block costs.

usage: sass-blocks.py md_sass.csv [--triplets N] [--top K]
"""
import argparse
import collections
import csv
import sys


def load(path):
    rows = list(csv.reader(open(path, newline="", errors="replace")))
    for h, row in enumerate(rows):
        if "Address" in row and "Source" in row:
            break
    else:
        sys.exit("sass-blocks: no header with Address and Source in %s" % path)
    head = rows[h]
    exe = [i for i, c in enumerate(head) if c.strip() == "Instructions Executed"]
    if not exe:
        exe = [i for i, c in enumerate(head)
               if "Instructions Executed" in c and "Thread" not in c and "Predicated" not in c]
    if not exe:
        sys.exit("sass-blocks: no 'Instructions Executed' column in %s (columns: %s)" % (path, head))
    ia, isrc, ie = head.index("Address"), head.index("Source"), exe[0]
    out = []
    for row in rows[h + 1:]:
        if len(row) <= max(ia, isrc, ie):
            continue
        try:
            n = int(float(row[ie].replace(",", "") or 0))
        except ValueError:
            continue
        src = row[isrc].strip()
        op = src.split()[0] if src else "?"
        if op.startswith("@") and len(src.split()) > 1:
            op = src.split()[1]
        out.append((row[ia], op.rstrip(";"), n))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--triplets", type=float, default=0)
    ap.add_argument("--top", type=int, default=12)
    a = ap.parse_args()
    ins = load(a.csv)
    total = sum(n for _, _, n in ins)
    if total == 0:
        sys.exit("sass-blocks: nothing executed")
    blocks = []
    for addr, op, n in ins:
        if blocks and blocks[-1]["n"] == n:
            blocks[-1]["ops"].append(op)
        else:
            blocks.append({"start": addr, "n": n, "ops": [op]})
    blocks = [b for b in blocks if b["n"] > 0]
    blocks.sort(key=lambda b: -b["n"] * len(b["ops"]))
    per = (32.0 / a.triplets) if a.triplets > 0 else 0
    print("  %d SASS instructions, %.4g warp instructions executed%s" %
          (len(ins), total, ", %.2f per triplet" % (total * per) if per else ""))
    for b in blocks[:a.top]:
        w = b["n"] * len(b["ops"])
        mix = collections.Counter(b["ops"]).most_common(6)
        print("  @%s %4d instr x %.4g: %5.1f %%%s  %s" % (
            b["start"], len(b["ops"]), b["n"], 100.0 * w / total,
            " %5.2f/triplet" % (w * per) if per else "",
            " ".join("%s %d" % (o, c) for o, c in mix)))


if __name__ == "__main__":
    main()
