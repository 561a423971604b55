// record.mjs — one training example from (seed, index): picks a language
// and a carrier, fills it, and sometimes wraps it in real negative text.

import * as F from '@faker-js/faker';
import { Doc } from './doc.mjs';
import { Ctx } from './ctx.mjs';
import * as C from './carriers.mjs';
import { narrative } from './narrative.mjs';
import { loadSystemText } from './systext.mjs';

const FAKERS = {};
for (const [k, v] of Object.entries(F)) {
  if (k.startsWith('faker') && k !== 'faker' && v && v.person) {
    FAKERS[k.slice(5).replace(/^([A-Z]{2,3})(_|$)/, (m, a, b) => a.toLowerCase() + b)] = v;
  }
}
FAKERS.en_US = F.fakerEN_US;

const LANGS = [[70, 'en'], [5, 'de'], [5, 'fr'], [4.5, 'es'], [2, 'it'], [2, 'nl'], [2, 'pt'], [3.5, 'el'], [4, 'ja'],
  [0.5, 'pl'], [0.5, 'sv'], [0.5, 'tr'], [0.5, 'ru']];
const EN_CARRIERS = [[22, 'sentences'], [11, 'email'], [6, 'chat'], [6, 'ticket'], [8, 'form'], [6, 'json'], [4, 'csv'], [6, 'logs'],
  [7, 'code'], [3, 'letter'], [3, 'legal'], [4, 'medical'], [2, 'resume'], [4, 'markup'], [5, 'negDoc'], [3, 'negSent'], [8, 'sysProse'], [3, 'sysCode'], [20, 'narrative']];
// The fine-tuning mix (--profile tune): the same carriers, with three times
// the narrative prose, where the tune-only sentence kinds live.
const EN_CARRIERS_TUNE = EN_CARRIERS.map(([w, c]) => [c === 'narrative' ? 60 : w, c]);
const INTL_CARRIERS = [[40, 'sentences'], [20, 'email'], [10, 'chat'], [20, 'form'], [8, 'letter']];
const FN = { sentences: C.sentences, email: C.email, chat: C.chat, ticket: C.ticket, form: C.form, json: C.jsonRecord,
  csv: C.csv, logs: C.logs, code: C.code, letter: C.letter, legal: C.legal, medical: C.medical, resume: C.resume, markup: C.markup,
  negDoc: C.negDoc, negSent: C.negSentences, narrative };

function sysChunk(rng, sys, kind) {
  const pool = kind === 'code' ? sys.code : sys.prose;
  if (!pool.length) return null;
  let s = rng.pick(pool);
  if (kind !== 'code' && s.length < 600 && rng.chance(0.4)) s += '\n\n' + rng.pick(pool);
  return s.length > 3000 ? s.slice(0, s.lastIndexOf('\n', 3000) > 0 ? s.lastIndexOf('\n', 3000) : 3000) : s;
}

export function makeRecord(seed, index, opts = {}) {
  const ctx = new Ctx(seed, index, FAKERS);
  ctx.profile = opts.profile || 'base';
  const r = ctx.rng;
  ctx.lang = r.weighted(LANGS);
  const sys = opts.systemText !== false ? loadSystemText() : { prose: [], code: [] };
  const carrier = r.weighted(ctx.lang === 'en' ? (ctx.profile === 'tune' ? EN_CARRIERS_TUNE : EN_CARRIERS) : INTL_CARRIERS);
  const doc = new Doc();
  if (carrier === 'sysProse' || carrier === 'sysCode') {
    const s = sysChunk(r, sys, carrier === 'sysCode' ? 'code' : 'prose');
    if (s) doc.t(s); else C.negSentences(ctx, doc);
  } else {
    // Sometimes bury the PII carrier in real, PII-free text.
    const wrap = ctx.lang === 'en' && r.chance(0.12) ? sysChunk(r, sys, r.chance(0.7) ? 'prose' : 'code') : null;
    if (wrap && r.chance(0.5)) doc.t(wrap + '\n\n');
    FN[carrier](ctx, doc);
    if (wrap && !doc.parts[0][0].startsWith(wrap)) doc.t('\n\n' + wrap);
  }
  // Whole-text case changes (chat-like lower case, shouted forms).
  const cr = r.float();
  if (cr < 0.02) doc.map((s) => s.toLowerCase());
  else if (cr < 0.03) doc.map((s) => s.toUpperCase());
  return doc.finish();
}
