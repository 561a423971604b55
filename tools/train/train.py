#!/usr/bin/python3
"""train.py - trains a small Privacy-Filter-architecture token classifier on
prepared data (prepare.py) and exports it in the HF layout the C runtime
loads.  The model code is tools/reference/pf_model.py (the parity reference),
run in float32.

Compact embedding: only tokens seen at least --min-count times in the
training data get a row of their own; every other o200k id maps to one of a
few dozen "shape class" rows (leading space x script x case / digits /
punctuation ...; common.shape_class).  The exported file stores the rows
used, plus `model.embed_tokens.row_map` (I32 [vocab_size]) mapping each
token id to its row.  During training a token is replaced by its shape-class
row with probability --unk-drop, so those rows learn what an unseen token of
that shape usually is.

Usage: train.py --train TRAIN.pt [--val VAL.pt] -o OUTDIR [size and schedule options]
Deterministic for a seed and thread count (torch CPU kernels used here are
deterministic); prints progress to stderr.
"""

import argparse
import json
import math
import os
import random
import sys
import time

# OpenMP threads that spin while waiting are 10x slower when other processes
# share the cores; results do not depend on the wait policy, only speed does.
if os.getloadavg()[0] > 1.5 and "OMP_WAIT_POLICY" not in os.environ:
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from pf_model import PFConfig, PrivacyFilter  # noqa: E402  (tools/reference via common)
from pf_model import load_model  # noqa: E402
from randmodel import make_config  # noqa: E402  (tools/reference via common)
from st_io import save_file  # noqa: E402


def model_config(a, n_rows):
    """The checkpoint's config.json: the reference's (randmodel.make_config)
    for these sizes and the o200k vocabulary, with the training settings."""
    cfg = make_config(a.layers, a.d_model, a.heads, a.kv_heads, a.head_dim, a.inter, a.experts,
                      a.top_k, common.VOCAB_SIZE, common.N_LABELS)
    cfg.update({"initializer_range": 0.02, "router_aux_loss_coef": a.aux, "embedding_rows": n_rows})
    return cfg


# ---------------------------------------------------------------------------
# vocabulary


def build_row_map(train_ids, min_count):
    """Returns (row_map int64 [V], class_row int64 [V], class names, kept ids)."""
    counts = torch.bincount(torch.cat(train_ids).long(), minlength=common.VOCAB_SIZE)
    vb = common.vocab_bytes(None)
    names = common.all_shape_classes()
    idx = {n: i for i, n in enumerate(names)}
    class_row = torch.full((common.VOCAB_SIZE,), idx["special"], dtype=torch.long)
    for i, b in enumerate(vb):
        class_row[i] = idx[common.shape_class(b)]
    kept = (counts >= min_count).nonzero(as_tuple=True)[0]
    row_map = class_row.clone()
    row_map[kept] = torch.arange(len(names), len(names) + len(kept))
    return row_map, class_row, names, kept, counts


def extend_rows(init, row_map, class_row, n_classes, paths, min_count, extra=None):
    """Adds embedding rows to the --init model for the tokens of PATHS seen
    at least MIN_COUNT times (and the token ids of EXTRA) that still fall on
    a shape-class row.  A new
    row starts at the mean of the model's token rows of the same class (not
    at the class row itself, which learned what an *unseen* token of that
    shape is).  Returns (row_map, n_rows); the model's embedding grows."""
    ids = []
    for p in paths:
        ids += torch.load(p)["ids"]
    want = torch.zeros(common.VOCAB_SIZE, dtype=torch.bool)
    if ids:
        want |= torch.bincount(torch.cat(ids).long(), minlength=common.VOCAB_SIZE) >= min_count
    if extra is not None:
        want[extra] = True
    new = (want & (row_map < n_classes)).nonzero(as_tuple=True)[0]
    emb = init.model.embed_tokens.weight.detach()
    n_old = emb.shape[0]
    token_ids = (row_map >= n_classes).nonzero(as_tuple=True)[0]
    row_map = row_map.clone()
    row_map[new] = torch.arange(n_old, n_old + len(new))
    if len(new):
        means = {}  # one mean per class, not per token
        for t in new.tolist():
            c = int(class_row[t])
            if c not in means:
                same = token_ids[class_row[token_ids] == c]
                means[c] = emb[row_map[same]].mean(0) if len(same) else emb[c]
        grown = torch.cat([emb, torch.stack([means[int(class_row[t])] for t in new.tolist()])])
        init.model.embed_tokens = nn.Embedding.from_pretrained(grown, freeze=False)
    print(f"train: {len(new)} new token rows from {', '.join(paths) or '-'}"
          f"{' and --glove' if extra is not None else ''} "
          f"(seen >= {min_count} times, on a shape row in {n_old} rows)", file=sys.stderr)
    return row_map, n_old + len(new)


