#!/usr/bin/env node
// gen-corpus.cjs — writes the differential corpus tests/fixtures/tok/corpus.jsonl:
// one JSON object per line, {"k": kind, "text": ..., "ids": [...], "lens": [...]},
// where ids are tiktoken's o200k_base encode_ordinary() of text (npm
// `tiktoken`, MIT) and lens the byte length of each token, so the expected
// byte offsets are their running sums.  tests/unit/test_tok_corpus.c checks
// the C tokenizer against every line.
//
// Sources: synthetic text from a seeded PRNG (deterministic), the license
// texts in /usr/share/common-licenses, C headers from /usr/include, JS/TS
// sources from tools/tokenizer/node_modules, and translated UI strings from the
// gettext catalogs in /usr/share/locale (real text in many scripts).  The
// machine-dependent sources make a regenerated corpus differ from the
// committed one on another machine; either is a valid corpus.
//
// Usage (from the repository root):
//   (cd tools/tokenizer && npm ci) && node tools/tokenizer/gen-corpus.cjs [OUT]
'use strict';
const fs = require('fs');
const path = require('path');
const { get_encoding } = require('tiktoken');

const root = path.resolve(__dirname, '..', '..');
const out = process.argv[2] || path.join(root, 'tests', 'fixtures', 'tok', 'corpus.jsonl');

// ---- PRNG -------------------------------------------------------------
let seed = 0x5eed2026;
function rnd() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const ri = (a, b) => a + Math.floor(rnd() * (b - a + 1)); // inclusive
const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
const cp = (c) => String.fromCodePoint(c);
const rep = (n, f) => Array.from({ length: n }, f).join('');

// ---- helpers ----------------------------------------------------------
function readText(p) {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch (e) {
    return '';
  }
}
function listFiles(dir, re, acc = []) {
  let ents;
  try {
    ents = fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    return acc;
  }
  ents.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of ents) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listFiles(p, re, acc);
    else if (re.test(e.name)) acc.push(p);
  }
  return acc;
}
// A window of text starting and ending on code point boundaries.
function windowOf(text, minLen, maxLen) {
  const cps = Array.from(text);
  if (cps.length <= minLen) return cps.join('');
  const len = ri(minLen, Math.min(maxLen, cps.length));
  const start = ri(0, cps.length - len);
  return cps.slice(start, start + len).join('');
}
// msgstr strings of a gettext .mo file.
function moStrings(p) {
  let b;
  try {
    b = fs.readFileSync(p);
  } catch (e) {
    return [];
  }
  if (b.length < 28) return [];
  const magic = b.readUInt32LE(0);
  const rd = magic === 0x950412de ? (o) => b.readUInt32LE(o) : (o) => b.readUInt32BE(o);
  if (magic !== 0x950412de && b.readUInt32BE(0) !== 0x950412de) return [];
  const n = rd(8), tOff = rd(16);
  const res = [];
  for (let i = 1; i < n; i++) { // 0 is the header entry
    const len = rd(tOff + 8 * i), off = rd(tOff + 8 * i + 4);
    if (off + len > b.length) break;
    const s = b.subarray(off, off + len).toString('utf8');
    if (s.includes('\ufffd')) continue;
    for (const part of s.split('\0')) if (part.length >= 3) res.push(part);
  }
  return res;
}

const corpus = [];
const add = (k, text) => {
  if (text.length) corpus.push({ k, text });
};

