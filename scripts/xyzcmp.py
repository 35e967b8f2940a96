#!/usr/bin/env python3
"""xyzcmp.py — compare two extended-XYZ frames written by `tribody eval` (energy and forces).

usage: xyzcmp.py TEST.xyz REFERENCE.xyz
Prints: energy relative error, max force error / max |F_ref|, RMS force error / RMS |F_ref|.
Used by scripts/gpu-check (the device has Python but no ASE)."""
import math
import re
import sys


def read(path):
    with open(path) as f:
        n = int(f.readline())
        comment = f.readline()
        energy = float(re.search(r"energy=(\S+)", comment).group(1))
        props = re.search(r"Properties=(\S+)", comment).group(1).split(":")
        col, cols = 0, {}
        for k in range(0, len(props), 3):
            cols[props[k]] = col
            col += int(props[k + 2])
        fc = cols["forces"]
        forces = []
        for _ in range(n):
            w = f.readline().split()
            forces.append([float(w[fc + d]) for d in range(3)])
    return energy, forces


def main():
    e, f = read(sys.argv[1])
    er, fr = read(sys.argv[2])
    num = max(math.dist(a, b) for a, b in zip(f, fr))
    den = max(math.hypot(*b) for b in fr)
    rms = math.sqrt(sum(math.dist(a, b) ** 2 for a, b in zip(f, fr)) / sum(sum(x * x for x in b) for b in fr))
    print(f"energy_rel {abs(e - er) / abs(er):.3e} force_max_rel {num / den:.3e} force_rms_rel {rms:.3e}")


if __name__ == "__main__":
    main()