# ---------------------------------------------------------------------------
# batching


def chunk_docs(ids, labels, max_len):
    out = []
    for t, l in zip(ids, labels):
        l = l.long()
        l = torch.where(l == common.IGNORE, torch.tensor(-100), l)  # no loss there
        for s in range(0, len(t), max_len):
            if len(t[s:s + max_len]):
                out.append((t[s:s + max_len].long(), l[s:s + max_len]))
    return out


def make_batches(seqs, tokens_per_batch, rng):
    """Length-bucketed batches of padded size <= tokens_per_batch, shuffled."""
    order = sorted(range(len(seqs)), key=lambda i: (len(seqs[i][0]), rng.random()))
    batches, cur, cur_max = [], [], 0
    for i in order:
        n = len(seqs[i][0])
        if cur and max(cur_max, n) * (len(cur) + 1) > tokens_per_batch:
            batches.append(cur)
            cur, cur_max = [], 0
        cur.append(i)
        cur_max = max(cur_max, n)
    if cur:
        batches.append(cur)
    rng.shuffle(batches)
    return batches


def collate(seqs, idxs):
    n = max(len(seqs[i][0]) for i in idxs)
    B = len(idxs)
    ids = torch.zeros(B, n, dtype=torch.long)
    lab = torch.full((B, n), -100, dtype=torch.long)
    mask = torch.zeros(B, n, dtype=torch.bool)
    for b, i in enumerate(idxs):
        t, l = seqs[i]
        ids[b, :len(t)] = t
        lab[b, :len(t)] = l
        mask[b, :len(t)] = True
    return ids, lab, mask


# ---------------------------------------------------------------------------
# metrics


def spans_from_labels(labels):
    """Argmax BIOES labels -> set of (cat, start, end) with opf's repair rules."""
    spans, open_ = set(), None
    for i, lab in enumerate(labels):
        if lab == 0:
            if open_:
                spans.add((open_[0], open_[1], i))
            open_ = None
            continue
        c, t = (lab - 1) // 4, "BIES"[(lab - 1) % 4]
        if t == "S":
            if open_:
                spans.add((open_[0], open_[1], i))
            spans.add((c, i, i + 1))
            open_ = None
        elif t == "B" or (t == "I" and not (open_ and open_[0] == c)):
            if open_:
                spans.add((open_[0], open_[1], i))
            open_ = (c, i)
        elif t == "E":
            if open_ and open_[0] == c:
                spans.add((c, open_[1], i + 1))
            else:
                if open_:
                    spans.add((open_[0], open_[1], i))
                spans.add((c, i, i + 1))
            open_ = None
    if open_:
        spans.add((open_[0], open_[1], len(labels)))
    return spans