// ---- English prose ------------------------------------------------------
const licenses = listFiles('/usr/share/common-licenses', /.*/).map(readText).filter(Boolean);
for (let i = 0; i < 600 && licenses.length; i++) add('english', windowOf(pick(licenses), 10, 700));
const first = ['Alice', 'Bob', 'Carol', 'Dave', 'Émilie', 'José', 'Zoë', "O'Brien", 'Nguyễn', 'Søren', 'MARY', 'mcDonald'];
const last = ['Smith', 'Johnson', "D'Angelo", 'Müller', 'García', 'Lee', 'van der Berg', 'Okafor', 'Kowalski'];
const streets = ['Main Street', 'Baker St.', 'Rue de Rivoli', 'Elm Ave', '5th Avenue', 'Königsallee'];
const verbs = ["lives at", "can't find", "won't pay", "emailed", "called", "we'll meet", "she's moved to", "THEY'RE AT", "I'd visit", "You've got"];
for (let i = 0; i < 300; i++) {
  const f = pick(first), l = pick(last);
  const s = [
    `${f} ${l} ${pick(verbs)} ${ri(1, 9999)} ${pick(streets)}, ${pick(['Springfield', 'Paris', 'Berlin', 'Lagos'])} ${ri(10000, 99999)}.`,
    ` Contact: ${f.toLowerCase().replace(/[^a-z]/g, '')}.${l.toLowerCase().replace(/[^a-z]/g, '')}@example.${pick(['com', 'org', 'co.uk'])}`,
    ` or +${ri(1, 99)} ${ri(10, 999)} ${ri(100, 9999)} ${ri(1000, 9999)}; SSN ${ri(100, 999)}-${ri(10, 99)}-${ri(1000, 9999)}.`,
    ` Card 4${rep(15, () => ri(0, 9))}, born ${ri(1, 28)}/${ri(1, 12)}/${ri(1930, 2020)}.`,
  ];
  add('pii', s.slice(0, ri(1, 4)).join('') + (rnd() < 0.3 ? '\n' : ''));
}

// ---- code ---------------------------------------------------------------
// (pinned npm packages and the C library headers: stable sources, so a
// regenerated corpus does not change with this repository's own code)
const codeFiles = [
  ...fs.readdirSync('/usr/include').filter((f) => /\.h$/.test(f)).sort().map((f) => path.join('/usr/include', f)),
  ...listFiles(path.join(__dirname, 'node_modules', 'gpt-tokenizer', 'src'), /\.ts$/).slice(0, 60),
  ...listFiles(path.join(__dirname, 'node_modules', 'tiktoken'), /\.(cjs|ts)$/),
].map(readText).filter(Boolean);
for (let i = 0; i < 500 && codeFiles.length; i++) add('code', windowOf(pick(codeFiles), 20, 900));

// ---- logs ----------------------------------------------------------------
const levels = ['INFO', 'WARN', 'ERROR', 'debug', 'trace', 'FATAL'];
for (let i = 0; i < 400; i++) {
  const n = ri(1, 5);
  let s = '';
  for (let j = 0; j < n; j++) {
    const ts = `2026-${String(ri(1, 12)).padStart(2, '0')}-${String(ri(1, 28)).padStart(2, '0')}T${String(ri(0, 23)).padStart(2, '0')}:${String(ri(0, 59)).padStart(2, '0')}:${String(ri(0, 59)).padStart(2, '0')}.${ri(0, 999999)}Z`;
    const ip = `${ri(1, 255)}.${ri(0, 255)}.${ri(0, 255)}.${ri(0, 255)}`;
    const hex = rep(ri(4, 40), () => '0123456789abcdef'[ri(0, 15)]);
    s += pick([
      `${ts} ${pick(levels)} [worker-${ri(0, 16)}] GET /api/v${ri(1, 3)}/users/${ri(1, 99999)}?token=${hex} from ${ip} -> ${pick([200, 301, 404, 500])} in ${ri(0, 5000)}ms`,
      `[${ts}] ${pick(levels)}: connection reset by peer (errno=${ri(1, 130)}) session=${hex}`,
      `${ip} - - [${ri(1, 28)}/Nov/2026:${ri(10, 23)}:${ri(10, 59)}:${ri(10, 59)} +0000] "POST /login HTTP/1.1" ${ri(200, 503)} ${ri(0, 99999)} "-" "Mozilla/5.0 (X11; Linux x86_64)"`,
      `kernel: [${ri(0, 99999)}.${ri(100000, 999999)}] usb ${ri(1, 4)}-${ri(1, 9)}: new high-speed USB device number ${ri(1, 99)} using xhci_hcd`,
      `\tat com.example.Service.handle(Service.java:${ri(1, 999)})`,
      `user=${pick(first).toLowerCase()} uid=${ri(1000, 60000)} path=/home/${pick(last).toLowerCase()}/.ssh/id_ed25519 mode=0${ri(600, 777)}`,
    ]) + pick(['\n', '\r\n', '\n', '']);
  }
  add('log', s);
}

