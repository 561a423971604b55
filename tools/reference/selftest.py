#!/usr/bin/python3
"""selftest.py - checks the reference against itself and the spec.

  1. YaRN frequencies and mscale equal the spec's reference values (3.2).
  2. A second, deliberately naive implementation (numpy, explicit loops over
     tokens, heads, keys and selected experts, written line by line from the
     spec text) agrees with pf_model.py in float64 to ~1e-12.
  3. The safetensors reader round-trips F32/BF16/F16 and sharded models, and
     a BF16/F16 file gives the logits of its rounded weights.
  4. The compact-embedding row_map gives the same logits as the full table.
Run: /usr/bin/python3 tools/reference/selftest.py
"""

import math
import os
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import randmodel  # noqa: E402
import st_io  # noqa: E402
from pf_model import PFConfig, load_model, yarn_inv_freq  # noqa: E402


def check_yarn():
    cfg = PFConfig(randmodel.make_config(1, 640, 14, 2, 64, 640, 8, 4, 1000))
    om, ms = yarn_inv_freq(cfg)
    want = {0: 1.0, 1: 0.6890443059, 8: 0.05081327482, 9: 0.03170569618, 12: 0.006794959490,
            17: 1.293187012e-4, 18: 3.830881237e-5, 31: 3.023511428e-7}
    for i, v in want.items():
        assert abs(om[i].item() - v) <= 1e-9 * max(1.0, abs(v)) + 1e-18 and \
            abs(om[i].item() / v - 1) < 1e-8, (i, om[i].item(), v)
    assert abs(ms - 1.3465735902799727) < 1e-15
    print("yarn: ok")


