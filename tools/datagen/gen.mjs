#!/usr/bin/env node
// gen.mjs — synthetic PII training data for the pii-redact default model.
//
//   node gen.mjs [-n RECORDS] [--seed SEED] [-o OUT.jsonl] [-j WORKERS] [--no-system-text]
//                [--profile base|tune]
//
// Writes JSON Lines: {"text", "spans": [{"start","end","label","bstart","bend"}]}
// with code-point (start/end) and UTF-8 byte (bstart/bend) offsets.  Record i
// depends only on (seed, i): the output is byte-identical for a fixed seed
// whatever the worker count.  --profile tune writes the fine-tuning mix
// (README.md, "Profiles"); base, the default, the shipped model's data.
// See README.md for the annotation policy.

import fs from 'node:fs';
import os from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { makeRecord } from './lib/record.mjs';

function usage(code) {
  (code ? process.stderr : process.stdout).write('usage: node gen.mjs [-n RECORDS] [--seed SEED] [-o OUT.jsonl] [-j WORKERS] [--no-system-text] [--profile base|tune] [--stats]\n');
  process.exit(code);
}

function parseArgs(argv) {
  const o = { n: 100000, seed: 1, out: '-', workers: Math.min(2, os.cpus().length), systemText: true, stats: false, profile: 'base' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => { if (i + 1 >= argv.length) usage(2); return argv[++i]; };
    if (a === '-n' || a === '--records') o.n = Number(v());
    else if (a === '--seed' || a === '-s') o.seed = Number(v());
    else if (a === '-o' || a === '--out') o.out = v();
    else if (a === '-j' || a === '--workers') o.workers = Number(v());
    else if (a === '--no-system-text') o.systemText = false;
    else if (a === '--stats') o.stats = true;
    else if (a === '--profile') o.profile = v();
    else if (a === '-h' || a === '--help') usage(0);
    else usage(2);
  }
  if (!Number.isInteger(o.n) || o.n < 0 || !Number.isInteger(o.seed) || o.seed < 0 || !(o.workers >= 1) || !['base', 'tune'].includes(o.profile)) usage(2);
  return o;
}

const CHUNK = 2000;

function genChunk(seed, lo, hi, systemText, profile) {
  const lines = [];
  for (let i = lo; i < hi; i++) lines.push(JSON.stringify(makeRecord(seed, i, { systemText, profile })));
  return lines.join('\n') + (hi > lo ? '\n' : '');
}

if (!isMainThread) {
  parentPort.on('message', (m) => {
    if (m === null) { process.exit(0); }
    parentPort.postMessage({ id: m.id, data: genChunk(workerData.seed, m.lo, m.hi, workerData.systemText, workerData.profile) });
  });
} else {
  const o = parseArgs(process.argv.slice(2));
  const out = o.out === '-' ? process.stdout : fs.createWriteStream(o.out);
  const t0 = Date.now();
  const nChunks = Math.ceil(o.n / CHUNK);
  const stats = {};
  const tally = (data) => {
    if (!o.stats) return;
    for (const line of data.split('\n')) {
      if (!line) continue;
      const rec = JSON.parse(line);
      stats._records = (stats._records || 0) + 1;
      if (!rec.spans.length) stats._no_pii = (stats._no_pii || 0) + 1;
      for (const s of rec.spans) stats[s.label] = (stats[s.label] || 0) + 1;
    }
  };
  const write = (data) => new Promise((res) => { tally(data); if (!out.write(data)) out.once('drain', res); else res(); });
  const finish = () => {
    const secs = (Date.now() - t0) / 1000;
    process.stderr.write(`datagen: ${o.n} records in ${secs.toFixed(1)} s (${Math.round(o.n / secs)} records/s)\n`);
    if (o.stats) process.stderr.write(JSON.stringify(stats, Object.keys(stats).sort(), 1) + '\n');
  };
  if (o.workers <= 1) {
    for (let c = 0; c < nChunks; c++) await write(genChunk(o.seed, c * CHUNK, Math.min(o.n, (c + 1) * CHUNK), o.systemText, o.profile));
    if (out !== process.stdout) out.end(finish); else finish();
  } else {
    // Workers compute chunks; the main thread writes them in order.
    const self = fileURLToPath(import.meta.url);
    const workers = Array.from({ length: o.workers }, () => new Worker(self, { workerData: { seed: o.seed, systemText: o.systemText, profile: o.profile } }));
    const done = new Map();
    let next = 0, written = 0;
    await new Promise((resolve, reject) => {
      const flush = async () => {
        while (done.has(written)) { const d = done.get(written); done.delete(written); written++; await write(d); }
        if (written === nChunks) resolve();
      };
      const feed = (w) => {
        if (next >= nChunks) return;
        const id = next++;
        w.postMessage({ id, lo: id * CHUNK, hi: Math.min(o.n, (id + 1) * CHUNK) });
      };
      for (const w of workers) {
        w.on('message', (m) => { done.set(m.id, m.data); feed(w); flush(); });
        w.on('error', reject);
        feed(w); feed(w);
      }
      if (nChunks === 0) resolve();
    });
    for (const w of workers) w.postMessage(null);
    if (out !== process.stdout) out.end(finish); else finish();
  }
}