// ---- JSON ----------------------------------------------------------------
function randJson(depth) {
  const r = rnd();
  if (depth > 2 || r < 0.3) {
    return pick([
      () => ri(-100000, 100000),
      () => rnd() * 1000,
      () => pick([true, false, null]),
      () => pick(first) + ' ' + pick(last),
      () => `${pick(first).toLowerCase()}@example.com`,
      () => rep(ri(0, 12), () => pick(['a', 'B', ' ', 'é', '中', '\n', '\\', '"', '/', '1'])),
    ])();
  }
  if (r < 0.65) return Array.from({ length: ri(0, 5) }, () => randJson(depth + 1));
  const o = {};
  for (let i = ri(0, 5); i > 0; i--) o[pick(['id', 'name', 'email', 'phone', 'address', 'items', 'meta', 'créé', 'данные', 'x_y'])] = randJson(depth + 1);
  return o;
}
for (let i = 0; i < 300; i++) add('json', JSON.stringify(randJson(0), null, pick([0, 0, 2, 4, '\t'])));

// ---- real multilingual text (gettext catalogs) ------------------------------
const moFiles = listFiles('/usr/share/locale', /^(gtk30|glib20|coreutils|gtk20|iso_3166-1|iso_639-3|bash|apt)\.mo$/);
const byLocale = new Map();
for (const p of moFiles) {
  const loc = p.split(path.sep).slice(-3)[0];
  if (!byLocale.has(loc)) byLocale.set(loc, []);
  byLocale.get(loc).push(...moStrings(p));
}
const locales = [...byLocale.keys()].filter((l) => byLocale.get(l).length > 20).sort();
for (let i = 0; i < 1200 && locales.length; i++) {
  const strs = byLocale.get(locales[i % locales.length]);
  const n = ri(1, 4);
  add('i18n', Array.from({ length: n }, () => pick(strs)).join(pick([' ', '\n', ' ', '. '])));
}

// ---- synthetic words in every script ------------------------------------------
const scripts = ['Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Nko', 'Samaritan', 'Mandaic', 'Devanagari', 'Bengali', 'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar', 'Georgian', 'Hangul', 'Ethiopic', 'Cherokee', 'Canadian_Aboriginal', 'Ogham', 'Runic', 'Tagalog', 'Hanunoo', 'Buhid', 'Tagbanwa', 'Khmer', 'Mongolian', 'Limbu', 'Tai_Le', 'New_Tai_Lue', 'Buginese', 'Tai_Tham', 'Balinese', 'Sundanese', 'Batak', 'Lepcha', 'Ol_Chiki', 'Glagolitic', 'Tifinagh', 'Coptic', 'Hiragana', 'Katakana', 'Bopomofo', 'Han', 'Yi', 'Lisu', 'Vai', 'Bamum', 'Syloti_Nagri', 'Phags_Pa', 'Saurashtra', 'Kayah_Li', 'Rejang', 'Javanese', 'Cham', 'Tai_Viet', 'Meetei_Mayek', 'Gothic', 'Deseret', 'Shavian', 'Osmanya', 'Cuneiform', 'Egyptian_Hieroglyphs', 'Adlam', 'Chakma', 'Brahmi', 'Kaithi', 'Sharada', 'Takri', 'Ahom', 'Tangut', 'Nushu', 'Wancho', 'Toto', 'Kawi', 'Nag_Mundari', 'Vithkuqi', 'Elymaic', 'Medefaidrin', 'Hanifi_Rohingya', 'Osage', 'Warang_Citi', 'Inherited', 'Common'];
const scriptChars = [];
for (const s of scripts) {
  let re;
  try {
    re = new RegExp(`^\\p{Script=${s}}$`, 'u');
  } catch (e) {
    continue;
  }
  const chars = [];
  for (let c = 0; c < 0x110000; c++) {
    if (c >= 0xd800 && c < 0xe000) continue;
    const ch = cp(c);
    if (re.test(ch) && /[\p{L}\p{M}\p{N}]/u.test(ch)) chars.push(ch);
  }
  if (chars.length) scriptChars.push([s, chars]);
}
for (let i = 0; i < 500; i++) {
  const [, chars] = scriptChars[i % scriptChars.length];
  const words = ri(1, 8);
  let s = '';
  for (let w = 0; w < words; w++) {
    s += rep(ri(1, 9), () => pick(chars));
    s += pick([' ', ' ', ', ', '. ', '\n', '', '-', ' 12 ', '\u3000', '\u00a0']);
  }
  add('script', s);
}

