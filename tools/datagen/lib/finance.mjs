// finance.mjs — payment cards (Luhn-valid), IBANs (mod-97-valid) and bank
// account numbers.

export function luhnCheckDigit(body) {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = body.charCodeAt(body.length - 1 - i) - 48;
    if (i % 2 === 0) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}
export function luhnValid(num) {
  const s = num.replace(/\D/g, '');
  return luhnCheckDigit(s.slice(0, -1)) === s.slice(-1);
}

const CARD_KINDS = [
  [40, 'visa', () => '4', 16], [25, 'mc', (r) => String(r.range(51, 55)), 16], [5, 'mc2', (r) => String(r.range(2221, 2720)), 16],
  [12, 'amex', (r) => r.pick(['34', '37']), 15], [6, 'discover', (r) => r.pick(['6011', '65']), 16],
  [4, 'jcb', (r) => String(r.range(3528, 3589)), 16], [2, 'diners', (r) => r.pick(['36', '300', '305']), 14],
  [3, 'unionpay', () => '62', 16], [2, 'maestro', (r) => r.pick(['6759', '5018', '6304']), 19], [1, 'visa13', () => '4', 13],
];
export function makeCard(ctx, opts = {}) {
  const rng = ctx.rng;
  const [, kind, pre, len] = rng.weighted(CARD_KINDS.map((k) => [k[0], k]));
  let body = pre(rng);
  while (body.length < len - 1) body += String(rng.int(10));
  const num = body + luhnCheckDigit(body);
  const sep = opts.sep ?? rng.weighted([[5, ' '], [3, ''], [2, '-'], [0.3, '.']]);
  if (!sep) return { num, kind, text: num };
  let groups;
  if (kind === 'amex') groups = [4, 6, 5];
  else if (kind === 'diners') groups = [4, 6, 4];
  else if (len === 19) groups = [4, 4, 4, 4, 3];
  else if (len === 13) groups = [4, 4, 5];
  else groups = [4, 4, 4, 4];
  const parts = []; let i = 0;
  for (const g of groups) { parts.push(num.slice(i, i + g)); i += g; }
  return { num, kind, text: parts.join(sep) };
}
export const CARD_BRAND = { visa: 'Visa', visa13: 'Visa', mc: 'Mastercard', mc2: 'Mastercard', amex: 'American Express',
  discover: 'Discover', jcb: 'JCB', diners: 'Diners Club', unionpay: 'UnionPay', maestro: 'Maestro' };

// IBAN: country, total length, BBAN shape (n digits, a upper letters, c alnum).
const IBAN = {
  DE: [22, 'n18'], FR: [27, 'n10c11n2'], GB: [22, 'a4n14'], ES: [24, 'n20'], IT: [27, 'a1n10c12'], NL: [18, 'a4n10'],
  GR: [27, 'n7c16'], CH: [21, 'n5c12'], AT: [20, 'n16'], BE: [16, 'n12'], PL: [28, 'n24'], PT: [25, 'n21'],
  SE: [24, 'n20'], IE: [22, 'a4n14'], DK: [18, 'n14'], FI: [18, 'n14'], NO: [15, 'n11'], LU: [20, 'n3c13'],
  CZ: [24, 'n20'], HU: [28, 'n24'], RO: [24, 'a4c16'], TR: [26, 'n5n1c16'], SA: [24, 'n2c18'], AE: [23, 'n19'],
  BR: [29, 'n23a1c1'], IL: [23, 'n19'], HR: [21, 'n17'], SK: [24, 'n20'], SI: [19, 'n15'], LT: [20, 'n16'], LV: [21, 'a4c13'],
};
const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', ALNUMU = UP + '0123456789';

export function ibanCheck(country, bban) {
  const re = (bban + country + '00').replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rem = 0;
  for (const ch of re) rem = (rem * 10 + (ch.charCodeAt(0) - 48)) % 97;
  return String(98 - rem).padStart(2, '0');
}
export function ibanValid(iban) {
  const s = iban.replace(/\s/g, '');
  const re = (s.slice(4) + s.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rem = 0;
  for (const ch of re) rem = (rem * 10 + (ch.charCodeAt(0) - 48)) % 97;
  return rem === 1;
}

export function makeIban(ctx, country = null, opts = {}) {
  const rng = ctx.rng;
  country = country && IBAN[country] ? country : rng.weighted([[6, 'DE'], [5, 'FR'], [5, 'GB'], [4, 'ES'], [4, 'IT'], [4, 'NL'],
    [3, 'GR'], [2, 'CH'], [2, 'AT'], [2, 'BE'], [2, 'PL'], [2, 'PT'], [1, 'SE'], [2, 'IE'], [1, 'DK'], [1, 'FI'], [1, 'NO'],
    [1, 'LU'], [1, 'CZ'], [1, 'HU'], [1, 'RO'], [1, 'TR'], [0.5, 'SA'], [0.5, 'AE'], [0.5, 'BR'], [0.5, 'IL'], [0.5, 'HR'],
    [0.3, 'SK'], [0.3, 'SI'], [0.3, 'LT'], [0.3, 'LV']]);
  const [len, shape] = IBAN[country];
  let bban = '';
  for (const [, t, n] of shape.matchAll(/([nac])(\d+)/g)) {
    const al = t === 'n' ? '0123456789' : t === 'a' ? UP : ALNUMU;
    bban += rng.chars(al, Number(n));
  }
  if (bban.length !== len - 4) throw new Error('iban shape ' + country);
  const iban = country + ibanCheck(country, bban) + bban;
  const grouped = opts.grouped ?? rng.chance(0.6);
  return grouped ? iban.replace(/(.{4})/g, '$1 ').trim() : iban;
}

// Domestic bank account numbers (the account part only).
export function makeBankAccount(ctx, country = 'US') {
  const r = ctx.rng;
  switch (country) {
    case 'UK': return r.digits(8);
    case 'JP': return r.digits(7);
    case 'IN': return r.digits(r.range(11, 16));
    case 'AU': return r.digits(r.range(6, 9));
    case 'CA': return r.digits(7);
    case 'BR': return `${r.digits(r.range(5, 8))}-${r.int(10)}`;
    case 'MX': return r.digits(18); // CLABE
    default: return r.weighted([[3, r.digits(r.range(8, 12))], [1, `${r.digits(4)}-${r.digits(4)}-${r.digits(2)}`], [1, r.digits(4) + ' ' + r.digits(4) + ' ' + r.digits(4)]]);
  }
}
export function sortCode(r) { return `${r.digits(2)}-${r.digits(2)}-${r.digits(2)}`; }
export function routingNumber(r) { return r.digits(9); }