@torch.no_grad()
def evaluate(model, seqs, batch_tokens=8192):
    model.eval()
    tp = fp = fn = 0
    correct = total = 0
    rng = random.Random(0)
    for idxs in make_batches(seqs, batch_tokens, rng):
        ids, lab, mask = collate(seqs, idxs)
        logits, _ = model(ids, mask)
        pred = logits.argmax(-1)
        for b in range(len(idxs)):
            n = int(mask[b].sum())
            p, g = pred[b, :n].tolist(), lab[b, :n].clamp(min=0).tolist()
            correct += sum(int(x == y) for x, y in zip(p, g))
            total += n
            ps, gs = spans_from_labels(p), spans_from_labels(g)
            tp += len(ps & gs)
            fp += len(ps - gs)
            fn += len(gs - ps)
    model.train()
    prec = tp / max(tp + fp, 1)
    rec = tp / max(tp + fn, 1)
    f1 = 2 * prec * rec / max(prec + rec, 1e-9)
    return {"token_acc": correct / max(total, 1), "span_p": prec, "span_r": rec, "span_f1": f1}


# ---------------------------------------------------------------------------
# model


def init_weights(model, std, seed):
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("layernorm.weight") or name == "model.norm.weight":
                p.fill_(1.0)
            elif name.endswith("bias") or name.endswith("sinks"):
                p.zero_()
            else:
                p.copy_(torch.randn(p.shape, generator=g) * std)


def aux_balance_loss(router_logits, topi, n_experts):
    """Switch-style load balancing: E * sum_e f_e * P_e."""
    probs = torch.softmax(router_logits, dim=-1)  # [T, E]
    f = torch.zeros(n_experts).index_add_(
        0, topi.reshape(-1), torch.ones(topi.numel())) / topi.numel()
    return n_experts * (f * probs.mean(0)).sum()


class GloveEmbedding(nn.Module):
    """Row embedding plus a learned projection of a fixed word vector per
    row (zero for shape-class rows and tokens without one):
    x = E[r] + G[r] P.  P starts at zero, so training starts from the
    --init model's exact function; export folds G P into E (a lookup is
    linear in its table), so the shipped model is a plain embedding."""

    def __init__(self, weight, G):
        super().__init__()
        self.weight = nn.Parameter(weight.detach().clone())
        self.register_buffer("G", G, persistent=False)
        self.proj = nn.Parameter(torch.zeros(G.shape[1], weight.shape[1]))

    def forward(self, rows):
        return F.embedding(rows, self.weight) + F.embedding(rows, self.G) @ self.proj

    def folded(self):
        return self.weight + self.G @ self.proj


