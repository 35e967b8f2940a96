#!/usr/bin/env python3
"""nbr-slot-sim.py — how many of the neighbour-list kernel's slots hold a triplet, and how busy the
lanes of a compacted evaluation would be (issue 23; docs/gpu-measured.md, "Measured: compaction of
the useful slots"). A host-side model, no GPU: anchors' rows drawn as uniform points in the half ball
d_x >= 0 of radius r_c at density rho (random index order), walked by VAR 7's items (J, Q) and steps
(solver/gpu/gpu_nbr.cu: lane l holds j1 = 64 J + l and j2 = j1 + 32 against k = 32 Q + ((l + s) mod 32);
the diagonal tiles Q = 2J in 16 steps). Prints the fill (useful / launched slots; bench --liquid
measures 47.1 % for the liquid) and the share of busy lanes of two compactions: a warp queue taken 32 at
a time, and a per-lane k list (each lane its own passing slots, the warp waiting for the longest).

With --bounds (docs/gpu-measured.md, "what bounds the two kernels now"): the share of an anchor's
entry pairs within r_c of each other (the ceiling of any walk of the pairs), then for each order of
the entries (index, x, azimuth, latitude bands, Morton): the 32 x 32 tile pairs whose bounding boxes
lie beyond r_c (they could be skipped), VAR 7's fill, the warp steps with no lane's slot useful, and
the fill of walking each tile of j against only the k within r_c of its box (full j x k matrix, 8 /
16 / 32 j; and the triangle's form, k after the tile in chunks of 32, 32 / 64 j).

With --ring: the fill of the ring walk (VAR 18, the default since 2026-11-29: the pairs by their
difference k - j mod ma, solver/physics/nbr_ring.h), J = 2, 3, 4 entries per lane, its slots counted
as nbr_ring_slots counts them (bench --liquid measures 59.1-59.5 % for J = 2), beside VAR 7's.

usage: nbr-slot-sim.py [--rc 4.5] [--rho 0.8] [--rows 40] [--seed 1] [--bounds | --ring]
"""
import argparse

import numpy as np

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--rc", type=float, default=4.5)
ap.add_argument("--rho", type=float, default=0.8)
ap.add_argument("--rows", type=int, default=40)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--bounds", action="store_true")
ap.add_argument("--ring", action="store_true")
o = ap.parse_args()
rng = np.random.default_rng(o.seed)


def half_ball(rng):
    n = int(rng.poisson(o.rho * (2.0 / 3.0) * np.pi * o.rc ** 3))
    p = rng.uniform(-o.rc, o.rc, (4 * n + 64, 3))
    return p[(p[:, 0] >= 0) & ((p * p).sum(1) <= o.rc * o.rc)][:n]


def order_key(name, p):
    if name == "x":
        return p[:, 0]
    if name == "azimuth":
        return np.arctan2(p[:, 2], p[:, 1])
    if name == "bands":  # 4 bands of the angle to +x, serpentine in azimuth
        r = np.maximum(np.linalg.norm(p, axis=1), 1e-12)
        band = np.floor(np.arccos(np.clip(p[:, 0] / r, -1, 1)) / (np.pi / 2) * 4)
        ph = np.arctan2(p[:, 2], p[:, 1])
        return band * 100 + np.where(band % 2 == 0, ph, -ph)
    if name == "morton":
        q = np.floor((p + o.rc) / (2 * o.rc) * 1023.999).astype(np.int64)
        k = np.zeros(len(p), np.int64)
        for b in range(10):
            for d in range(3):
                k |= ((q[:, d] >> b) & 1) << (3 * b + d)
        return k
    return np.arange(len(p))


def box_gap(a, pts):  # distance from each point to the box of a
    lo = np.maximum(np.maximum(a.min(0)[None] - pts, pts - a.max(0)[None]), 0)
    return np.sqrt((lo * lo).sum(1))


