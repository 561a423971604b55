#!/usr/bin/python3
"""int4_schemes.py — weight reconstruction error of the two int4 schemes of
issue 8 on groups of 32: scale + offset (f16 d, m; min/max start refined by
least squares, as runtime/quant.c) and a 16-entry lookup table per group
(k-means, f16 entries).  Data: the random model's distribution (integers
uniform in [-127, 127]) and a Gaussian (trained-weight-like).  Prints the
relative RMS error and the bytes per weight."""
import numpy as np

rng = np.random.default_rng(1)
G = 32


def f16(x):
    return np.asarray(x, dtype=np.float32).astype(np.float16).astype(np.float32)


def scale_offset(v):
    lo, hi = v.min(), v.max()
    d, m = (hi - lo) / 15, lo
    best = None
    for _ in range(6):
        d16, m16 = f16(d), f16(m)
        q = np.clip(np.rint((v - m16) / d16), 0, 15) if d16 > 0 else np.zeros_like(v)
        r = d16 * q + m16
        err = ((r - v) ** 2).sum()
        if best is None or err < best[0]:
            best = (err, r)
        A = np.stack([q, np.ones_like(q)], 1)
        sol, *_ = np.linalg.lstsq(A, v, rcond=None)
        if not sol[0] > 0:
            break
        d, m = sol
    return best[1]


def lut(v, iters=20):
    c = np.quantile(v, np.linspace(0, 1, 16))
    for _ in range(iters):
        a = np.abs(v[:, None] - c[None, :]).argmin(1)
        for k in range(16):
            if (a == k).any():
                c[k] = v[a == k].mean()
    c = f16(c)
    return c[np.abs(v[:, None] - c[None, :]).argmin(1)]


for name, data in [("uniform integers (random model)", rng.integers(-127, 128, (4000, G)).astype(np.float32)),
                   ("gaussian", rng.standard_normal((4000, G)).astype(np.float32))]:
    for sname, fn, bpw in [("scale+offset (f16 d, m)", scale_offset, 20 / 32),
                           ("LUT 16 x f16 per group", lut, 48 / 32)]:
        err = np.sqrt(np.mean([((fn(g) - g) ** 2).mean() for g in data]) / np.mean(data ** 2))
        print(f"{name:34s} {sname:26s} rel RMS error {err:.4f}  {bpw:.3f} bytes/weight")
