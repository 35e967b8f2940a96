#!/usr/bin/env python3
"""nbr-slot-sim.py — how many of the neighbour-list kernel's slots hold a triplet, and how busy the
lanes of a compacted evaluation would be (issue 23; docs/gpu-measured.md, "Measured: compaction of
the useful slots"). A host-side model, no GPU: anchors' rows drawn as uniform points in the half ball
d_x >= 0 of radius r_c at density rho (random index order), walked by VAR 7's items (J, Q) and steps
(solver/gpu/gpu_nbr.cu: lane l holds j1 = 64 J + l and j2 = j1 + 32 against k = 32 Q + ((l + s) mod 32);
the diagonal tiles Q = 2J in 16 steps). Prints the fill (useful / launched slots; bench --liquid
measures 47.1 % for the liquid) and the share of busy lanes of two compactions: a warp queue taken 32 at
a time, and a per-lane k list (each lane its own passing slots, the warp waiting for the longest).

usage: nbr-slot-sim.py [--rc 4.5] [--rho 0.8] [--rows 40] [--seed 1]
"""
import argparse

import numpy as np

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--rc", type=float, default=4.5)
ap.add_argument("--rho", type=float, default=0.8)
ap.add_argument("--rows", type=int, default=40)
ap.add_argument("--seed", type=int, default=1)
o = ap.parse_args()
rng = np.random.default_rng(o.seed)
slots = hits = lane_rounds = queue_rounds = 0
for _ in range(o.rows):
    n = int(rng.poisson(o.rho * (2.0 / 3.0) * np.pi * o.rc ** 3))
    p = rng.uniform(-o.rc, o.rc, (4 * n + 64, 3))
    p = p[(p[:, 0] >= 0) & ((p * p).sum(1) <= o.rc * o.rc)][:n]
    ma = len(p)
    mb = (ma + 31) // 32
    near = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=2) <= o.rc

    def ok(j, k):
        return int(j < ma and k < ma and near[j, k])

    for Q in range(mb):
        for J in range(Q // 2 + 1):
            m = np.zeros(32, int)
            if 2 * J + 1 <= Q:
                for lane in range(32):
                    for s in range(32):
                        k = 32 * Q + ((lane + s) & 31)
                        j2 = 64 * J + 32 + lane
                        m[lane] += ok(64 * J + lane, k) + ok(j2, k) * (j2 < k)
                slots += 2048
            else:
                for lane in range(32):
                    for s in range(1, 17):
                        if s < 16 or lane < 16:
                            m[lane] += ok(64 * J + lane, 32 * Q + ((lane + s) & 31))
                slots += 512
            hits += m.sum()
            lane_rounds += 32 * m.max()
            queue_rounds += 32 * -(-m.sum() // 32)
print("fill %.1f %%  lanes busy: queue %.1f %%, per-lane k list %.1f %%" %
      (100 * hits / slots, 100 * hits / queue_rounds, 100 * hits / lane_rounds))
