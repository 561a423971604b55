#!/usr/bin/env node
// bench.cjs — JavaScript side of `make bench-tokenizer`: times tiktoken
// (WASM) and gpt-tokenizer (pure JS) on the same files as the C benchmark,
// checks that they produce the same ids (token count and FNV-1a checksum),
// and prints the comparison.  Single thread, median of PII_TOK_BENCH_REPS
// runs (default 7) after one warm-up run.  Times are the process's CPU time
// (process.cpuUsage, user + system), as the C side uses its thread's CPU
// time; the wall-clock rate is printed too.
//
//   node tools/tokenizer/bench.cjs C_RESULTS.json FILE...
'use strict';
const fs = require('fs');
const path = require('path');
const { get_encoding } = require('tiktoken');
const gpt = require('gpt-tokenizer/encoding/o200k_base');

const reps = Math.max(1, Math.min(100, Number(process.env.PII_TOK_BENCH_REPS) || 7));
const cres = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const files = process.argv.slice(3);
const tk = get_encoding('o200k_base');
const noSpecial = { disallowedSpecial: new Set() };

function fnv(ids) {
  let h = 2166136261;
  for (const id of ids) {
    h = (h ^ id) >>> 0;
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h >>> 0;
}

function time(fn) {
  fn(); // warm-up (JIT, caches)
  const t = [], w = [];
  let out;
  for (let i = 0; i < reps; i++) {
    const c0 = process.cpuUsage(), w0 = process.hrtime.bigint();
    out = fn();
    const c = process.cpuUsage(c0);
    w.push(Number(process.hrtime.bigint() - w0) / 1e9);
    t.push((c.user + c.system) / 1e6);
  }
  t.sort((a, b) => a - b);
  w.sort((a, b) => a - b);
  return { sec: t[Math.floor(reps / 2)], wall: w[Math.floor(reps / 2)], ids: out };
}

let ok = true;
const rows = [];
// tiktoken is the reference: its ids must equal the C ids.  gpt-tokenizer
// is only timed (its pre-tokenizer uses the JavaScript regex engine's
// Unicode tables, which can split a few rare characters differently).
for (const f of files) {
  const base = path.basename(f);
  const buf = fs.readFileSync(f);
  const text = buf.toString('utf8');
  const c = cres[base];
  const line = (name, r, ref) => {
    const mbps = buf.length / r.sec / 1e6, mtps = r.ids.length / r.sec / 1e6;
    const same = r.ids.length === c.tokens && fnv(r.ids) === c.fnv;
    if (ref && !same) ok = false;
    const wall = buf.length / r.wall / 1e6;
    console.log(`${base.padEnd(18)} ${(buf.length / 1e6).toFixed(2).padStart(6)} MB  ${String(r.ids.length).padStart(9)} tokens  ${name.padEnd(16)} ${mbps.toFixed(1).padStart(8)} MB/s  ${mtps.toFixed(2).padStart(6)} Mtok/s  (wall ${wall.toFixed(1)} MB/s)  ids ${same ? 'identical to C' : 'differ from C'}`);
    return mbps;
  };
  const a = line('tiktoken (WASM)', time(() => tk.encode_ordinary(text)), true);
  const b = line('gpt-tokenizer', time(() => gpt.encode(text, noSpecial)), false);
  rows.push([base, c.mbps, a, b]);
}
console.log('');
console.log('speed-up of C over the faster JavaScript tokenizer:');
for (const [base, cm, a, b] of rows) console.log(`  ${base.padEnd(18)} ${(cm / Math.max(a, b)).toFixed(1)}x  (C ${cm.toFixed(1)} MB/s, best JS ${Math.max(a, b).toFixed(1)} MB/s)`);
if (!ok) {
  console.error('bench: tiktoken disagrees with the C ids');
  process.exit(1);
}