def naive_forward(model_dir, ids, angles="f64"):
    """Straight transcription of spec 3.1-3.3 with python loops (float64)."""
    import json
    cfg = json.load(open(os.path.join(model_dir, "config.json")))
    T, _ = st_io.load_dir(model_dir)
    W = {k: v.to(torch.float64).numpy() for k, v in T.items()}
    c = PFConfig(cfg)
    D, H, K, hd, I, E, k = c.d, c.n_heads, c.n_kv, c.head_dim, c.inter, c.n_experts, c.top_k
    n = len(ids)
    omega, mscale = yarn_inv_freq(c)
    omega = omega.numpy()

    def rms(v, g):
        return g * (v / math.sqrt(np.mean(v * v) + c.eps))

    if "model.embed_tokens.row_map" in T:
        rm = T["model.embed_tokens.row_map"].numpy()
        x = np.stack([W["model.embed_tokens.weight"][rm[t]] for t in ids])
    else:
        x = np.stack([W["model.embed_tokens.weight"][t] for t in ids])
    experts_all = []
    for L in range(c.n_layers):
        p = f"model.layers.{L}."
        a = np.stack([rms(x[i], W[p + "input_layernorm.weight"]) for i in range(n)])
        q = a @ W[p + "self_attn.q_proj.weight"].T + W[p + "self_attn.q_proj.bias"]
        kk = a @ W[p + "self_attn.k_proj.weight"].T + W[p + "self_attn.k_proj.bias"]
        v = a @ W[p + "self_attn.v_proj.weight"].T + W[p + "self_attn.v_proj.bias"]

        def rot(vec, pos):
            out = vec.copy()
            for i in range(hd // 2):
                if angles == "f64":
                    ang = pos * omega[i]
                else:
                    ang = float(np.float32(pos) * np.float32(omega[i]))
                cs, sn = math.cos(ang) * mscale, math.sin(ang) * mscale
                x0, x1 = vec[2 * i], vec[2 * i + 1]
                out[2 * i] = x0 * cs - x1 * sn
                out[2 * i + 1] = x1 * cs + x0 * sn
            return out

        scale = hd ** -0.25
        qr = np.zeros((n, H, hd))
        kr = np.zeros((n, K, hd))
        for i in range(n):
            for h in range(H):
                qr[i, h] = rot(q[i, h * hd:(h + 1) * hd], i) * scale
            for h in range(K):
                kr[i, h] = rot(kk[i, h * hd:(h + 1) * hd], i) * scale
        o = np.zeros((n, H * hd))
        sinks = W[p + "self_attn.sinks"]
        for i in range(n):
            for h in range(H):
                kv = h // (H // K)
                js = [j for j in range(n) if abs(i - j) <= c.window]
                s = [float(qr[i, h] @ kr[j, kv]) for j in js]
                M = max(max(s), sinks[h])
                den = sum(math.exp(sj - M) for sj in s) + math.exp(sinks[h] - M)
                acc = np.zeros(hd)
                for sj, j in zip(s, js):
                    acc += math.exp(sj - M) / den * v[j, kv * hd:(kv + 1) * hd]
                o[i, h * hd:(h + 1) * hd] = acc
        x = x + o @ W[p + "self_attn.o_proj.weight"].T + W[p + "self_attn.o_proj.bias"]
        layer_experts = []
        G, bg = W[p + "mlp.experts.gate_up_proj"], W[p + "mlp.experts.gate_up_proj_bias"]
        Dn, bd = W[p + "mlp.experts.down_proj"], W[p + "mlp.experts.down_proj_bias"]
        for i in range(n):
            m = rms(x[i], W[p + "post_attention_layernorm.weight"])
            r = W[p + "mlp.router.weight"] @ m + W[p + "mlp.router.bias"]
            sel = sorted(range(E), key=lambda e: -r[e])[:k]
            mx = max(r[e] for e in sel)
            den = sum(math.exp(r[e] - mx) for e in sel)
            y = np.zeros(D)
            for e in sorted(sel):
                h_ = m @ G[e] + bg[e]
                gate = np.minimum(h_[:I], 7.0)
                up = np.clip(h_[I:], -7.0, 7.0)
                act = gate * (1.0 / (1.0 + np.exp(-1.702 * gate))) * (up + 1.0)
                y += math.exp(r[e] - mx) / den * (act @ Dn[e] + bd[e])
            x[i] = x[i] + y
            layer_experts.append(sorted(sel))
        experts_all.append(layer_experts)
    logits = np.stack([W["score.weight"] @ rms(x[i], W["model.norm.weight"]) + W["score.bias"]
                       for i in range(n)])
    return logits, np.array(experts_all)


def ref_forward(model_dir, ids, angles="f64"):
    from pf_ref import run
    lg, ex, mg = run(model_dir, ids, "f64", angles)
    return lg, ex


def check_naive(tmp):
    # 300 tokens with window 128 exercises the band edges; small widths keep the loops quick.
    cfg = randmodel.make_config(2, 32, 4, 2, 16, 24, 6, 3, 500)
    d = os.path.join(tmp, "naive")
    randmodel.write_model(d, cfg, randmodel.random_tensors(cfg, 7), "F32")
    ids = torch.randint(0, 500, (300,), generator=torch.Generator().manual_seed(3)).tolist()
    for angles in ("f64", "f32"):
        a, ea = naive_forward(d, ids, angles)
        b, eb = ref_forward(d, ids, angles)
        diff = np.abs(a - b).max()
        assert diff < 1e-10, diff
        assert (ea == eb).all()
        print(f"naive vs reference ({angles} angles): max abs diff {diff:.3g}, experts equal")


def check_dtypes(tmp):
    cfg = randmodel.make_config(2, 64, 4, 2, 16, 64, 8, 4, 1000)
    tens = randmodel.random_tensors(cfg, 11)
    ids = list(range(0, 1000, 7))
    for dt in ("F32", "BF16", "F16"):
        d1 = os.path.join(tmp, "m" + dt)
        randmodel.write_model(d1, cfg, tens, dt)
        # same values written as F32 after rounding -> identical logits
        rounded = {n: (t if n.endswith(".sinks") else st_io.round_to(t, dt)) for n, t in tens.items()}
        d2 = os.path.join(tmp, "r" + dt)
        randmodel.write_model(d2, cfg, rounded, "F32", shards=3)
        la, _ = ref_forward(d1, ids)
        lb, _ = ref_forward(d2, ids)
        assert np.array_equal(la, lb), dt
        back, dts, _ = st_io.load_file(os.path.join(d1, "model.safetensors"))
        for n, t in back.items():
            assert torch.equal(t, rounded[n].to(t.dtype)), n
    print("dtypes F32/BF16/F16 and sharded index: ok")


def check_row_map(tmp):
    cfg = randmodel.make_config(1, 32, 2, 1, 16, 32, 4, 2, 600)
    tens = randmodel.random_tensors(cfg, 5)
    full = os.path.join(tmp, "full")
    randmodel.write_model(full, cfg, tens)
    used = torch.tensor([3, 10, 50, 599])
    emb = tens["model.embed_tokens.weight"]
    rm = torch.zeros(600, dtype=torch.int32)  # everything else -> row 0 (shared)
    compact = torch.cat([emb[0:1], emb[used]])
    rm[used] = torch.arange(1, 5, dtype=torch.int32)
    t2 = dict(tens)
    t2["model.embed_tokens.weight"] = compact
    t2["model.embed_tokens.row_map"] = rm
    cdir = os.path.join(tmp, "compact")
    randmodel.write_model(cdir, cfg, t2)
    ids = [3, 10, 50, 599, 0]
    la, _ = ref_forward(full, ids)
    lb, _ = ref_forward(cdir, ids)
    assert np.array_equal(la, lb)
    print("row_map: ok")


if __name__ == "__main__":
    torch.set_num_threads(2)
    check_yarn()
    with tempfile.TemporaryDirectory() as tmp:
        check_naive(tmp)
        check_dtypes(tmp)
        check_row_map(tmp)
    print("selftest: all ok")
