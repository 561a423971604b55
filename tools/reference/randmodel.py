#!/usr/bin/python3
"""randmodel.py - writes a random-weight Privacy Filter model in the HF layout
(config.json + model.safetensors, optionally sharded), for testing the
reference before/independently of the C `pii-redact mkmodel`.

Usage: randmodel.py -o DIR [--layers 2 --d-model 64 --heads 4 --kv-heads 2
        --head-dim 16 --inter 64 --experts 8 --top-k 4 --vocab 1000
        --labels 33 --seed 1 --dtype F32|BF16|F16 --shards N]

Weights are scaled so activations stay O(1) and routing is not degenerate.
The PRNG is torch's; the C mkmodel uses its own, so the two never need to
agree: the reference reads whatever file it is given.
"""

import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from st_io import save_file  # noqa: E402

CATEGORIES = ["account_number", "private_address", "private_date", "private_email",
              "private_person", "private_phone", "private_url", "secret"]


def id2label_v2():
    out = {0: "O"}
    for c, name in enumerate(CATEGORIES):
        for t, tag in enumerate("BIES"):
            out[1 + 4 * c + t] = f"{tag}-{name}"
    return out


def make_config(layers, d, heads, kv, hd, inter, experts, top_k, vocab, labels=33):
    id2label = id2label_v2() if labels == 33 else {i: f"L{i}" for i in range(labels)}
    return {
        "architectures": ["OpenAIPrivacyFilterForTokenClassification"],
        "model_type": "openai_privacy_filter",
        "vocab_size": vocab,
        "hidden_size": d,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": kv,
        "head_dim": hd,
        "intermediate_size": inter,
        "num_local_experts": experts,
        "num_experts_per_tok": top_k,
        "sliding_window": 128,
        "attention_bias": True,
        "rope_parameters": {"rope_type": "yarn", "rope_theta": 150000.0, "factor": 32.0,
                            "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False,
                            "original_max_position_embeddings": 4096},
        "max_position_embeddings": 131072,
        "rms_norm_eps": 1e-5,
        "num_labels": labels,
        "id2label": {str(k): v for k, v in id2label.items()},
        "label2id": {v: k for k, v in id2label.items()},
        "tie_word_embeddings": False,
        "pad_token_id": 199999 if vocab > 199999 else 0,
        "eos_token_id": 199999 if vocab > 199999 else 0,
    }


def random_tensors(cfg, seed):
    g = torch.Generator().manual_seed(seed)
    D, H, K, hd = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_key_value_heads"], cfg["head_dim"]
    I, E, V, C = cfg["intermediate_size"], cfg["num_local_experts"], cfg["vocab_size"], cfg["num_labels"]

    def rn(*shape, std=1.0):
        return torch.randn(*shape, generator=g) * std

    def ru(*shape, lo, hi):
        return lo + (hi - lo) * torch.rand(*shape, generator=g)

    t = {"model.embed_tokens.weight": rn(V, D), "model.norm.weight": ru(D, lo=0.8, hi=1.2),
         "score.weight": rn(C, D, std=D ** -0.5), "score.bias": rn(C, std=0.1)}
    for L in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{L}."
        t[p + "input_layernorm.weight"] = ru(D, lo=0.8, hi=1.2)
        t[p + "post_attention_layernorm.weight"] = ru(D, lo=0.8, hi=1.2)
        t[p + "self_attn.q_proj.weight"] = rn(H * hd, D, std=D ** -0.5)
        t[p + "self_attn.q_proj.bias"] = rn(H * hd, std=0.1)
        t[p + "self_attn.k_proj.weight"] = rn(K * hd, D, std=D ** -0.5)
        t[p + "self_attn.k_proj.bias"] = rn(K * hd, std=0.1)
        t[p + "self_attn.v_proj.weight"] = rn(K * hd, D, std=D ** -0.5)
        t[p + "self_attn.v_proj.bias"] = rn(K * hd, std=0.1)
        t[p + "self_attn.o_proj.weight"] = rn(D, H * hd, std=(H * hd) ** -0.5)
        t[p + "self_attn.o_proj.bias"] = rn(D, std=0.1)
        t[p + "self_attn.sinks"] = rn(H, std=1.0)
        t[p + "mlp.router.weight"] = rn(E, D, std=D ** -0.5)
        t[p + "mlp.router.bias"] = rn(E, std=0.1)
        t[p + "mlp.experts.gate_up_proj"] = rn(E, D, 2 * I, std=D ** -0.5)
        t[p + "mlp.experts.gate_up_proj_bias"] = rn(E, 2 * I, std=0.1)
        t[p + "mlp.experts.down_proj"] = rn(E, I, D, std=I ** -0.5)
        t[p + "mlp.experts.down_proj_bias"] = rn(E, D, std=0.1)
    return t


def write_model(out, cfg, tensors, dtype="F32", shards=1):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    dts = {n: ("F32" if n.endswith(".sinks") else dtype)
           for n, t in tensors.items() if t.is_floating_point()}
    names = sorted(tensors)
    if shards <= 1:
        save_file(tensors, os.path.join(out, "model.safetensors"), dts, {"format": "pt"})
        return
    wmap = {}
    for s in range(shards):
        part = names[s::shards]
        fn = f"model-{s + 1:05d}-of-{shards:05d}.safetensors"
        save_file({n: tensors[n] for n in part}, os.path.join(out, fn), dts, {"format": "pt"})
        wmap.update({n: fn for n in part})
    with open(os.path.join(out, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {}, "weight_map": wmap}, f, indent=2)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--d-model", type=int, default=64)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--kv-heads", type=int, default=2)
    ap.add_argument("--head-dim", type=int, default=16)
    ap.add_argument("--inter", type=int, default=64)
    ap.add_argument("--experts", type=int, default=8)
    ap.add_argument("--top-k", type=int, default=4)
    ap.add_argument("--vocab", type=int, default=1000)
    ap.add_argument("--labels", type=int, default=33)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dtype", choices=["F32", "BF16", "F16"], default="F32")
    ap.add_argument("--shards", type=int, default=1)
    a = ap.parse_args()
    cfg = make_config(a.layers, a.d_model, a.heads, a.kv_heads, a.head_dim, a.inter,
                      a.experts, a.top_k, a.vocab, a.labels)
    write_model(a.out, cfg, random_tensors(cfg, a.seed), a.dtype, a.shards)


if __name__ == "__main__":
    main()
