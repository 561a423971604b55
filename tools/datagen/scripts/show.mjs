// show.mjs — prints records with their spans marked, for eyeballing:
//   node scripts/show.mjs FILE.jsonl [FIRST] [COUNT]
import fs from 'node:fs';
const [file, first = '0', count = '20'] = process.argv.slice(2);
const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(Number(first), Number(first) + Number(count));
const ab = { account_number: 'ACCT', private_address: 'ADDR', private_date: 'DATE', private_email: 'EMAIL', private_person: 'PER', private_phone: 'PHONE', private_url: 'URL', secret: 'SECRET' };
for (const l of lines) {
  const r = JSON.parse(l);
  const cps = [...r.text];
  let out = '', pos = 0;
  for (const s of r.spans) { out += cps.slice(pos, s.start).join('') + '[[' + cps.slice(s.start, s.end).join('') + ']' + ab[s.label] + ']'; pos = s.end; }
  out += cps.slice(pos).join('');
  console.log(out + '\n=========');
}
