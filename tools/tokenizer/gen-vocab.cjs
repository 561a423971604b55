#!/usr/bin/env node
// gen-vocab.cjs — writes tokenizer/data/o200k_base.vocab from the npm
// `tiktoken` package (MIT; see tokenizer/data/LICENSE.tiktoken).
//
// Format (all integers little-endian):
//   "PIIVOCAB"            8-byte magic
//   u32 n                 number of mergeable tokens; ids are 0..n-1 = ranks
//   n x { u8 len; u8 bytes[len] }   token bytes in id order
//
// Special tokens are not stored here: the built-in table lists them in
// tokenizer/tok_o200k.c.  Usage (from the repository root):
//   (cd tools/tokenizer && npm ci) && node tools/tokenizer/gen-vocab.cjs
'use strict';
const fs = require('fs');
const path = require('path');
const { get_encoding } = require('tiktoken');

const root = path.resolve(__dirname, '..', '..');
const out = process.argv[2] || path.join(root, 'tokenizer', 'data', 'o200k_base.vocab');
const enc = get_encoding('o200k_base');
const N = 199998;
const parts = [Buffer.from('PIIVOCAB', 'latin1')];
const hdr = Buffer.alloc(4);
hdr.writeUInt32LE(N, 0);
parts.push(hdr);
for (let i = 0; i < N; i++) {
  const b = Buffer.from(enc.decode_single_token_bytes(i));
  if (b.length < 1 || b.length > 255) throw new Error(`token ${i}: length ${b.length}`);
  parts.push(Buffer.from([b.length]), b);
}
// Guard: nothing past N is a mergeable token (a throwing call poisons the
// instance, so probe a fresh one and do not free it).
const probe = get_encoding('o200k_base');
let extra = true;
try { probe.decode_single_token_bytes(N); } catch (e) { extra = false; }
if (extra) throw new Error('vocabulary is larger than expected');
fs.writeFileSync(out, Buffer.concat(parts));
console.log(`wrote ${out}: ${N} tokens`);
