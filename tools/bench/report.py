#!/usr/bin/python3
"""report.py BENCH_DIR PERFORMANCE.md DOCDIR — turns tools/bench/run.sh's
JSON lines into the generated tables of docs/PERFORMANCE.md (between the
<!-- bench:begin/end --> and <!-- quant:begin/end --> markers) and the plot
DOCDIR/bench-tokens.svg (gnuplot) of tokens/s against input length and
threads."""
import json
import os
import statistics
import subprocess
import sys


def load(path):
    out = []
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line:
                out.append(json.loads(line))
    return out


def fmt(v, nd=1):
    if v is None:
        return "–"
    if v >= 100:
        return f"{v:,.0f}"
    return f"{v:.{nd}f}"


def best_med(rows, key, lower=False):
    vals = [r[key] for r in rows if r.get(key) is not None]
    if not vals:
        return None, None
    return (min(vals) if lower else max(vals)), statistics.median(vals)


def bench_tables(res):
    groups = {}
    for r in res:
        groups.setdefault((r["model_name"], r["config"]), []).append(r)
    models = []
    for r in res:
        if r["model_name"] not in models:
            models.append(r["model_name"])
    lines = []
    lines.append("| model | weights | figure | best | median | runs | peak RSS MB | % of same-run peak (best) |")
    lines.append("|---|---|---|---:|---:|---:|---:|---:|")
    spec = [("throughput", "sentences_per_s", "sentences/s, throughput (packed)", False),
            ("throughput", "tokens_per_s", "tokens/s, throughput (packed)", False),
            ("len512", "tokens_per_s", "tokens/s, 512-token inputs, one per pass", False),
            ("len512", "gflops", "effective GFLOP/s, 512-token inputs", False),
            ("latency", "p50_ms", "latency p50 ms, one sentence", True),
            ("latency", "p99_ms", "latency p99 ms, one sentence", True),
            ("lat20", "p50_ms", "latency p50 ms, 20-token input", True)]
    for m in models:
        for cfg, key, label, lower in spec:
            rows = groups.get((m, cfg), [])
            if not rows:
                continue
            b, med = best_med(rows, key, lower)
            rss = max(r["peak_rss_mb"] for r in rows)
            pct = max((r.get("pct_of_peak") or 0) for r in rows) if key in ("gflops", "tokens_per_s") else None
            wd = rows[0]["weights_dtype"]
            if rows[0].get("act") == "int16+8":
                wd += ", int16+8 act."
            lines.append(f"| {m} | {wd} | {label} | {fmt(b)} | {fmt(med)} | "
                         f"{len(rows)} | {fmt(rss, 0)} | {fmt(pct) if pct else '–'} |")
    peaks = [(r["peak_gflops"], r["peak_gops"]) for r in res if r.get("peak_gflops")]
    extra = []
    if peaks:
        pf = [p[0] for p in peaks]
        pi = [p[1] for p in peaks]
        extra.append(f"Same-run peaks over all runs (2 threads): f32 FMA {min(pf):.0f}–{max(pf):.0f} "
                     f"GFLOP/s, int8 VNNI {min(pi):.0f}–{max(pi):.0f} GOPS.")
    loads = [r["load_s"] for r in res]
    if loads:
        extra.append(f"Model load (mmap + checks): {min(loads):.3f}–{max(loads):.3f} s.")
    isa = sorted({r["isa"] for r in res})
    extra.append("ISA paths: " + ", ".join(isa) + ".")
    return "\n".join(lines) + "\n\n" + " ".join(extra) + "\n"


def sweep_plot(sweep, docdir):
    if not sweep:
        return ""
    series = {}
    for r in sweep:
        series.setdefault(f"{r['model_name']} ({r['weights_dtype']}), {r['threads']} thr", []).append(
            (int(r["length"]), r["tokens_per_s"]))
    dat = os.path.join(docdir, "bench-tokens.dat")
    with open(dat, "w") as f:
        for name, pts in series.items():
            f.write(f'"{name}"\n')
            for L, v in sorted(pts):
                f.write(f"{L} {v:.1f}\n")
            f.write("\n\n")
    svg = os.path.join(docdir, "bench-tokens.svg")
    plot = ", ".join(f"'{dat}' index {i} with linespoints title columnheader(1)"
                     for i in range(len(series)))
    gp = (f"set terminal svg size 800,480 dynamic font 'sans,11'\nset output '{svg}'\n"
          "set logscale x 2\nset xlabel 'input length (tokens, one input per forward pass)'\n"
          "set ylabel 'tokens/s'\nset key top left\nset grid\n"
          f"plot {plot}\n")
    try:
        subprocess.run(["gnuplot"], input=gp.encode(), check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"report: gnuplot failed: {e}", file=sys.stderr)
    lines = ["| series | " + " | ".join(str(L) for L in sorted({p[0] for s in series.values() for p in s})) + " |"]
    Ls = sorted({p[0] for s in series.values() for p in s})
    lines.append("|---|" + "---:|" * len(Ls))
    for name, pts in series.items():
        d = dict(pts)
        lines.append(f"| {name} | " + " | ".join(fmt(d.get(L)) for L in Ls) + " |")
    return ("![tokens/s against input length](bench-tokens.svg)\n\n"
            "tokens/s by input length (one input per pass):\n\n" + "\n".join(lines) + "\n")


def fid_table(fid):
    if not fid:
        return "(no fidelity runs)\n"
    lines = ["| model | activations | against | sentences | tokens | cosine min | cosine mean | "
             "tokens with cosine ≥ 0.999 | identical spans |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in fid:
        what = "bf16, AVX2 path (f32 noise floor)" if r["config"] == "fid-floor" else r["ref_dtype"]
        act = r.get("act", "") if r["weights_dtype"] in ("int8", "int4") else "f32"
        ge = r.get("tokens_cos_ge_0999_pct", float("nan"))
        lines.append(f"| {r['model_name']} ({r['weights_dtype']}) | {act} | {what} | "
                     f"{r['sentences']} | {r['tokens']} | {r['cos_min']:.6f} | {r['cos_mean']:.6f} | "
                     f"{ge:.3f}% | {r['spans_identical_pct']:.2f}% |")
    return "\n".join(lines) + "\n"


def replace(text, tag, body, heading):
    b, e = f"<!-- {tag}:begin -->", f"<!-- {tag}:end -->"
    block = f"{b}\n{body}{e}"
    if b in text and e in text:
        i, j = text.index(b), text.index(e) + len(e)
        return text[:i] + block + text[j:]
    return text.rstrip("\n") + f"\n\n{heading}\n\n{block}\n"


def main():
    bdir, doc, docdir = sys.argv[1], sys.argv[2], sys.argv[3]
    res = load(os.path.join(bdir, "results.jsonl"))
    sweep = load(os.path.join(bdir, "sweep.jsonl"))
    fid = load(os.path.join(bdir, "fidelity.jsonl"))
    text = open(doc).read() if os.path.exists(doc) else "# Performance\n"
    body = bench_tables(res) if res else "(no bench runs)\n"
    body += "\n" + sweep_plot(sweep, docdir)
    text = replace(text, "bench", body, "## Bench")
    text = replace(text, "quant", fid_table(fid), "## Quantization")
    open(doc, "w").write(text)


if __name__ == "__main__":
    main()
