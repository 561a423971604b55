"""pf_model.py - an independent PyTorch implementation of the Privacy Filter
encoder (docs: /work/shared/docs/privacy-filter-spec.md, section 3).

Written from the spec, not from any other implementation.  One module serves
two purposes:
  * the golden reference that produces the parity fixtures (float64, one
    unpadded sequence, weights upcast exactly from their stored dtype);
  * the model family trained by tools/train/ (float32, padded batches,
    autograd), exported in the Hugging Face layout the C runtime loads.

Parameter names equal the HF safetensors tensor names (spec 2.1), so
`state_dict()` is the file's tensor set.

Legend for the shape comments:  B batch, n tokens, D hidden_size,
H query heads, K kv heads, hd head_dim, E experts, k experts per token,
I expert intermediate size, C labels.

Precision choices (state them wherever fixtures are made):
  * `angles="f64"`: RoPE angle p*w_i in double, cos/sin in double
    (the "more exact" option of spec 3.0);
  * `angles="f32"`: stock-HF semantics: w_i rounded to f32, angle =
    f32(f32(p) * w_i) (one f32 multiply), then cos/sin of that f32 angle.
Everything else follows the dtype the module is run in (float64 for fixtures).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

# ---------------------------------------------------------------------------
# configuration


def _rope_params(cfg):
    rp = dict(cfg.get("rope_parameters") or cfg.get("rope_scaling") or {})
    theta = rp.get("rope_theta", cfg.get("rope_theta", 150000.0))
    orig = rp.get("original_max_position_embeddings",
                  cfg.get("initial_context_length", 4096))
    factor = rp.get("factor", rp.get("rope_scaling_factor", 32.0))
    return {
        "type": rp.get("rope_type", rp.get("type", "yarn")),
        "theta": float(theta),
        "factor": float(factor),
        "beta_fast": float(rp.get("beta_fast", 32.0)),
        "beta_slow": float(rp.get("beta_slow", 1.0)),
        "orig": float(orig),
        "truncate": bool(rp.get("truncate", False)),
        "attention_factor": rp.get("attention_factor"),
    }


class PFConfig:
    """The numbers the forward pass needs, read from an HF config.json dict."""

    def __init__(self, cfg):
        self.raw = cfg
        self.vocab_size = int(cfg["vocab_size"])
        self.d = int(cfg["hidden_size"])
        self.n_layers = int(cfg["num_hidden_layers"])
        self.n_heads = int(cfg["num_attention_heads"])
        self.n_kv = int(cfg["num_key_value_heads"])
        self.head_dim = int(cfg.get("head_dim", self.d // self.n_heads))
        self.inter = int(cfg["intermediate_size"])
        self.n_experts = int(cfg["num_local_experts"])
        self.top_k = int(cfg["num_experts_per_tok"])
        self.window = int(cfg.get("sliding_window", 128))  # radius (spec 10.2)
        self.eps = float(cfg.get("rms_norm_eps", 1e-5))
        self.swiglu_limit = float(cfg.get("swiglu_limit", 7.0))
        if "id2label" in cfg:
            self.id2label = {int(k): v for k, v in cfg["id2label"].items()}
            self.n_labels = len(self.id2label)
        else:
            self.n_labels = int(cfg["num_labels"])
            self.id2label = {i: f"LABEL_{i}" for i in range(self.n_labels)}
        self.rope = _rope_params(cfg)
        if self.n_heads % self.n_kv:
            raise ValueError("num_attention_heads must be a multiple of num_key_value_heads")
        if self.head_dim % 2:
            raise ValueError("head_dim must be even for RoPE pairs")


# ---------------------------------------------------------------------------
# RoPE with YaRN (spec 3.2 steps 2-3)


def yarn_inv_freq(cfg):
    """Returns (omega[hd/2] as float64 tensor, mscale as python float)."""
    hd, r = cfg.head_dim, cfg.rope
    half = hd // 2
    base = torch.tensor([r["theta"] ** (-2.0 * i / hd) for i in range(half)], dtype=torch.float64)
    if r["type"] in ("default", None) or r["factor"] == 1.0:
        return base, 1.0

    def corr(beta):
        return hd * math.log(r["orig"] / (beta * 2 * math.pi)) / (2 * math.log(r["theta"]))

    low, high = corr(r["beta_fast"]), corr(r["beta_slow"])
    if r["truncate"]:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0.0), min(high, hd - 1.0)
    if high == low:
        high += 0.001
    i = torch.arange(half, dtype=torch.float64)
    ramp = ((i - low) / (high - low)).clamp(0.0, 1.0)
    omega = (base / r["factor"]) * ramp + base * (1.0 - ramp)
    af = r["attention_factor"]
    mscale = float(af) if af is not None else 0.1 * math.log(r["factor"]) + 1.0
    return omega, mscale


def rope_tables(cfg, n, angles="f64", dtype=torch.float64):
    """cos and sin tables [n, hd/2], already multiplied by mscale."""
    omega, mscale = yarn_inv_freq(cfg)
    if angles == "f64":
        ang = torch.arange(n, dtype=torch.float64)[:, None] * omega[None, :]
    elif angles == "f32":
        ang = (torch.arange(n, dtype=torch.float32)[:, None]
               * omega.to(torch.float32)[None, :]).to(torch.float64)
    else:
        raise ValueError("angles must be 'f32' or 'f64'")
    return (ang.cos() * mscale).to(dtype), (ang.sin() * mscale).to(dtype)


def apply_rope(x, cos, sin):
    """x [..., n, heads, hd] with interleaved (GPT-J) pairs; cos/sin [n, hd/2]."""
    x0, x1 = x[..., 0::2], x[..., 1::2]
    c, s = cos[:, None, :], sin[:, None, :]
    out = torch.empty_like(x)
    out[..., 0::2] = x0 * c - x1 * s
    out[..., 1::2] = x1 * c + x0 * s
    return out


# ---------------------------------------------------------------------------
# modules (names mirror the HF tensor names)


class RMSNorm(nn.Module):
    def __init__(self, d, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):  # [..., D]
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps))


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        H, K, hd, D = cfg.n_heads, cfg.n_kv, cfg.head_dim, cfg.d
        self.q_proj = nn.Linear(D, H * hd, bias=True)
        self.k_proj = nn.Linear(D, K * hd, bias=True)
        self.v_proj = nn.Linear(D, K * hd, bias=True)
        self.o_proj = nn.Linear(H * hd, D, bias=True)
        self.sinks = nn.Parameter(torch.zeros(H))

    def forward(self, a, cos, sin, keymask):
        """a [B, n, D]; keymask [B, n] bool (True = real token) or None."""
        cfg = self.cfg
        B, n, _ = a.shape
        H, K, hd = cfg.n_heads, cfg.n_kv, cfg.head_dim
        q = self.q_proj(a).view(B, n, H, hd)
        k = self.k_proj(a).view(B, n, K, hd)
        v = self.v_proj(a).view(B, n, K, hd)
        qk_scale = hd ** -0.25
        q = apply_rope(q, cos, sin) * qk_scale
        k = apply_rope(k, cos, sin) * qk_scale
        g = H // K
        # expand kv heads: query head h uses kv head h // g
        k = k.repeat_interleave(g, dim=2)  # [B, n, H, hd]
        v = v.repeat_interleave(g, dim=2)
        s = torch.einsum("bihd,bjhd->bhij", q, k)  # [B, H, n, n]
        pos = torch.arange(n)
        allowed = (pos[:, None] - pos[None, :]).abs() <= cfg.window  # [n, n]
        allowed = allowed[None, None]
        if keymask is not None:
            allowed = allowed & keymask[:, None, None, :]
        s = s.masked_fill(~allowed, float("-inf"))
        sink = self.sinks.to(s.dtype).view(1, H, 1, 1).expand(B, H, n, 1)
        p = torch.softmax(torch.cat([s, sink], dim=-1), dim=-1)[..., :n]  # drop the sink
        o = torch.einsum("bhij,bjhd->bihd", p, v).reshape(B, n, H * hd)
        return self.o_proj(o)


class Experts(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        E, D, I = cfg.n_experts, cfg.d, cfg.inter
        self.gate_up_proj = nn.Parameter(torch.zeros(E, D, 2 * I))  # [E, in, 2I]
        self.gate_up_proj_bias = nn.Parameter(torch.zeros(E, 2 * I))
        self.down_proj = nn.Parameter(torch.zeros(E, I, D))  # [E, I in, D out]
        self.down_proj_bias = nn.Parameter(torch.zeros(E, D))


class MoE(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.router = nn.Linear(cfg.d, cfg.n_experts, bias=True)
        self.experts = Experts(cfg)

    def forward(self, m):
        """m [T, D] (real tokens only).  Returns (out [T, D], top-k ids [T, k],
        router logits [T, E])."""
        cfg, ex = self.cfg, self.experts
        I, lim = cfg.inter, cfg.swiglu_limit
        T, k = m.shape[0], cfg.top_k
        r = self.router(m)  # [T, E]
        topv, topi = torch.topk(r, k, dim=-1)  # descending
        w = torch.softmax(topv, dim=-1)  # [T, k] softmax over the k selected only
        # group the T*k (token, slot) pairs by expert; never touch unselected experts
        flat = topi.reshape(-1)  # [T*k]
        order = torch.argsort(flat, stable=True)
        counts = torch.bincount(flat, minlength=cfg.n_experts).tolist()
        G, bG = ex.gate_up_proj.unbind(0), ex.gate_up_proj_bias.unbind(0)
        Dn, bD = ex.down_proj.unbind(0), ex.down_proj_bias.unbind(0)
        ys, pos = [], 0
        for e, c in enumerate(counts):
            if c == 0:
                continue
            tok = order[pos:pos + c] // k
            pos += c
            h = m[tok] @ G[e] + bG[e]  # [t, 2I]: gate = [0, I), up = [I, 2I)
            gate = h[:, :I].clamp(max=lim)
            up = h[:, I:].clamp(-lim, lim)
            act = gate * torch.sigmoid(1.702 * gate) * (up + 1.0)
            ys.append(act @ Dn[e] + bD[e])  # [t, D]
        yc = torch.cat(ys)  # [T*k, D] in expert order
        y = yc.new_empty((T * k, m.shape[1])).index_copy(0, order, yc)  # slot order
        out = (y.view(T, k, -1) * w[:, :, None]).sum(1)  # [T, D]
        return out, topi, r


class Layer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.input_layernorm = RMSNorm(cfg.d, cfg.eps)
        self.self_attn = Attention(cfg)
        self.post_attention_layernorm = RMSNorm(cfg.d, cfg.eps)
        self.mlp = MoE(cfg)


class Body(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.d)
        self.layers = nn.ModuleList([Layer(cfg) for _ in range(cfg.n_layers)])
        self.norm = RMSNorm(cfg.d, cfg.eps)


class PrivacyFilter(nn.Module):
    """state_dict() keys are exactly the HF tensor names of spec 2.1."""

    def __init__(self, cfg, angles="f64"):
        super().__init__()
        self.cfg = cfg
        self.angles = angles
        self.model = Body(cfg)
        self.score = nn.Linear(cfg.d, cfg.n_labels, bias=True)

    def forward(self, ids, keymask=None, row_map=None, want_router=False):
        """ids [B, n] long; keymask [B, n] bool (True = real token, right padding).
        Returns logits [B, n, C] and a list per layer of (top-k ids [T, k],
        router logits [T, E]) over the real tokens in row-major order."""
        cfg = self.cfg
        B, n = ids.shape
        dt = self.score.weight.dtype
        rows = row_map[ids] if row_map is not None else ids
        x = self.model.embed_tokens(rows).to(dt)  # [B, n, D]
        cos, sin = rope_tables(cfg, n, self.angles, dt)
        flat = keymask.reshape(-1) if keymask is not None else None
        routing = []
        for layer in self.model.layers:
            x = x + layer.self_attn(layer.input_layernorm(x), cos, sin, keymask)
            m = layer.post_attention_layernorm(x).reshape(B * n, -1)
            if flat is not None:
                sel = flat.nonzero(as_tuple=True)[0]
                y, topi, r = layer.mlp(m[sel])
                moe = torch.zeros_like(m).index_copy(0, sel, y)
            else:
                moe, topi, r = layer.mlp(m)
            x = x + moe.view(B, n, -1)
            routing.append((topi, r) if want_router else topi)
        x = self.model.norm(x)
        return self.score(x), routing


def config_from_dict(cfg):
    return PFConfig(cfg)


def load_model(model_dir, dtype=torch.float64, angles="f64"):
    """Builds the reference from an HF model directory.  Every tensor is upcast
    exactly from its stored dtype.  Returns (model, row_map or None, dtypes)."""
    import json
    import os

    from st_io import load_dir

    with open(os.path.join(model_dir, "config.json")) as f:
        cfg = PFConfig(json.load(f))
    tensors, dts = load_dir(model_dir)
    row_map = tensors.pop("model.embed_tokens.row_map", None)
    model = PrivacyFilter(cfg, angles)
    emb = tensors["model.embed_tokens.weight"]
    if row_map is not None:
        model.model.embed_tokens = nn.Embedding(emb.shape[0], cfg.d)
        row_map = row_map.to(torch.long)
        if row_map.shape != (cfg.vocab_size,):
            raise ValueError("row_map must have vocab_size entries")
    sd = model.state_dict()
    missing = set(sd) - set(tensors)
    extra = set(tensors) - set(sd)
    if missing or extra:
        raise ValueError(f"tensor set mismatch: missing {sorted(missing)[:4]}, "
                         f"unexpected {sorted(extra)[:4]}")
    for name, t in tensors.items():
        if tuple(t.shape) != tuple(sd[name].shape):
            raise ValueError(f"{name}: shape {tuple(t.shape)}, expected {tuple(sd[name].shape)}")
    model.load_state_dict({k: v.to(dtype) for k, v in tensors.items()})
    model.to(dtype)
    model.eval()
    return model, row_map, dts
