// ctx.mjs — the per-record context: random stream, lazily seeded faker
// instances, the record's cast (people, their contact data) and the slot
// filler used by templates.

import { Rng } from './rng.mjs';
import { makePerson, pickCulture, anyNameForm, nameForm, title, JA_HONORIFICS } from './names.mjs';
import { makeAddress, renderAddress, pickCountry, corner } from './address.mjs';
import { makePhone, makeEmail, makePersonalUrl, publicUrl } from './contact.mjs';
import { makeDate, makeYMD, formatDate, monthDay, logTimestamp, timeOfDay } from './dates.mjs';
import { makeCard, makeIban, makeBankAccount, sortCode, routingNumber, CARD_BRAND } from './finance.mjs';
import { apiKey, password } from './secrets.mjs';
import * as N from './negatives.mjs';

const CULTURE_COUNTRY = { en_US: 'US', en_GB: 'UK', en_IE: 'IE', en_AU: 'AU', en_CA: 'CA', en_IN: 'IN', en_NG: 'NG', yo_NG: 'NG',
  en_GH: 'NG', zu_ZA: 'ZA', en_ZA: 'ZA', de: 'DE', de_AT: 'AT', de_CH: 'CH', fr: 'FR', es: 'ES', es_MX: 'MX', it: 'IT',
  pt_BR: 'BR', pt_PT: 'PT', nl: 'NL', pl: 'PL', cs_CZ: 'CZ', sk: 'CZ', hu: 'HU', ro: 'RO', sv: 'SE', nb_NO: 'NO', da: 'DK',
  fi: 'FI', tr: 'TR', hr: 'DE', lv: 'DE', vi: 'VN', id_ID: 'US', ru: 'RU', uk: 'RU', el: 'GR', ja: 'JP', zh_CN: 'CN',
  zh_TW: 'CN', ko: 'KR', ar: 'US', fa: 'US', he: 'IL', th: 'US', ka_GE: 'US', ne: 'IN', r_ja: 'JP', r_zh: 'CN', r_ko: 'KR',
  r_ar: 'US', r_el: 'GR', r_ru: 'RU' };
const LANG_COUNTRY = { en: null, de: 'DE', fr: 'FR', es: 'ES', it: 'IT', nl: 'NL', pt: 'BR', el: 'GR', ja: 'JP', pl: 'PL', sv: 'SE', tr: 'TR', ru: 'RU' };
const JA_BANKS = ['みずほ', '三菱UFJ', '三井住友', 'りそな', 'ゆうちょ', '楽天'];
const JOBS = ['Senior Accountant', 'Product Manager', 'Registered Nurse', 'Software Engineer', 'Marketing Coordinator', 'Teaching Assistant', 'Data Scientist', 'Warehouse Associate'];
const BANKS = ['Chase', 'Bank of America', 'Barclays', 'HSBC', 'Deutsche Bank', 'BNP Paribas', 'Santander', 'ING', 'Revolut', 'N26', 'Wise', 'Citibank'];

export class Ctx {
  constructor(seed, index, fakers, lang = 'en') {
    this.rng = new Rng(seed, index);
    this.fakers = fakers;
    this.seeded = new Set();
    this.lang = lang;
    this.people = [];
    this.cache = new Map();
    this.mentioned = new Set();
    this.profile = 'base'; // 'tune': the fine-tuning mix (record.mjs)
  }
  faker(fk) {
    const f = this.fakers[fk] || this.fakers.en_US;
    if (!this.seeded.has(fk)) { f.seed(this.rng.u32()); this.seeded.add(fk); }
    return f;
  }
  person(i = 0) {
    while (this.people.length <= i) this.people.push(makePerson(this, pickCulture(this.rng, this.lang)));
    return this.people[i];
  }
  // Country used for a person's phone/address: mostly their culture's, else the text's.
  countryOf(p) {
    const lc = LANG_COUNTRY[this.lang];
    if (lc && this.rng.chance(0.7)) return lc;
    const c = CULTURE_COUNTRY[p.culture];
    if (c && this.rng.chance(0.6)) return c;
    return pickCountry(this.rng, this.lang);
  }
  once(key, fn) { if (!this.cache.has(key)) this.cache.set(key, fn()); return this.cache.get(key); }
  company() { return this.once('org', () => N.company(this, this.lang)); }
  email(i = 0) { return this.once('email' + i, () => makeEmail(this, this.person(i), this.lang)); }
  phone(i = 0) { return this.once('phone' + i, () => makePhone(this, this.countryOf(this.person(i)))); }
  address(i = 0) { return this.once('addr' + i, () => makeAddress(this, this.lang, this.countryOf(this.person(i)))); }
  card() { return this.once('card', () => makeCard(this)); }
  // A mention of person i: first mention in any form, later ones shorter.
  mention(i = 0) {
    const p = this.person(i);
    if (!this.mentioned.has(i)) { this.mentioned.add(i); return anyNameForm(this.rng, p); }
    return nameForm(this.rng, p, this.rng.weighted([[3, 'given'], [3, 'full'], [1, 'family']]));
  }
  name(i, form) { this.mentioned.add(i); return nameForm(this.rng, this.person(i), form); }
}

function addrText(ctx, i, mode) {
  const a = ctx.address(i);
  if (!mode && ctx.profile === 'tune' && ctx.rng.chance(0.05)) return corner(ctx, ctx.lang);
  return renderAddress(ctx.rng, a, mode || ctx.rng.weighted([[7, 'line'], [1.5, 'street'], [1, 'multi']]), ctx.rng.chance(0.2));
}