def export(model, cfg_dict, row_map, out, dtype, meta):
    os.makedirs(out, exist_ok=True)
    sd = {k: v.detach().float().contiguous() for k, v in model.state_dict().items()}
    emb = model.model.embed_tokens
    if isinstance(emb, GloveEmbedding):
        sd.pop("model.embed_tokens.proj")
        sd["model.embed_tokens.weight"] = emb.folded().detach().float().contiguous()
    sd["model.embed_tokens.row_map"] = row_map.to(torch.int32)
    dts = {}
    for k, v in sd.items():
        if k.endswith("row_map"):
            dts[k] = "I32"
        elif v.dim() >= 2:
            dts[k] = dtype  # matrices and the embedding
        else:
            dts[k] = "F32"  # norms, biases, sinks: tiny, keep exact
    save_file(sd, os.path.join(out, "model.safetensors"), dts, {"format": "pt"})
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(cfg_dict, f, indent=2)
        f.write("\n")
    with open(os.path.join(out, "training.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", required=True, nargs="+")
    ap.add_argument("--val")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--layers", type=int, default=3)
    ap.add_argument("--d-model", type=int, default=128)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--kv-heads", type=int, default=2)
    ap.add_argument("--head-dim", type=int, default=32)
    ap.add_argument("--inter", type=int, default=256)
    ap.add_argument("--experts", type=int, default=16)
    ap.add_argument("--top-k", type=int, default=2)
    ap.add_argument("--min-count", type=int, default=2)
    ap.add_argument("--unk-drop", type=float, default=0.05)
    ap.add_argument("--max-len", type=int, default=256)
    ap.add_argument("--batch-tokens", type=int, default=4096)
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--min-lr-frac", type=float, default=0.05)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--wd", type=float, default=0.01)
    ap.add_argument("--aux", type=float, default=0.01)
    ap.add_argument("--o-weight", type=float, default=1.0, help="loss weight of label O")
    ap.add_argument("--cap-o-weight", type=float, default=1.0,
                    help="loss weight of label O on a token that starts a capitalised Latin, "
                         "Greek or Cyrillic word (hard negatives: places, organisations; "
                         "1.0: as any O token)")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--dtype", default="F16", choices=["F16", "BF16", "F32"])
    ap.add_argument("--eval-every", type=int, default=250)
    ap.add_argument("--max-steps", type=int, default=0,
                    help="optimizer steps (0: --epochs passes over the data)")
    ap.add_argument("--init", metavar="DIR",
                    help="fine-tune: start from the model in DIR (its shape and row map; the size "
                         "options and --min-count must match it) instead of random weights")
    ap.add_argument("--extend-from", nargs="+", metavar="PT", default=[],
                    help="with --init: give a row of its own to every token of these prepared "
                         "files seen at least --extend-min-count times that the start model "
                         "maps to a shape-class row (new rows start at the mean of the "
                         "model's token rows of that class)")
    ap.add_argument("--extend-min-count", type=int, default=2)
    ap.add_argument("--glove", metavar="PT",
                    help="with --init: word vectors of tokens (glove.py); each such token gets a "
                         "row of its own, and a learned projection of its vector is added to "
                         "its row (folded into the embedding at export)")
    ap.add_argument("--grow-layers", type=int, default=0, metavar="N",
                    help="with --init: the init model has N layers fewer than --layers; the new "
                         "ones go on top, each the identity at step 0 (its attention output and "
                         "expert down projections start at zero, the rest random), so training "
                         "starts from the init model's function")
    ap.add_argument("--resume", action="store_true",
                    help="continue from OUT/ckpt/state.pt (written at every --eval-every step; "
                         "from step 0 when there is none yet); "
                         "the result is byte-identical to an uninterrupted run with the same "
                         "arguments")
    a = ap.parse_args()

    torch.set_num_threads(a.threads)
    torch.set_flush_denormal(True)  # subnormal floats slow x86 kernels by 10-100x
    torch.manual_seed(a.seed)
    rng = random.Random(a.seed)
    t0 = time.time()

    train_ids, train_labels = [], []
    for p in a.train:
        d = torch.load(p)
        train_ids += d["ids"]
        train_labels += d["labels"]
    row_map, class_row, class_names, kept, counts = build_row_map(train_ids, a.min_count)
    n_rows = len(class_names) + len(kept)
    init = None
    if a.init:
        # Fine-tuning keeps the start model's rows: tokens new in this data
        # stay on their shape-class rows, as at inference.
        if not os.path.exists(os.path.join(a.init, "model.safetensors")):
            sys.exit(f"train: {a.init}: no model.safetensors (--init wants a model directory)")
        init, row_map, _ = load_model(a.init, dtype=torch.float32, angles="f32")
        n_rows = init.model.embed_tokens.weight.shape[0]
        if row_map is None or n_rows != len(class_names) + int((row_map >= len(class_names)).sum()):
            sys.exit(f"train: {a.init} has no compact embedding of this trainer's shape classes")
        glove = torch.load(a.glove) if a.glove else None
        if a.extend_from or glove is not None:
            row_map, n_rows = extend_rows(init, row_map, class_row, len(class_names),
                                          a.extend_from, a.extend_min_count,
                                          glove["ids"] if glove is not None else None)
    elif a.glove or a.grow_layers:
        sys.exit("train: --glove and --grow-layers need --init")
    print(f"train: {len(train_ids)} docs, {sum(len(t) for t in train_ids)} tokens, "
          f"{n_rows - len(class_names)} token rows + {len(class_names)} class rows", file=sys.stderr)

    seqs = chunk_docs([row_map[t.long()] for t in train_ids], train_labels, a.max_len)
    cls_seqs = [class_row[t.long()] for t in train_ids]
    cls_chunks = chunk_docs(cls_seqs, train_labels, a.max_len)
    val = None
    if a.val:
        d = torch.load(a.val)
        val = chunk_docs([row_map[t.long()] for t in d["ids"]], d["labels"], a.max_len)

    cfgd = model_config(a, n_rows)
    cfg = PFConfig(cfgd)
    model = PrivacyFilter(cfg, angles="f32")
    model.model.embed_tokens = nn.Embedding(n_rows, a.d_model)
    if init is not None:
        sd = init.state_dict()
        if a.grow_layers:
            # new top layers: random, then their outputs zeroed (identity)
            first = a.layers - a.grow_layers
            if init.cfg.n_layers != first:
                sys.exit(f"train: {a.init} has {init.cfg.n_layers} layers, not "
                         f"--layers - --grow-layers = {first}")
            init_weights(model, 0.02, a.seed)
            fresh = model.state_dict()
            for k, v in fresh.items():
                if k.startswith("model.layers.") and int(k.split(".")[2]) >= first:
                    if (k.endswith("o_proj.weight") or k.endswith("o_proj.bias")
                            or ".down_proj" in k):
                        v = torch.zeros_like(v)
                    sd[k] = v
        bad = [k for k, v in model.state_dict().items() if k not in sd or sd[k].shape != v.shape]
        if bad:
            sys.exit(f"train: {a.init} does not match the size options ({bad[0]})")
        model.load_state_dict(sd)
        del init
        if glove is not None:
            G = torch.zeros(n_rows, glove["vecs"].shape[1])
            G[row_map[glove["ids"]]] = glove["vecs"]
            model.model.embed_tokens = GloveEmbedding(model.model.embed_tokens.weight, G)
            print(f"train: {len(glove['ids'])} rows carry a word vector", file=sys.stderr)
    else:
        init_weights(model, 0.02, a.seed)

    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    nodecay = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": a.wd},
                             {"params": nodecay, "weight_decay": 0.0}],
                            lr=a.lr, betas=(0.9, 0.98), eps=1e-8)
    n_tok = sum(len(s[0]) for s in seqs)
    steps_per_epoch = len(make_batches(seqs, a.batch_tokens, random.Random(0)))
    total = a.max_steps or int(math.ceil(steps_per_epoch * a.epochs))
    cw = torch.ones(common.N_LABELS)
    cw[0] = a.o_weight
    cap_cls = None
    if a.cap_o_weight != 1.0:
        # shape classes of a capitalised word ("_latin_cap", "latin_cap", ...)
        cap_cls = torch.tensor([n.endswith("_cap") for n in common.all_shape_classes()])

    def lr_at(step):
        if step < a.warmup:
            return a.lr * (step + 1) / a.warmup
        prog = (step - a.warmup) / max(1, total - a.warmup)
        return a.lr * (a.min_lr_frac + (1 - a.min_lr_frac) * 0.5 * (1 + math.cos(math.pi * prog)))

    print(f"train: {total} steps (~{steps_per_epoch}/epoch of {n_tok} tokens), "
          f"non-embedding params {sum(p.numel() for n, p in model.named_parameters() if 'embed' not in n)}",
          file=sys.stderr)
    step, batches, seen, t_train = 0, [], 0, time.time()
    log = []
    state_path = os.path.join(a.out, "ckpt", "state.pt")
    if a.resume and not os.path.exists(state_path):
        print(f"train: no {state_path} yet; starting from step 0", file=sys.stderr)
    elif a.resume:
        # everything the loop below depends on: weights, optimizer moments,
        # the batch queue and both random streams
        st = torch.load(state_path)
        if st["total"] != total or st["args"] != {k: v for k, v in vars(a).items() if k not in ("resume", "out")}:
            sys.exit(f"train: {state_path} was written with other arguments or data")
        model.load_state_dict(st["model"])
        opt.load_state_dict(st["opt"])
        step, batches, seen, log = st["step"], st["batches"], st["seen"], st["log"]
        rng.setstate(st["rng"])
        torch.set_rng_state(st["torch_rng"])
        t_train -= st["train_seconds"]
        print(f"train: resumed at step {step}/{total}", file=sys.stderr)
    model.train()
    while step < total:
        if not batches:
            batches = make_batches(seqs, a.batch_tokens, rng)
        idxs = batches.pop()
        ids, lab, mask = collate(seqs, idxs)
        if a.unk_drop > 0 or cap_cls is not None:
            cids, _, _ = collate(cls_chunks, idxs)
        if a.unk_drop > 0:
            drop = torch.rand(ids.shape) < a.unk_drop
            ids = torch.where(drop, cids, ids)
        for g in opt.param_groups:
            g["lr"] = lr_at(step)
        logits, routing = model(ids, mask, want_router=True)
        if cap_cls is None:
            loss = F.cross_entropy(logits.reshape(-1, common.N_LABELS), lab.reshape(-1),
                                   weight=cw, ignore_index=-100)
        else:
            # the weighted mean F.cross_entropy computes, with the hard
            # negatives weighing cap_o_weight instead of cw[O]
            fl = lab.reshape(-1)
            valid = fl != -100
            tl = F.cross_entropy(logits.reshape(-1, common.N_LABELS), fl.clamp(min=0),
                                 reduction="none")
            w = cw[fl.clamp(min=0)]
            hard = (fl == 0) & cap_cls[cids.reshape(-1)]
            w = torch.where(hard, torch.full_like(w, a.cap_o_weight), w) * valid
            loss = (tl * w).sum() / w.sum().clamp(min=1e-9)
        aux = sum(aux_balance_loss(r, ti, a.experts) for ti, r in routing) / len(routing)
        tot = loss + a.aux * aux
        opt.zero_grad(set_to_none=True)
        tot.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        seen += int(mask.sum())
        step += 1
        if step % 50 == 0 or step == total:
            el = time.time() - t_train
            print(f"step {step}/{total} loss {loss.item():.4f} aux {aux.item():.3f} "
                  f"lr {lr_at(step - 1):.2e} {seen / el:.0f} tok/s {el:.0f}s", file=sys.stderr)
        if val is not None and (step % a.eval_every == 0 or step == total):
            m = evaluate(model, val)
            m["step"] = step
            log.append(m)
            print("val " + json.dumps({k: round(v, 4) for k, v in m.items()}), file=sys.stderr)
        if step % a.eval_every == 0 and step < total:  # an intermediate model always exists
            export(model, cfgd, row_map, os.path.join(a.out, "ckpt"), a.dtype,
                   {"seed": a.seed, "step": step, "of": total, "val": log})
            st = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step,
                  "batches": batches, "seen": seen, "log": log, "rng": rng.getstate(),
                  "torch_rng": torch.get_rng_state(), "total": total,
                  "train_seconds": time.time() - t_train,
                  "args": {k: v for k, v in vars(a).items() if k not in ("resume", "out")}}
            torch.save(st, state_path + ".tmp")
            os.replace(state_path + ".tmp", state_path)

    t_total = time.time() - t0
    meta = {"seed": a.seed, "steps": total, "tokens_seen": seen, "train_seconds": round(time.time() - t_train, 1),
            "total_seconds": round(t_total, 1), "threads": a.threads, "args": vars(a),
            "class_rows": class_names, "val": log}
    model.eval()
    export(model, cfgd, row_map, a.out, a.dtype, meta)
    print(f"train: exported {a.out} in {t_total:.0f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