def ring_slots(ma, J):  # nbr_ring.h's nbr_ring_slots: the last chunk's steps split by shifts
    if ma < 3:
        return int(ma == 2)
    D = (ma // 2 + J - 1) // J
    if J > 2 and J * D >= ma:
        J, D = 2, (ma // 2 + 1) // 2
    n = 0
    for c in range((ma + 31) // 32):
        r, lg = min(32, ma - 32 * c), 0
        while r <= 16:
            l2 = lg + 1
            g2, L2 = 1 << l2, (D + (1 << l2) - 1) >> l2
            if l2 > 5 or (r << l2) > 32 or g2 > D or L2 < r or (J - 1) * D + (L2 << l2) >= ma:
                break
            lg = l2
        n += (D + (1 << lg) - 1) >> lg
    return 32 * J * n


def tiles_slots(ma):  # VAR 7's items: 2048 slots per two-j item, 512 per diagonal tile
    mb = (ma + 31) // 32
    return sum(2048 if 2 * J + 1 <= Q else 512 for Q in range(mb) for J in range(Q // 2 + 1))


if o.ring:
    hits, walked = 0, {"tiles": 0, 2: 0, 3: 0, 4: 0}
    for _ in range(o.rows):
        p = half_ball(rng)
        ma = len(p)
        near = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=2) <= o.rc
        hits += int(np.triu(near, 1).sum())
        walked["tiles"] += tiles_slots(ma)
        for J in (2, 3, 4):
            walked[J] += ring_slots(ma, J)
    print("fill: VAR 7's tiles %.1f %%; the ring %s" % (100 * hits / walked["tiles"], ", ".join(
        "J = %d %.1f %%" % (J, 100 * hits / walked[J]) for J in (2, 3, 4))))
    raise SystemExit(0)
if o.bounds:
    pairs = within = 0
    for name in ["index", "x", "azimuth", "bands", "morton"]:
        r2 = np.random.default_rng(o.seed)
        st = dict(tp=0, tpc=0, slots=0, hits=0, steps=0, empty=0, full={8: [0, 0], 16: [0, 0], 32: [0, 0]},
                  tri={32: 0, 64: 0}, pu=0)
        for _ in range(o.rows):
            p = half_ball(r2)
            p = p[np.argsort(order_key(name, p), kind="stable")]
            ma = len(p)
            near = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=2) <= o.rc
            iu = np.triu_indices(ma, 1)
            st["pu"] += near[iu].sum()
            if name == "index":
                pairs += len(iu[0])
                within += near[iu].sum()
            T = (ma + 31) // 32
            for P in range(T):
                for Q in range(P, T):
                    st["tp"] += 1
                    g = box_gap(p[32 * P:32 * P + 32], p[32 * Q:32 * Q + 32])
                    st["tpc"] += int(g.min() > o.rc)
            lane = np.arange(32)

            def ok(j, k):
                return (j < ma) & (k < ma) & near[np.minimum(j, ma - 1), np.minimum(k, ma - 1)]

            for Q in range(T):
                for J in range(Q // 2 + 1):
                    for s in (range(32) if 2 * J + 1 <= Q else range(1, 17)):
                        k = 32 * Q + ((lane + s) & 31)
                        j1 = 64 * J + lane
                        if 2 * J + 1 <= Q:
                            u1, u2 = ok(j1, k), ok(j1 + 32, k) & (j1 + 32 < k)
                            st["slots"] += 64
                        else:
                            u1, u2 = ok(j1, k) & ((s < 16) | (lane < 16)), np.zeros(32, bool)
                            st["slots"] += 32
                        st["hits"] += u1.sum() + u2.sum()
                        st["steps"] += 1
                        st["empty"] += not (u1.any() or u2.any())
            for tj in st["full"]:
                for j0 in range(0, ma, tj):
                    st["full"][tj][0] += tj * int((box_gap(p[j0:j0 + tj], p) <= o.rc).sum())
                st["full"][tj][1] += near.sum() - ma
            for tj in st["tri"]:
                for j0 in range(0, ma, tj):
                    c = int((box_gap(p[j0:j0 + tj], p[j0:]) <= o.rc).sum())
                    st["tri"][tj] += tj * 32 * ((c + 31) // 32)
        if name == "index":
            print("pairs (j, k), j < k, within r_c of each other: %.1f %%" % (100 * within / pairs))
        print("%-8s tile pairs beyond r_c %d of %d; VAR 7 fill %.1f %%; empty warp steps %.1f %%; "
              "per-j-tile k lists: matrix %s; triangle %s" %
              (name, st["tpc"], st["tp"], 100 * st["hits"] / st["slots"], 100 * st["empty"] / st["steps"],
               ", ".join("%d j %.1f %%" % (t, 100 * v[1] / v[0]) for t, v in st["full"].items()),
               ", ".join("%d j %.1f %%" % (t, 100 * st["pu"] / v) for t, v in st["tri"].items())))
    raise SystemExit(0)
slots = hits = lane_rounds = queue_rounds = 0
for _ in range(o.rows):
    p = half_ball(rng)
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