// ---- emoji ------------------------------------------------------------------------
const emojiBase = ['👋', '👍', '👨', '👩', '👧', '👦', '🧑', '🏳', '🏴', '❤', '✌', '☝', '🤝', '🐈', '🔥', '😀', '🙂', '🚀', '🇩', '🇪', '🇫', '🇷', '🇯', '🇵', '#', '*', '1'];
const skin = ['', '', '\u{1F3FB}', '\u{1F3FC}', '\u{1F3FD}', '\u{1F3FE}', '\u{1F3FF}'];
const fixedEmoji = ['👨‍👩‍👧‍👦', '👩🏽‍💻', '🏳️‍🌈', '🏴‍☠️', '🧑🏿‍🤝‍🧑🏻', '👁️‍🗨️', '❤️‍🔥', '1️⃣', '#️⃣', '🇺🇸', '🇩🇪🇫🇷', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '👋🏽', '✌🏿', '🫱🏼‍🫲🏾'];
for (let i = 0; i < 300; i++) {
  let s = '';
  for (let j = ri(1, 6); j > 0; j--) {
    const r = rnd();
    if (r < 0.4) s += pick(fixedEmoji);
    else if (r < 0.8) s += pick(emojiBase) + pick(skin) + (rnd() < 0.3 ? '\u200d' + pick(emojiBase) : '') + (rnd() < 0.2 ? '\ufe0f' : '');
    else s += pick(['hi', ' ', 'Zoë ', ' waved ', '.', '!', '\n', '20', "it's"]);
  }
  add('emoji', s);
}

// ---- combining marks ------------------------------------------------------------------
const marks = [];
for (let c = 0x300; c < 0x370; c++) marks.push(cp(c));
marks.push('\u0483', '\u0591', '\u05b0', '\u064b', '\u0650', '\u093f', '\u0940', '\u094d', '\u0e31', '\u0e48', '\u1ab0', '\u1dc0', '\u20d0', '\u20dd', '\ufe20', '\u{1d167}', '\u0903', '\u0488');
const bases = ['a', 'E', 'i', 'ǅ', 'ʰ', 'ª', '中', 'क', 'ก', '1', '٣', ' ', '\t', '\n', '.', "'", '-', '/', '', '', '\u00a0', 'ß', 'Ω', 'я'];
for (let i = 0; i < 300; i++) {
  let s = '';
  for (let j = ri(1, 10); j > 0; j--) s += pick(bases) + rep(ri(0, 3), () => pick(marks));
  add('marks', s);
}

