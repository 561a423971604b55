// people.mjs - the baseline of docs/ACCURACY.md's dev tables: the persons
// that the rule-based NLP library compromise finds (nlp(text).people()),
// written as predictions for `pii-redact eval --predictions`.
//
//   node tools/eval/compromise/people.mjs DEV.jsonl > PRED.jsonl
//
// Reads the unified eval format (text per line); writes one line per record,
// in order: {"spans": [{"start", "end", "label": "private_person"}]} with
// code-point offsets (compromise reports UTF-16 offsets; converted here).
import fs from 'node:fs';
import readline from 'node:readline';
import nlp from 'compromise';

const path = process.argv[2];
if (!path) {
  process.stderr.write('usage: people.mjs EVAL.jsonl > PREDICTIONS.jsonl\n');
  process.exit(2);
}

// UTF-16 index -> code-point index for one string
function cpIndex(text) {
  const map = new Int32Array(text.length + 1);
  let cp = 0;
  for (let i = 0; i < text.length; i++) {
    map[i] = cp;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      map[++i] = cp;
    }
    cp++;
  }
  map[text.length] = cp;
  return map;
}

const rl = readline.createInterface({ input: fs.createReadStream(path), crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  const { text } = JSON.parse(line);
  const map = cpIndex(text);
  const spans = [];
  for (const p of nlp(text).people().json({ offset: true })) {
    const o = p.offset;
    if (!o || o.length <= 0) continue;
    // compromise's match can include trailing punctuation; keep the name's characters
    let s = Math.max(0, o.start), e = Math.min(text.length, o.start + o.length);
    while (e > s && /[\s.,;:!?'"’)\]]/.test(text[e - 1])) e--;
    while (s < e && /[\s("'\[]/.test(text[s])) s++;
    if (e > s) spans.push({ start: map[s], end: map[e], label: 'private_person' });
  }
  process.stdout.write(JSON.stringify({ spans }) + '\n');
}
