#!/usr/bin/env python3
"""serve-load.py — a bounded load test of `pii-redact serve` on loopback
(`make serve-load`; figures in docs/PERFORMANCE.md, "The server").

    tools/serve-load.py BINARY [--seconds S] [--clients C] [--workers W]
                               [--rss-requests N] [--spawn N] [--corpus FILE]

Prompts are ~200-character and ~4 KB texts cut from the corpus at word
boundaries.  For each distinct prompt the command's own output
(`BINARY < prompt`) is computed first — that is also the process-per-request
baseline, timed — and every server reply is compared with it byte for byte
(a mismatch or a non-200 reply is counted and makes the exit status 1).

Phases (server: --workers W, built-in model, --threads 1 per worker):
  short  C client processes with keep-alive connections send 200-char
         prompts to POST /redact (text/plain) for S seconds: requests/s,
         p50/p99/max latency.
  doc    the same with 4 KB documents.
  rss    N short requests; the server's VmRSS after the first tenth and at
         the end (flat: within 5 %).
  limits a server with --max-requests 2 under C clients for S/2 seconds:
         the replies are 200 (correct bytes) or 503, nothing else; a body
         over --max-body gets 413.
Only 127.0.0.1 is used.  Standard library only.
"""
import argparse
import http.client
import multiprocessing as mp
import os
import re
import signal
import subprocess
import sys
import time


def cut_prompts(corpus, size, count):
    words = open(corpus, encoding="utf-8").read().split()
    out, cur, i = [], [], 0
    while len(out) < count:
        w = words[i % len(words)]
        i += 1
        if sum(len(x) + 1 for x in cur) + len(w) > size:
            out.append(" ".join(cur))
            cur = []
        cur.append(w)
    return out


def start_server(binary, args):
    p = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--quiet"] + args,
                         stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
    if not m:
        p.kill()
        sys.exit("server did not start: " + line)
    return p, int(m.group(1))


def stop_server(p):
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=60)


def client(args):
    port, prompts, expected, seconds, max_n, seed = args
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    lat, bad, codes = [], 0, {}
    t_end = time.perf_counter() + seconds
    k = seed
    while (seconds and time.perf_counter() < t_end) or (max_n and len(lat) < max_n):
        i = k % len(prompts)
        k += 7
        body = prompts[i].encode()
        t0 = time.perf_counter()
        try:
            c.request("POST", "/redact", body=body, headers={"Content-Type": "text/plain"})
            r = c.getresponse()
            data = r.read()
        except (OSError, http.client.HTTPException):
            c.close()
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            codes["conn"] = codes.get("conn", 0) + 1
            continue
        dt = time.perf_counter() - t0
        codes[r.status] = codes.get(r.status, 0) + 1
        if r.status == 200:
            lat.append(dt)
            if data != expected[i]:
                bad += 1
        if r.getheader("Connection", "").lower() == "close":
            c.close()
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.close()
    return lat, bad, codes


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p / 100 * len(v)))] if v else float("nan")


def cpu_s(pid):
    """The server's user + system CPU time, seconds."""
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def run_phase(name, port, prompts, expected, clients, seconds, pid=None):
    c0 = cpu_s(pid) if pid else 0
    t0 = time.perf_counter()
    with mp.Pool(clients) as pool:
        res = pool.map(client, [(port, prompts, expected, seconds, 0, s) for s in range(clients)])
    wall = time.perf_counter() - t0
    lat = [x for r in res for x in r[0]]
    bad = sum(r[1] for r in res)
    codes = {}
    for r in res:
        for k, v in r[2].items():
            codes[k] = codes.get(k, 0) + v
    cpu = (cpu_s(pid) - c0) / max(1, len(lat)) * 1e3 if pid else float("nan")
    print(f"{name}: {len(lat)} requests in {wall:.1f} s: {len(lat) / wall:.0f} req/s; "
          f"latency p50 {pct(lat, 50) * 1e3:.2f} ms, p99 {pct(lat, 99) * 1e3:.2f} ms, "
          f"max {max(lat) * 1e3 if lat else 0:.1f} ms; server CPU {cpu:.2f} ms/request; "
          f"mismatches {bad}; replies {codes}")
    return bad, codes


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rss-requests", type=int, default=100000)
    ap.add_argument("--spawn", type=int, default=40)
    ap.add_argument("--corpus", default="samples/sentences.txt")
    a = ap.parse_args()
    failed = 0
    short = cut_prompts(a.corpus, 200, 64)
    docs = cut_prompts(a.corpus, 4096, 16)
    # the command's bytes for each prompt, and the process-per-request time
    t0 = time.perf_counter()
    exp_short = [subprocess.run([a.binary], input=p.encode(), capture_output=True,
                                check=True).stdout for p in short]
    spawn = (time.perf_counter() - t0) / len(short)
    exp_docs = [subprocess.run([a.binary], input=p.encode(), capture_output=True,
                               check=True).stdout for p in docs]
    print(f"process per request (200-char prompts, sequential): {spawn * 1e3:.1f} ms each, "
          f"{1 / spawn:.1f} req/s")
    srv, port = start_server(a.binary, ["--workers", str(a.workers), "--max-requests", "1024"])
    try:
        b, _ = run_phase("short (200 chars)", port, short, exp_short, a.clients, a.seconds, srv.pid)
        failed += b
        b, _ = run_phase("doc (4 KB)", port, docs, exp_docs, a.clients, a.seconds, srv.pid)
        failed += b
        # RSS over many requests
        n = a.rss_requests
        per = max(1, n // a.clients)
        with mp.Pool(a.clients) as pool:
            warm = pool.map(client, [(port, short, exp_short, 0, max(1, per // 10), s)
                                     for s in range(a.clients)])
            r0 = rss_kib(srv.pid)
            rest = pool.map(client, [(port, short, exp_short, 0, per - max(1, per // 10), s)
                                     for s in range(a.clients)])
            r1 = rss_kib(srv.pid)
        done = sum(len(r[0]) for r in warm + rest)
        bad = sum(r[1] for r in warm + rest)
        failed += bad
        drift = (r1 - r0) / r0 * 100 if r0 else float("nan")
        print(f"rss: {done} requests: VmRSS {r0 / 1024:.1f} MiB after {done // 10}, "
              f"{r1 / 1024:.1f} MiB at the end ({drift:+.1f} %); mismatches {bad}")
        if abs(drift) > 5:
            failed += 1
    finally:
        stop_server(srv)
    # limits: 503 under a small --max-requests; 413 over --max-body
    srv, port = start_server(a.binary, ["--workers", str(a.workers), "--max-requests", "2",
                                        "--max-body", "8K"])
    try:
        b, codes = run_phase("limits (--max-requests 2)", port, short, exp_short,
                             max(a.clients, 6), a.seconds / 2)
        failed += b + sum(v for k, v in codes.items() if k not in (200, 503))
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.request("POST", "/redact", body=b"x" * 9000, headers={"Content-Type": "text/plain"})
        st = c.getresponse().status
        print(f"limits: a 9000-byte body with --max-body 8K: {st}")
        failed += st != 413
    finally:
        stop_server(srv)
    print("serve-load: " + ("ok" if not failed else f"{failed} failures"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