// ---- whitespace -------------------------------------------------------------------------
const ws = [' ', ' ', ' ', '\t', '\n', '\r\n', '\r', '\v', '\f', '\u0085', '\u00a0', '\u1680', '\u2000', '\u2003', '\u2009', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\u200b', '\u180e', '\ufeff', '\x1c', '\x1f'];
const wsWords = ['word', 'Word', 'WORD', '123', '!', '"', '(x)', '-', 'é', '中文', "don't", '/', '<|endoftext|>', '', ''];
for (let i = 0; i < 500; i++) {
  let s = rnd() < 0.3 ? rep(ri(1, 4), () => pick(ws)) : '';
  for (let j = ri(1, 8); j > 0; j--) s += pick(wsWords) + rep(ri(0, rnd() < 0.2 ? 12 : 4), () => pick(ws));
  add('space', s);
}

// ---- digits ---------------------------------------------------------------------------------
const digitSets = ['0123456789', '٠١٢٣٤٥٦٧٨٩', '۰۱۲۳۴۵۶۷۸۹', '०१२३४५६७८९', '০১২৩৪৫৬৭৮৯', '０１２３４５６７８９', '๐๑๒๓๔๕๖๗๘๙', '²³¹¼½¾', 'ⅠⅡⅢⅣⅫↀ', '①②③⑳', '𝟎𝟏𝟐𝟗'];
for (let i = 0; i < 300; i++) {
  let s = '';
  for (let j = ri(1, 6); j > 0; j--) {
    const set = Array.from(rnd() < 0.6 ? digitSets[0] : pick(digitSets));
    s += rep(ri(1, 20), () => pick(set)) + pick(['', ' ', ',', '.', '-', 'x', 'a', 'KB', '%', ' ', '\n', '  ', '+', '/', ':']);
  }
  add('digits', s);
}

// ---- contractions -------------------------------------------------------------------------------
const sfx = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d"];
function caseMix(s) {
  return Array.from(s).map((c) => (rnd() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');
}
const cWords = ['it', 'IT', 'He', 'she', 'they', 'WE', 'you', 'I', 'o', 'rock', 'n', 'Ωμέγα', 'café', 'naïve', 'ǅemal', 'ʰx', '中', 'x1', '9', ' ', '', 'abc\u0301', 'ABC'];
for (let i = 0; i < 400; i++) {
  let s = '';
  for (let j = ri(1, 6); j > 0; j--) {
    const r = rnd();
    let suf = pick(sfx);
    if (r < 0.5) suf = caseMix(suf);
    else if (r < 0.6) suf = "'ſ";
    else if (r < 0.7) suf = pick(["''s", "'", "'x", "’s", "'S'", "'lL", "'rE", "'Ve", "'dd", "'ss", "'ll'", "'s'"]);
    s += pick(cWords) + suf + pick([' ', '', '.', ',', '\n', 'x', '1', ' ']);
  }
  add('contraction', s);
}

// ---- random code points --------------------------------------------------------------------------
function randCp() {
  const r = rnd();
  let c;
  if (r < 0.3) c = ri(0, 0x10ffff);
  else if (r < 0.55) c = ri(0x80, 0xffff);
  else if (r < 0.65) c = ri(0xe000, 0xf8ff); // private use
  else if (r < 0.7) c = ri(0xf0000, 0x10ffff); // planes 15-16, private use
  else if (r < 0.8) c = ri(0x10000, 0x3ffff);
  else if (r < 0.9) c = ri(0, 0x7f);
  else c = pick([0xfffe, 0xffff, 0xfffd, 0x1fffe, 0x10ffff, 0xe0001, 0xe0020, 0x0, 0x7f, 0x80, 0x9f, 0xad, 0x34f, 0x2ebf0, 0x31350, 0x1c89, 0x1c8a, 0x9fff, 0xa7cb, 0x10d40, 0x1e030, 0x1f8b0, 0x2fffe]);
  if (c >= 0xd800 && c < 0xe000) c = 0xe000 + (c & 0xff);
  return c;
}
for (let i = 0; i < 700; i++) add('randcp', rep(ri(1, 40), () => cp(randCp())));

// ---- nasty alphabet (every class of the regex) ------------------------------------------------------
const alpha = ['a', 'b', 's', 't', 'l', 'A', 'S', 'L', 'ǅ', 'ʰ', 'ª', '中', 'あ', '\u0301', '\u0903', '\u20dd', '1', '٣', '²', 'Ⅻ', ' ', ' ', '\t', '\n', '\r', '\u00a0', '\u3000', "'", "'", '/', '!', '.', '-', '"', '\u00ad', '\ufffd', '\u{10ffff}', '\u{e0001}', 'ſ', 'ß', 'İ', 'K', 'Ω', '\u2019'];
for (let i = 0; i < 900; i++) add('nasty', rep(ri(1, 30), () => pick(alpha)));

// ---- long pieces (heap BPE, long runs below the window) -------------------------------------------------
const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
for (let i = 0; i < 160; i++) {
  const n = pick([49, 60, 100, 200, 500, 1000, 2000, 3000, ri(49, 3500)]);
  add('long', pick([
    () => rep(n, () => pick(Array.from(b64))),
    () => ' ' + rep(n, () => pick(Array.from('abcdefghijklmnopqrstuvwxyz'))),
    () => rep(n, () => 'a'),
    () => 'x' + rep(n, () => ' ') + 'y',
    () => rep(n, () => pick(['-', '=', '*', '#', '.'])),
    () => rep(Math.min(n, 1200), () => pick(['中', '文', '字', 'あ', 'ア'])),
    () => 'sk-proj-' + rep(n, () => pick(Array.from('abc123XYZ'))),
    () => rep(Math.min(n, 800), () => pick(['ab', 'cd', 'Ef', 'GH'])),
    () => rep(Math.min(n, 1000), () => pick(['\n', '\r\n', ' ', '\t'])) + 'z',
  ])());
}

// ---- edge cases written by hand --------------------------------------------------------------------------
for (const s of [
  'Alice Smith lives at 123 Main Street and uses alice@example.com',
  'Call me at +44 20 7946 0958 on 2026-04-23.',
  'Zoë paid £20 and waved 👋🏽.',
  "export OPENAI_API_KEY='sk-proj-abc123abc123abc123abc123abc123abc123'",
  'The portal is https://intranet.example.com/login for all staff.',
  '<|endoftext|>', '<|endofprompt|> hi <|startoftext|>', ' ', '  ', '\n', '\r\n', ' \n ', 'a  ', 'a  b', '\t\tx', '...\n\n/', "'s", "x's", "X'S", "x'ſ", '1234567', ' 123', '٣٣٣٣',
  'ǅungla', 'ǅUNGLA', 'ABCdef', 'abcDEF', 'ʰʰʰ', 'ªb', '\u0301', ' \u0301', '\u0301a', 'a\u0301', '!\u0301', '1\u0301', '\u0301\u0301 ', 'İstanbul', 'ﬁnance', 'ΣΊΣΥΦΟΣ', 'ⅯⅯⅩⅩⅥ', 'x\u200dy', '\ufeffBOM',
]) add('edge', s);

// ---- expected outputs ------------------------------------------------------------------------------------
const enc = get_encoding('o200k_base');
const lenOf = new Map();
const lines = [];
let ntok = 0;
for (const { k, text } of corpus) {
  const ids = Array.from(enc.encode_ordinary(text));
  const lens = ids.map((id) => {
    if (!lenOf.has(id)) lenOf.set(id, enc.decode_single_token_bytes(id).length);
    return lenOf.get(id);
  });
  const total = lens.reduce((a, b) => a + b, 0);
  if (total !== Buffer.byteLength(text, 'utf8')) throw new Error('tokens do not tile the text');
  ntok += ids.length;
  lines.push(JSON.stringify({ k, text, ids, lens }));
}
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, lines.join('\n') + '\n');
console.log(`wrote ${out}: ${lines.length} strings, ${ntok} tokens`);

// A small sample in the formats of `pii-redact tokenize --jsonl`, for the
// CLI test (tests/cli/t_tok_cli.sh): input lines and the expected output.
const cliIn = [], cliOut = [];
for (let i = 0; i < corpus.length; i += 97) {
  const ids = Array.from(enc.encode_ordinary(corpus[i].text));
  let pos = 0;
  const offsets = ids.map((id) => {
    const s = pos;
    pos += lenOf.get(id);
    return [s, pos];
  });
  cliIn.push(JSON.stringify({ text: corpus[i].text }));
  cliOut.push(JSON.stringify({ ids, offsets }));
}
const dir = path.dirname(out);
fs.writeFileSync(path.join(dir, 'cli.jsonl'), cliIn.join('\n') + '\n');
fs.writeFileSync(path.join(dir, 'cli.expected.jsonl'), cliOut.join('\n') + '\n');
console.log(`wrote ${path.join(dir, 'cli.jsonl')}: ${cliIn.length} lines`);