// Fills one slot.  Returns [label or null, text].
export function slot(ctx, name, nextPerson = 0) {
  const r = ctx.rng, L = ctx.lang;
  const m = /^(P|T|EMAIL|PHONE|ADDR|URL)(\d?)(?:\.(\w+))?$/.exec(name);
  if (m) {
    const i = m[2] ? Number(m[2]) - 1 : 0;
    switch (m[1]) {
      case 'P': return ['private_person', m[3] ? ctx.name(i, { first: 'given', last: 'family', full: 'full' }[m[3]] || m[3]) : ctx.mention(i)];
      case 'T': return [null, title(r, L, ctx.person(nextPerson))];
      case 'EMAIL': return ['private_email', ctx.email(i)];
      case 'PHONE': return ['private_phone', ctx.phone(i)];
      case 'ADDR': return ['private_address', addrText(ctx, i, m[3])];
      case 'URL': return ['private_url', ctx.once('url' + i, () => makePersonalUrl(ctx, ctx.person(i)))];
    }
  }
  switch (name) {
    case 'HON': return [null, r.chance(0.8) ? r.pick(JA_HONORIFICS) : ''];
    case 'PHONEX': return ['private_phone', makePhone(ctx, ctx.countryOf(ctx.person(0)), { ext: true })];
    case 'DOB': return ['private_date', ctx.once('dob', () => makeDate(ctx, 'dob', L))];
    case 'DATE': return ['private_date', makeDate(ctx, 'recent', L)];
    case 'FDATE': return ['private_date', makeDate(ctx, 'future', L)];
    case 'MD': return ['private_date', monthDay(r, L)];
    case 'TIME': return [null, timeOfDay(r, L)];
    case 'CARD': return ['account_number', ctx.card().text];
    case 'BRAND': return [null, CARD_BRAND[ctx.card().kind]];
    case 'LAST4': return [null, ctx.card().num.slice(-4)];
    case 'EXP': return [null, `${String(r.range(1, 12)).padStart(2, '0')}/${r.range(25, 31)}`];
    case 'IBAN': return ['account_number', ctx.once('iban', () => makeIban(ctx, LANG_COUNTRY[L] === 'UK' ? 'GB' : LANG_COUNTRY[L]))];
    case 'ACCT': return ['account_number', ctx.once('acct', () => makeBankAccount(ctx, L === 'ja' ? 'JP' : ctx.countryOf(ctx.person(0))))];
    case 'ROUTING': return [null, routingNumber(r)];
    case 'SORT': return [null, sortCode(r)];
    case 'BANK': return [null, L === 'ja' ? r.pick(JA_BANKS) : r.pick(BANKS)];
    case 'PW': return ['secret', ctx.once('pw', () => password(r))];
    case 'KEY': return ['secret', ctx.once('key', () => apiKey(r).value)];
    case 'ORG': return [null, ctx.company()];
    case 'ORG2': return [null, N.company(ctx, L)];
    case 'PRODUCT': return [null, N.product(r)];
    case 'PLACE': return [null, r.pick(N.PUBLIC_PLACES)];
    case 'CITY': case 'CITY2': return [null, r.pick(N.CITIES)];
    case 'EPONYM': return [null, r.pick(N.EPONYMS)];
    case 'PRICE': return [null, N.price(r, L === 'en' ? 'en' : L === 'ja' ? 'ja' : 'eu')];
    case 'ORDER': return [null, N.orderNumber(r)];
    case 'TICKET': return [null, N.ticketId(r)];
    case 'VER': return [null, N.version(r)];
    case 'UUID': return [null, N.uuid(r)];
    case 'HASH7': return [null, N.gitHash(r, true)];
    case 'SHA': return [null, N.sha256(r)];
    case 'IP': return [null, N.ipv4(r)];
    case 'TS': return [null, logTimestamp(r)];
    case 'SKU': return [null, N.sku(r)];
    case 'TRACK': return [null, N.trackingNumber(r)];
    case 'PUBURL': return [null, publicUrl(r)];
    case 'N': return [null, String(r.range(2, 12))];
    case 'QTY': return [null, N.quantity(r)];
    case 'IDENT': return [null, N.identifier(r)];
    case 'HEXERR': return [null, N.hexErr(r)];
    case 'PORT': return [null, N.port(r)];
    case 'ISBN': return [null, N.isbn(r)];
    case 'BUILD': return [null, N.buildNumber(r)];
    case 'PCT': return [null, N.percent(r)];
    case 'BIC': return [null, r.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 4) + r.pick(['DE', 'FR', 'GB', 'ES', 'IT', 'NL', 'GR']) + r.chars('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 2) + (r.chance(0.5) ? 'XXX' : '')];
    case 'JOB': return [null, r.pick(JOBS)];
    case 'YEAR': return [null, String(r.range(1850, 2020))];
  }
  throw new Error('unknown slot ' + name);
}

const SLOT_RE = /\{([A-Za-z0-9_.]+)\}/g;
// Appends template `tpl` to doc, filling slots.
export function fill(ctx, doc, tpl) {
  const pieces = tpl.split(SLOT_RE);
  // pieces: text, slot, text, slot, ...
  for (let k = 0; k < pieces.length; k++) {
    if (k % 2 === 0) { doc.t(pieces[k]); continue; }
    const name = pieces[k];
    let nextPerson = 0;
    if (name === 'T') {
      for (let j = k + 2; j < pieces.length; j += 2) { const mm = /^P(\d?)/.exec(pieces[j]); if (mm) { nextPerson = mm[1] ? Number(mm[1]) - 1 : 0; break; } }
    }
    const [label, text] = slot(ctx, name, nextPerson);
    if (label) doc.s(label, text); else doc.t(text);
  }
  return doc;
}
export { makeYMD, formatDate, logTimestamp, timeOfDay, publicUrl };
