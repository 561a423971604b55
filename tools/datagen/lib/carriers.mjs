// carriers.mjs — the kinds of text an example is drawn from: messages,
// chats, tickets, forms, records (JSON, CSV), logs, code and configuration,
// letters, legal and medical prose, and negatives.  Every carrier appends to
// a Doc using the record's Ctx.

import { Doc } from './doc.mjs';
import { fill, slot, logTimestamp, timeOfDay, publicUrl, makeYMD, formatDate } from './ctx.mjs';
import { SENT, FIELDS } from './templates.mjs';
import { nameForm, title } from './names.mjs';
import { renderAddress, makeAddress } from './address.mjs';
import { makePhone, makeEmail, makePersonalUrl, localPart, asciiSlug } from './contact.mjs';
import { makeDate } from './dates.mjs';
import { makeCard, makeIban, makeBankAccount, CARD_BRAND } from './finance.mjs';
import { apiKey, password, pemKey, pemPublic, sshPublicKey, basicAuth, sessionToken } from './secrets.mjs';
import * as N from './negatives.mjs';

const GREET = {
  en: ['Hi {N},', 'Hello {N},', 'Dear {N},', 'Hey {N},', 'Good morning {N},', '{N},', 'Hi {N} -'],
  de: ['Hallo {N},', 'Liebe {N},', 'Sehr geehrte Damen und Herren,', 'Guten Tag {N},', 'Hi {N},'],
  fr: ['Bonjour {N},', 'Cher {N},', 'Madame, Monsieur,', 'Salut {N},'],
  es: ['Hola {N},', 'Estimado {N}:', 'Buenos días {N},'],
  it: ['Ciao {N},', 'Gentile {N},', 'Buongiorno {N},'],
  nl: ['Hoi {N},', 'Beste {N},', 'Geachte heer/mevrouw,'],
  pt: ['Olá {N},', 'Prezado {N},', 'Oi {N},'],
  el: ['Γεια σου {N},', 'Αγαπητέ {N},', 'Καλημέρα {N},'],
  ja: ['{N}様', '{N}さん', 'お世話になっております。'],
  pl: ['Dzień dobry,', 'Cześć {N},'], sv: ['Hej {N},'], tr: ['Merhaba {N},'], ru: ['Здравствуйте, {N}!'],
};
const CLOSE = {
  en: ['Best,', 'Thanks,', 'Best regards,', 'Kind regards,', 'Cheers,', 'Sincerely,', 'Regards,', 'Thank you,', '--', 'All the best,'],
  de: ['Viele Grüße', 'Mit freundlichen Grüßen', 'Beste Grüße', 'LG'], fr: ['Cordialement,', 'Bien à vous,', 'Merci,'],
  es: ['Saludos,', 'Un saludo,', 'Atentamente,'], it: ['Cordiali saluti,', 'Grazie,', 'Un saluto,'], nl: ['Met vriendelijke groet,', 'Groetjes,'],
  pt: ['Abraços,', 'Atenciosamente,'], el: ['Με εκτίμηση,', 'Ευχαριστώ,', 'Φιλικά,'], ja: ['よろしくお願いいたします。', '以上、よろしくお願いします。'],
  pl: ['Pozdrawiam,'], sv: ['Hälsningar,'], tr: ['Saygılarımla,'], ru: ['С уважением,'],
};
const BODY_EN = [
  'Just following up on our call yesterday.', 'Please find the documents attached.', 'Let me know if anything is missing.',
  'I have updated the spreadsheet with the latest numbers.', 'The meeting has been moved to next week.',
  'Thanks again for your help with the migration.', 'Could you take a look when you get a chance?',
  'We are still waiting on approval from legal.', 'I will be out of office until Monday.', 'Happy to jump on a call if easier.',
  'The invoice should arrive within five business days.', 'Our team reviewed the proposal and we have a few questions.',
  'I\'ve attached the signed contract for your records.', 'Sorry for the late reply, it has been a busy week.',
  'Looking forward to seeing everyone at the offsite.', 'The shipment was delayed because of the holidays.',
];
const SUBJECTS = ['Re: your request', 'Follow-up', 'Updated contact details', 'Appointment confirmation', 'Invoice {ORDER}',
  'Quick question', 'Fwd: documents', 'Change of address', 'Payment details', 'Welcome aboard!', 'Re: Re: lease renewal',
  'Password reset', 'Your order {ORDER} has shipped', 'Meeting notes', 'Reference letter', 'Account verification'];
const JOB_TITLES = ['Senior Account Manager', 'Software Engineer', 'Head of Operations', 'Customer Success Lead', 'Office Manager',
  'Paralegal', 'Registered Nurse', 'Product Designer', 'Data Analyst', 'CFO', 'HR Business Partner', 'Sales Director',
  'Project Coordinator', 'Research Assistant', 'Attorney at Law', 'Freelance Photographer', 'Teacher', 'Pharmacist'];

function L(ctx, tab) { return tab[ctx.lang] || tab.en; }
function sent(ctx) { return ctx.rng.pick(SENT[ctx.lang] || SENT.en); }
function nl(doc, n = 1) { doc.t('\n'.repeat(n)); }

// ---------------------------------------------------------------- sentences
export function sentences(ctx, doc) {
  const r = ctx.rng;
  const n = r.weighted([[5, 1], [3, 2], [2, 3], [1, 4]]);
  let last = null;
  for (let i = 0; i < n; i++) {
    if (i) doc.t(r.weighted([[6, ' '], [2, '\n'], [1, '\n\n']]));
    if (ctx.lang === 'en' && r.chance(0.25)) fill(ctx, doc, r.pick(SENT.en_neg));
    else { let t = sent(ctx); if (t === last) t = sent(ctx); last = t; fill(ctx, doc, t); }
  }
}
export function negSentences(ctx, doc) {
  const r = ctx.rng;
  const n = r.range(1, 4);
  for (let i = 0; i < n; i++) { if (i) doc.t(' '); fill(ctx, doc, r.pick(SENT.en_neg)); }
}

// ---------------------------------------------------------------- signature
function signature(ctx, doc, i = 0) {
  const r = ctx.rng;
  doc.s('private_person', ctx.name(i, r.weighted([[6, 'full'], [2, 'given'], [1, 'initfam']])));
  if (r.chance(0.5)) { nl(doc); doc.t(r.pick(JOB_TITLES)); }
  if (r.chance(0.5)) { nl(doc); doc.t(ctx.company()); }
  if (r.chance(0.6)) { nl(doc); doc.t(r.pick(['', 'Tel: ', 'T: ', 'Phone: ', 'M: ', 'Mobile: ', 'Direct: ', 'Tel. '])); doc.s('private_phone', ctx.phone(i)); }
  if (r.chance(0.4)) { nl(doc); doc.t(r.pick(['', 'Email: ', 'E: '])); doc.s('private_email', ctx.email(i)); }
  if (r.chance(0.2)) { nl(doc); doc.s('private_url', makePersonalUrl(ctx, ctx.person(i))); }
  if (r.chance(0.25)) { nl(doc); doc.s('private_address', renderAddress(r, ctx.address(i), r.chance(0.5) ? 'line' : 'multi', r.chance(0.3))); }
}

// ---------------------------------------------------------------- email
export function email(ctx, doc) {
  const r = ctx.rng, lang = ctx.lang;
  if (r.chance(0.6)) {
    doc.t('From: '); doc.s('private_person', ctx.name(0, 'full')); doc.t(' <'); doc.s('private_email', ctx.email(0)); doc.t('>\n');
    doc.t('To: ');
    if (r.chance(0.7)) { doc.s('private_person', ctx.name(1, 'full')); doc.t(' <'); doc.s('private_email', ctx.email(1)); doc.t('>'); }
    else doc.s('private_email', ctx.email(1));
    nl(doc);
    if (r.chance(0.2)) { doc.t('Cc: '); doc.s('private_email', makeEmail(ctx, ctx.person(2), lang)); nl(doc); }
    if (r.chance(0.5)) { doc.t('Date: '); doc.t(new Date(Date.UTC(2024, 0, 1) + r.int(7e10)).toUTCString()); nl(doc); }
    doc.t('Subject: '); fill(ctx, doc, r.pick(SUBJECTS)); doc.t('\n\n');
  }
  const g = r.pick(L(ctx, GREET));
  const parts = g.split('{N}');
  doc.t(parts[0]);
  if (parts.length > 1) { doc.s('private_person', ctx.name(1, r.weighted([[6, 'given'], [2, 'full'], [1, 'family']]))); doc.t(parts[1]); }
  doc.t('\n\n');
  const n = r.range(1, 4);
  for (let i = 0; i < n; i++) {
    if (lang === 'en' && r.chance(0.35)) doc.t(r.pick(BODY_EN));
    else fill(ctx, doc, sent(ctx));
    doc.t(r.chance(0.6) ? ' ' : '\n\n');
  }
  doc.t('\n\n' + r.pick(L(ctx, CLOSE)) + '\n');
  signature(ctx, doc, 0);
  if (r.chance(0.15)) {
    doc.t('\n\n' + r.pick(['On ', 'Am ', 'Le ']));
    doc.t(new Date(Date.UTC(2023, 0, 1) + r.int(6e10)).toDateString());
    doc.t(', '); doc.s('private_person', ctx.name(1, 'full')); doc.t(' <'); doc.s('private_email', ctx.email(1)); doc.t('> wrote:\n> ');
    fill(ctx, doc, sent(ctx).replace(/\n/g, '\n> '));
  }
}

// ---------------------------------------------------------------- chat
const CHAT_EN = ['ok', 'sure thing', 'on my way', 'lol', 'thx!', 'can you send me the address?', 'what\'s your number again?',
  'running 5 min late', 'sounds good', 'did you get my email?', 'np', 'call me when you can', 'here it is', 'sent!', 'perfect, thanks',
  'which card should I use?', 'the wifi pw?', 'where do we meet?', 'what time is the appointment?', 'yes', '👍', 'haha', 'brb'];
const CHAT_PII = ['my number is {PHONE}', 'it\'s {ADDR}', '{ADDR}', 'email me at {EMAIL}', 'here: {URL}', 'pw is {PW}', 'use {CARD}',
  'her name is {P2.full}', 'appointment is on {FDATE} at {TIME}', 'call {P2.first} at {PHONE2}', 'IBAN: {IBAN}', 'born {DOB}',
  'new email: {EMAIL}', 'the key is {KEY}', 'my bday is {DOB}', 'send it to {ADDR.line}', '{PHONE}'];
export function chat(ctx, doc) {
  const r = ctx.rng;
  const style = r.pick(['bracket', 'colon', 'slack', 'irc', 'plain']);
  const n = r.range(3, 10);
  const p0 = ctx.name(0, r.chance(0.6) ? 'given' : 'full'), p1 = ctx.name(1, r.chance(0.6) ? 'given' : 'full');
  let h = r.range(7, 21), mi = r.int(60);
  for (let i = 0; i < n; i++) {
    const who = i % 2 === 0 ? p0 : p1;
    mi += r.range(0, 7); if (mi >= 60) { mi -= 60; h = (h + 1) % 24; }
    const ts = `${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}`;
    if (style === 'bracket') { doc.t(`[${ts}] `); doc.s('private_person', who); doc.t(': '); }
    else if (style === 'colon') { doc.s('private_person', who); doc.t(': '); }
    else if (style === 'slack') { doc.s('private_person', who); doc.t(`  ${ts}\n`); }
    else if (style === 'irc') { doc.t(`${ts} <`); doc.s('private_person', who.toLowerCase().replace(/\s+/g, '_')); doc.t('> '); }
    else if (i === 0) { doc.s('private_person', who); doc.t(' - '); }
    if (ctx.lang !== 'en' && r.chance(0.5)) fill(ctx, doc, sent(ctx));
    else if (r.chance(0.4)) fill(ctx, doc, r.pick(CHAT_PII));
    else doc.t(r.pick(CHAT_EN));
    nl(doc);
  }
}

// ---------------------------------------------------------------- ticket
const ISSUES = ['Cannot log in after password reset.', 'Charged twice for the same order.', 'Package marked delivered but not received.',
  'Need to update billing address on my account.', 'App crashes when uploading a photo.', 'Requesting a refund for a damaged item.',
  'Please close my account and delete my data.', 'Two-factor codes are not arriving.', 'Wrong size shipped.', 'Subscription renewed unexpectedly.'];
export function ticket(ctx, doc) {
  const r = ctx.rng;
  doc.t(`Ticket ${N.ticketId(r)} | Priority: ${r.pick(['Low', 'Normal', 'High', 'Urgent'])} | Status: ${r.pick(['Open', 'Pending', 'Resolved'])}\n`);
  doc.t(`Created: ${logTimestamp(r)}\n`);
  doc.t(`${r.pick(['Customer', 'Requester', 'Reported by', 'Contact'])}: `); doc.s('private_person', ctx.name(0, r.pick(['full', 'full', 'upper', 'famcomma'])));
  if (r.chance(0.7)) { doc.t(' <'); doc.s('private_email', ctx.email(0)); doc.t('>'); }
  nl(doc);
  if (r.chance(0.5)) { doc.t('Phone: '); doc.s('private_phone', ctx.phone(0)); nl(doc); }
  if (r.chance(0.5)) { doc.t(`Order: ${N.orderNumber(r)}  Product: ${N.product(r)}  Amount: ${N.price(r)}\n`); }
  doc.t(`Subject: ${r.pick(ISSUES)}\n\n`);
  doc.t('Description:\n');
  const n = r.range(1, 3);
  for (let i = 0; i < n; i++) { fill(ctx, doc, r.chance(0.7) ? sent(ctx) : r.pick(SENT.en_neg)); doc.t(' '); }
  if (r.chance(0.6)) {
    doc.t('\n\n--- Agent note (');
    doc.s('private_person', ctx.name(2, r.pick(['given', 'full', 'initfam'])));
    doc.t(`, ${logTimestamp(r)}) ---\n`);
    doc.t(r.pick(['Verified identity via ', 'Customer confirmed ', 'Called back on ', 'Updated record with ']));
    const k = r.int(4);
    if (k === 0) { doc.t('date of birth '); doc.s('private_date', ctx.once('dob', () => makeDate(ctx, 'dob', ctx.lang))); }
    else if (k === 1) doc.s('private_phone', ctx.phone(0));
    else if (k === 2) { doc.t('new address '); doc.s('private_address', renderAddress(r, makeAddress(ctx, ctx.lang), 'line', false)); }
    else { doc.t('card '); doc.s('account_number', ctx.card().text); }
    doc.t('.');
  }
}

// ---------------------------------------------------------------- forms
export function form(ctx, doc) {
  const r = ctx.rng, F = FIELDS[ctx.lang] || FIELDS.en;
  const sep = r.pick([': ', ': ', ':\t', ' - ', ' = ', '：']);
  const upperKeys = r.chance(0.15);
  const key = (k) => { const s = r.pick(F[k]); return upperKeys ? s.toUpperCase() : s; };
  if (r.chance(0.5)) doc.t(r.pick(['PATIENT INTAKE FORM', 'New Customer Registration', 'Employee Onboarding', 'Rental Application',
    'Change of Details', 'Membership Application', 'Direct Debit Mandate', 'Anmeldung', 'Formulaire d\'inscription', '申込書', 'Αίτηση']) + '\n\n');
  const fields = r.shuffle(['dob', 'addr', 'phone', 'email', 'url', 'card', 'iban', 'acct', 'date', 'pw', 'org', 'ref']).slice(0, r.range(3, 8));
  if (r.chance(0.3)) { doc.t(key('first') + sep); doc.s('private_person', ctx.name(0, 'given')); nl(doc); doc.t(key('last') + sep); doc.s('private_person', ctx.name(0, 'family')); nl(doc); }
  else { doc.t(key('name') + sep); doc.s('private_person', ctx.name(0, r.pick(['full', 'full', 'famcomma', 'upper', 'FAMgiven']))); nl(doc); }
  for (const f of fields) {
    doc.t(key(f) + sep);
    switch (f) {
      case 'dob': doc.s('private_date', ctx.once('dob', () => makeDate(ctx, 'dob', ctx.lang))); break;
      case 'addr': doc.s('private_address', renderAddress(r, ctx.address(0), r.chance(0.8) ? 'line' : 'multi', r.chance(0.3))); break;
      case 'phone': doc.s('private_phone', ctx.phone(0)); break;
      case 'email': doc.s('private_email', ctx.email(0)); break;
      case 'url': doc.s('private_url', makePersonalUrl(ctx, ctx.person(0))); break;
      case 'card': doc.s('account_number', ctx.card().text); break;
      case 'iban': doc.s('account_number', makeIban(ctx)); break;
      case 'acct': doc.s('account_number', makeBankAccount(ctx, ctx.lang === 'ja' ? 'JP' : 'US')); break;
      case 'date': doc.s('private_date', makeDate(ctx, r.chance(0.5) ? 'recent' : 'future', ctx.lang)); break;
      case 'pw': doc.s('secret', password(r)); break;
      case 'org': doc.t(ctx.company()); break;
      case 'ref': doc.t(N.orderNumber(r)); break;
    }
    nl(doc);
  }
  if (r.chance(0.3)) { doc.t(r.pick(['Signature: ', 'Unterschrift: ', 'Signé : ', 'Firma: ', '署名：'])); doc.s('private_person', ctx.name(0, 'full')); doc.t(`   ${r.pick(['Date', 'Datum', 'Fecha', '日付'])}: `); doc.s('private_date', makeDate(ctx, 'recent', ctx.lang)); nl(doc); }
}

// ---------------------------------------------------------------- JSON records
function jstr(s) { return JSON.stringify(s); }
function jval(doc, label, v) { const q = JSON.stringify(v); doc.t('"'); if (label) doc.s(label, q.slice(1, -1)); else doc.t(q.slice(1, -1)); doc.t('"'); }
export function jsonRecord(ctx, doc) {
  const r = ctx.rng;
  const pretty = r.chance(0.6);
  const ind = pretty ? '\n  ' : ' ', ind2 = pretty ? '\n    ' : ' ', end = pretty ? '\n' : ' ';
  const camel = r.chance(0.5);
  const k = (snake) => jstr(camel ? snake.replace(/_(\w)/g, (_, c) => c.toUpperCase()) : snake);
  const fields = [];
  fields.push(() => { doc.t(`${k('id')}: ${r.chance(0.5) ? r.range(1, 999999) : jstr(N.uuid(r))}`); });
  if (r.chance(0.5)) { fields.push(() => { doc.t(`${k('first_name')}: `); jval(doc, 'private_person', ctx.name(0, 'given')); });
    fields.push(() => { doc.t(`${k('last_name')}: `); jval(doc, 'private_person', ctx.name(0, 'family')); }); }
  else fields.push(() => { doc.t(`${k(r.pick(['name', 'full_name', 'display_name', 'customer_name']))}: `); jval(doc, 'private_person', ctx.name(0, 'full')); });
  if (r.chance(0.8)) fields.push(() => { doc.t(`${k('email')}: `); jval(doc, 'private_email', ctx.email(0)); });
  if (r.chance(0.6)) fields.push(() => { doc.t(`${k(r.pick(['phone', 'phone_number', 'mobile']))}: `); jval(doc, 'private_phone', ctx.phone(0)); });
  if (r.chance(0.4)) fields.push(() => { doc.t(`${k(r.pick(['dob', 'date_of_birth', 'birthdate']))}: `); jval(doc, 'private_date', formatDate(r, makeYMD(r, 'dob'), 'en', r.chance(0.7) ? 'iso' : null)); });
  if (r.chance(0.5)) fields.push(() => {
    const a = ctx.address(0);
    if (r.chance(0.5)) { doc.t(`${k('address')}: `); jval(doc, 'private_address', renderAddress(r, a, 'line', r.chance(0.3))); }
    else {
      doc.t(`${k('address')}: {`);
      const parts = a.lines;
      doc.t(ind2 + `${k('line1')}: `); jval(doc, 'private_address', parts[0]);
      for (let i = 1; i < parts.length; i++) { doc.t(',' + ind2 + `${k('line' + (i + 1))}: `); jval(doc, 'private_address', parts[i]); }
      if (r.chance(0.5)) { doc.t(',' + ind2 + `${k('country')}: `); jval(doc, 'private_address', a.country || 'US'); }
      doc.t((pretty ? '\n  ' : ' ') + '}');
    }
  });
  if (r.chance(0.2)) fields.push(() => { doc.t(`${k('website')}: `); jval(doc, 'private_url', makePersonalUrl(ctx, ctx.person(0))); });
  if (r.chance(0.2)) fields.push(() => { doc.t(`${k(r.pick(['iban', 'bank_account']))}: `); jval(doc, 'account_number', makeIban(ctx)); });
  if (r.chance(0.15)) fields.push(() => { doc.t(`${k('card_number')}: `); jval(doc, 'account_number', makeCard(ctx, { sep: '' }).text); });
  if (r.chance(0.15)) fields.push(() => { doc.t(`${k(r.pick(['api_key', 'access_token', 'password']))}: `); jval(doc, 'secret', r.chance(0.6) ? apiKey(r).value : password(r)); });
  // negatives
  fields.push(() => { doc.t(`${k('created_at')}: ${jstr(logTimestamp(r))}`); });
  if (r.chance(0.5)) fields.push(() => { doc.t(`${k('company')}: ${jstr(ctx.company())}`); });
  if (r.chance(0.4)) fields.push(() => { doc.t(`${k('status')}: ${jstr(r.pick(['active', 'pending', 'suspended', 'verified']))}`); });
  if (r.chance(0.3)) fields.push(() => { doc.t(`${k('total')}: ${(r.range(1, 99999) / 100).toFixed(2)}`); });
  if (r.chance(0.3)) fields.push(() => { doc.t(`${k('last_login_ip')}: ${jstr(N.ipv4(r))}`); });
  if (r.chance(0.3)) fields.push(() => { doc.t(`${k('order_id')}: ${jstr(N.orderNumber(r))}`); });
  const order = [fields[0], ...r.shuffle(fields.slice(1))];
  const wrapArr = r.chance(0.2);
  if (wrapArr) doc.t(`{${ind}${k('data')}: [{`); else doc.t('{');
  order.forEach((fn, i) => { doc.t((i ? ',' : '') + ind); fn(); });
  doc.t(end + '}');
  if (wrapArr) doc.t(`], ${k('total_count')}: 1}`);
}

// ---------------------------------------------------------------- CSV
export function csv(ctx, doc) {
  const r = ctx.rng;
  const cols = ['name', ...r.shuffle(['email', 'phone', 'dob', 'city', 'address', 'iban', 'signup_date', 'plan', 'amount']).slice(0, r.range(2, 5))];
  const delim = r.weighted([[5, ','], [2, ';'], [1, '\t'], [1, '|']]);
  doc.t(['id', ...cols].join(delim) + '\n');
  const rows = r.range(2, 6);
  for (let i = 0; i < rows; i++) {
    ctx.people.length = 0; ctx.cache.clear(); ctx.mentioned.clear();
    doc.t(String(1000 + r.int(9000)));
    for (const c of cols) {
      doc.t(delim);
      const q = (label, v) => { const needQ = v.includes(delim) || v.includes('\n') || v.includes('"'); if (needQ) doc.t('"'); doc.s(label, needQ ? v.replace(/"/g, '""') : v); if (needQ) doc.t('"'); };
      switch (c) {
        case 'name': q('private_person', ctx.name(0, r.pick(['full', 'full', 'famcomma']))); break;
        case 'email': q('private_email', ctx.email(0)); break;
        case 'phone': q('private_phone', ctx.phone(0)); break;
        case 'dob': q('private_date', formatDate(r, makeYMD(r, 'dob'), 'en', r.pick(['iso', 'us', 'eu']))); break;
        case 'city': doc.t(r.pick(N.CITIES)); break; // a city column alone is not an address
        case 'address': q('private_address', renderAddress(r, ctx.address(0), 'line', false)); break;
        case 'iban': q('account_number', makeIban(ctx, null, { grouped: false })); break;
        case 'signup_date': doc.t(formatDate(r, makeYMD(r, 'recent'), 'en', 'iso')); break;
        case 'plan': doc.t(r.pick(['free', 'pro', 'enterprise', 'basic'])); break;
        case 'amount': doc.t((r.range(100, 99999) / 100).toFixed(2)); break;
      }
    }
    nl(doc);
  }
}

// ---------------------------------------------------------------- logs
const SERVICES = ['auth', 'api', 'billing', 'worker', 'gateway', 'mailer', 'scheduler', 'db', 'nginx', 'payments', 'search'];
const LEVELS = ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR'];
export function logs(ctx, doc) {
  const r = ctx.rng;
  const n = r.range(3, 12);
  const fmt = r.pick(['plain', 'kv', 'json', 'access', 'syslog']);
  for (let i = 0; i < n; i++) {
    ctx.cache.clear(); ctx.people.length = 0; ctx.mentioned.clear();
    const ts = logTimestamp(r), lvl = r.pick(LEVELS), svc = r.pick(SERVICES);
    const pii = r.chance(0.45);
    if (fmt === 'access') {
      doc.t(`${N.ipv4(r)} - - [${ts}] "${r.pick(['GET', 'POST', 'PUT', 'DELETE'])} `);
      if (pii && r.chance(0.5)) { doc.t('/api/v1/users?email='); doc.s('private_email', encodeURIComponent(ctx.email(0)).replace(/%40/g, '@')); }
      else if (pii) { doc.t('/reset?token='); doc.s('secret', sessionToken(r)); }
      else doc.t(r.pick(['/', '/health', '/api/v1/orders/' + r.range(1, 99999), '/static/app.' + N.gitHash(r, true) + '.js', '/login']));
      doc.t(` HTTP/1.1" ${r.pick([200, 200, 201, 204, 301, 400, 401, 404, 500])} ${r.range(0, 50000)} "-" "${r.pick(['Mozilla/5.0 (X11; Linux x86_64)', 'curl/8.4.0', 'python-requests/2.31.0', 'okhttp/4.12.0'])}"\n`);
      continue;
    }
    if (fmt === 'json') {
      doc.t(`{"ts":"${ts}","level":"${lvl.toLowerCase()}","svc":"${svc}","req_id":"${N.uuid(r)}","msg":"`);
    } else if (fmt === 'syslog') {
      doc.t(`${ts} ${r.pick(['web-01', 'db-primary', 'ip-10-0-3-17', 'worker-3'])} ${svc}[${r.range(100, 65000)}]: `);
    } else {
      doc.t(`${ts} ${lvl} [${svc}] `);
    }
    const kv = fmt === 'kv';
    const k = r.int(9);
    if (!pii) {
      doc.t(r.pick([`request completed in ${N.quantity(r)}`, `cache miss for key ${N.identifier(r)}`, `connected to ${N.ipv4(r)}:${N.port(r)}`,
        `job ${N.uuid(r)} finished status=ok`, `deployed ${N.version(r)} (${N.gitHash(r, true)})`, `retrying in ${r.range(1, 30)}s`,
        `order ${N.orderNumber(r)} total=${N.price(r)}`, `GC pause ${r.range(1, 200)}ms heap=${r.range(100, 4000)}MB`, `health check passed`]));
    } else if (k === 0) { doc.t(kv ? 'event=login user=' : 'login succeeded for '); doc.s('private_email', ctx.email(0)); doc.t(kv ? ` ip=${N.ipv4(r)}` : ` from ${N.ipv4(r)}`); }
    else if (k === 1) { doc.t(kv ? 'event=auth header="Authorization: Bearer ' : 'Authorization: Bearer '); doc.s('secret', sessionToken(r)); if (kv) doc.t('"'); }
    else if (k === 2) { doc.t(kv ? 'config db_password=' : 'using password '); doc.s('secret', password(r)); }
    else if (k === 3) { doc.t(`${kv ? 'api_key=' : 'loaded API key '}`); doc.s('secret', apiKey(r).value); }
    else if (k === 4) { doc.t(`sms sent to `); doc.s('private_phone', ctx.phone(0)); doc.t(` template=${N.identifier(r)}`); }
    else if (k === 5) { doc.t(`payment declined card=`); doc.s('account_number', makeCard(ctx, { sep: '' }).text); doc.t(` amount=${N.price(r)}`); }
    else if (k === 6) { doc.t(`user profile updated name="`); doc.s('private_person', ctx.name(0, 'full')); doc.t('"'); }
    else if (k === 7) { doc.t(`shipping label created for `); doc.s('private_address', renderAddress(r, ctx.address(0), 'line', r.chance(0.3))); }
    else { doc.t(`connecting to postgres://${r.pick(['app', 'admin', 'svc_user', 'postgres'])}:`); doc.s('secret', password(r)); doc.t(`@${r.pick(['db.internal', N.ipv4(r), 'localhost'])}:5432/${r.pick(['prod', 'app', 'users'])}`); }
    if (fmt === 'json') doc.t('"}');
    nl(doc);
  }
}

// ---------------------------------------------------------------- code and config
export function code(ctx, doc) {
  const r = ctx.rng;
  const kind = r.pick(['env', 'yaml', 'py', 'js', 'ini', 'curl', 'test', 'sql', 'ssh', 'pem', 'docker', 'gitlog']);
  switch (kind) {
    case 'env':
      for (let i = 0, n = r.range(3, 8); i < n; i++) {
        const t = r.int(6);
        if (t === 0) { doc.t(`${r.pick(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'STRIPE_SECRET_KEY', 'OPENAI_API_KEY', 'GITHUB_TOKEN', 'SENDGRID_API_KEY', 'SLACK_BOT_TOKEN'])}=`); doc.s('secret', apiKey(r).value); }
        else if (t === 1) { doc.t(`${r.pick(['DB_PASSWORD', 'POSTGRES_PASSWORD', 'REDIS_PASSWORD', 'SMTP_PASS', 'ADMIN_PASSWORD'])}=`); doc.s('secret', password(r)); }
        else if (t === 2) { doc.t(`${r.pick(['ADMIN_EMAIL', 'SMTP_USER', 'ALERT_EMAIL'])}=`); doc.s('private_email', ctx.email(0)); }
        else doc.t(r.pick([`PORT=${N.port(r)}`, `NODE_ENV=production`, `LOG_LEVEL=info`, `DB_HOST=${N.ipv4(r)}`, `APP_VERSION=${N.version(r)}`, `FEATURE_FLAGS=${N.identifier(r)}`, `TIMEOUT_MS=${r.range(100, 30000)}`, `REGION=eu-west-1`]));
        nl(doc);
      }
      break;
    case 'yaml':
      doc.t(`version: "${N.version(r)}"\nservices:\n  ${r.pick(SERVICES)}:\n    image: ${r.pick(['postgres', 'redis', 'nginx', 'node'])}:${r.range(10, 20)}\n    environment:\n`);
      doc.t(`      - ${r.pick(['POSTGRES_PASSWORD', 'API_TOKEN', 'SECRET_KEY'])}=`); doc.s('secret', r.chance(0.5) ? password(r) : apiKey(r).value); nl(doc);
      doc.t(`      - ${r.pick(['MAINTAINER', 'OWNER_EMAIL'])}=`); doc.s('private_email', ctx.email(0)); nl(doc);
      doc.t(`    ports:\n      - "${N.port(r)}:${N.port(r)}"\n`);
      break;
    case 'py':
      doc.t(`import requests\n\n${r.pick(['API_KEY', 'TOKEN', 'api_key', 'SECRET'])} = "`); doc.s('secret', apiKey(r).value); doc.t('"\n\n');
      doc.t(`def ${N.identifier(r).replace(/-/g, '_').toLowerCase()}(${N.identifier(r).replace(/-/g, '_').toLowerCase()}):\n    """Fetch the record and notify the owner."""\n`);
      doc.t(`    resp = requests.get("${publicUrl(r)}", timeout=${r.range(1, 30)})\n`);
      if (r.chance(0.6)) { doc.t('    notify("'); doc.s('private_email', ctx.email(0)); doc.t(`", resp.json()["${N.identifier(r)}"])\n`); }
      doc.t('    return resp.status_code\n');
      break;
    case 'js':
      doc.t(`const ${N.identifier(r).replace(/-/g, '_')} = require('${r.pick(['axios', 'express', 'pg', 'stripe'])}');\n`);
      doc.t(`const client = new Client({\n  host: '${r.pick(['localhost', 'db.internal', N.ipv4(r)])}',\n  user: '${r.pick(['app', 'admin', 'readonly'])}',\n  password: '`); doc.s('secret', password(r)); doc.t(`',\n  port: ${N.port(r)},\n});\n`);
      if (r.chance(0.5)) { doc.t(`// TODO(${asciiSlug(ctx.person(0).given) || 'dev'}): remove before release\n`); }
      break;
    case 'ini':
      doc.t(`[database]\nhost = ${N.ipv4(r)}\nport = ${N.port(r)}\nuser = ${r.pick(['app', 'svc', 'root'])}\npassword = `); doc.s('secret', password(r)); doc.t('\n\n[smtp]\nserver = smtp.' + r.pick(['mailgun.org', 'sendgrid.net', 'office365.com']) + '\nusername = '); doc.s('private_email', ctx.email(0)); doc.t('\n');
      break;
    case 'curl':
      doc.t(`curl -X ${r.pick(['GET', 'POST'])} ${publicUrl(r)} \\\n  -H "Authorization: Bearer `); doc.s('secret', apiKey(r).value); doc.t('" \\\n  -H "Content-Type: application/json"');
      if (r.chance(0.6)) { doc.t(` \\\n  -d '{"email": "`); doc.s('private_email', ctx.email(0)); doc.t('", "name": "'); doc.s('private_person', ctx.name(0, 'full')); doc.t('"}\''); }
      nl(doc);
      break;
    case 'test':
      doc.t(`def test_${N.identifier(r).replace(/-/g, '_').toLowerCase()}():\n    user = User(\n        name="`); doc.s('private_person', ctx.name(0, 'full')); doc.t('",\n        email="'); doc.s('private_email', ctx.email(0)); doc.t('",\n        phone="'); doc.s('private_phone', ctx.phone(0)); doc.t(`",\n    )\n    assert user.${N.identifier(r).replace(/-/g, '_').toLowerCase()}() is not None\n`);
      break;
    case 'sql':
      doc.t(`INSERT INTO customers (${['name', 'email', 'phone', 'birth_date'].join(', ')}) VALUES\n`);
      for (let i = 0, n = r.range(1, 3); i < n; i++) {
        ctx.people.length = 0; ctx.cache.clear();
        doc.t(i ? ',\n  (\'' : '  (\''); doc.s('private_person', ctx.name(0, 'full').replace(/'/g, "''")); doc.t("', '"); doc.s('private_email', ctx.email(0)); doc.t("', '"); doc.s('private_phone', ctx.phone(0)); doc.t("', '"); doc.s('private_date', formatDate(r, makeYMD(r, 'dob'), 'en', 'iso')); doc.t("')");
      }
      doc.t(';\n');
      break;
    case 'ssh': {
      const u = asciiSlug(ctx.person(0).given) || 'user';
      doc.t('# ~/.ssh/authorized_keys\n'); doc.t(sshPublicKey(r, `${u}@${r.pick(['laptop', 'workstation', 'build-01'])}`)); nl(doc);
      if (r.chance(0.5)) { doc.t('\n# deploy key (DO NOT COMMIT)\n'); doc.s('secret', pemKey(r)); nl(doc); }
      else { doc.t('\n'); doc.t(pemPublic(r)); nl(doc); }
      break;
    }
    case 'pem':
      doc.t(r.pick(['Here is the key you asked for:\n\n', 'server.key:\n', '', 'key.pem\n']));
      doc.s('secret', pemKey(r)); nl(doc);
      break;
    case 'docker':
      doc.t(`FROM python:3.${r.range(8, 12)}-slim\nWORKDIR /app\nCOPY . .\nRUN pip install -r requirements.txt\nENV ${r.pick(['API_TOKEN', 'SECRET_KEY', 'DJANGO_SECRET_KEY'])}=`); doc.s('secret', apiKey(r).value); doc.t(`\nEXPOSE ${N.port(r)}\nCMD ["python", "main.py"]\n`);
      break;
    case 'gitlog':
      for (let i = 0, n = r.range(1, 3); i < n; i++) {
        ctx.people.length = 0; ctx.cache.clear();
        doc.t(`commit ${N.gitHash(r)}\nAuthor: `); doc.s('private_person', ctx.name(0, 'full')); doc.t(' <'); doc.s('private_email', ctx.email(0)); doc.t(`>\nDate:   ${new Date(Date.UTC(2022, 0, 1) + r.int(9e10)).toUTCString()}\n\n    ${r.pick(['Fix race in', 'Refactor', 'Add tests for', 'Bump', 'Document', 'Remove dead code in'])} ${N.identifier(r)}\n\n`);
      }
      break;
  }
}

// ---------------------------------------------------------------- letters, legal, medical, HR
export function letter(ctx, doc) {
  const r = ctx.rng;
  const a = ctx.address(0);
  if (r.chance(0.5)) {
    doc.t(r.pick(['Ship to:\n', 'SHIP TO\n', 'Deliver to:\n', 'Recipient:\n', 'Lieferadresse:\n', 'Destinataire :\n', '']));
    doc.s('private_person', ctx.name(0, r.pick(['full', 'full', 'upper'])));
    nl(doc);
    doc.s('private_address', renderAddress(r, a, 'multi', r.chance(0.5)));
    if (r.chance(0.5)) { nl(doc); doc.t(r.pick(['Tel: ', 'Phone: ', ''])); doc.s('private_phone', ctx.phone(0)); }
    doc.t(`\n\nOrder ${N.orderNumber(r)} · ${r.range(1, 5)} item(s) · Tracking ${N.trackingNumber(r)}\n`);
    return;
  }
  doc.s('private_person', ctx.name(1, 'full')); nl(doc); doc.s('private_address', renderAddress(r, ctx.address(1), 'multi', false)); doc.t('\n\n');
  doc.s('private_date', makeDate(ctx, 'recent', ctx.lang)); doc.t('\n\n');
  const ttl = ctx.lang === 'ja' ? '' : title(r, ctx.lang, ctx.person(0)) + ' ';
  doc.t(ttl); doc.s('private_person', ctx.name(0, 'full')); doc.t(ctx.lang === 'ja' ? ' 様' : ''); nl(doc);
  doc.s('private_address', renderAddress(r, a, 'multi', r.chance(0.3))); doc.t('\n\n');
  const g = r.pick(L(ctx, GREET)).split('{N}');
  doc.t(g[0]); if (g.length > 1) { doc.t(ttl); doc.s('private_person', ctx.name(0, 'family')); doc.t(g[1]); }
  doc.t('\n\n');
  for (let i = 0, n = r.range(1, 3); i < n; i++) { fill(ctx, doc, sent(ctx)); doc.t(' '); }
  doc.t('\n\n' + r.pick(L(ctx, CLOSE)) + '\n\n');
  doc.s('private_person', ctx.name(1, 'full'));
}

const LEGAL = [
  'This {AGREEMENT} (the "Agreement") is entered into on {DATE} by and between {ORG}, a company organized under the laws of {STATE_OR_COUNTRY} ("Company"), and {P}, an individual residing at {ADDR} ("Contractor").',
  'The Landlord, {P2}, hereby leases to the Tenant, {P}, the premises located at {ADDR.line} for a term commencing on {FDATE}.',
  'I, {P}, born on {DOB}, of {ADDR}, being of sound mind, declare this to be my last will and testament.',
  'The parties agree that all notices shall be sent to {P} at {EMAIL} or by post to {ADDR}.',
  'Payments under this Agreement shall be made to the account {IBAN} held by {P}.',
  'IN WITNESS WHEREOF, the parties have executed this Agreement as of {DATE}.\n\n_____________________\n{P}\n\n_____________________\n{P2}, on behalf of {ORG}',
  'The Employee, {P}, shall commence employment on {FDATE} and report to {P2}.',
  'Notice is hereby given that {P} of {ADDR} has applied for a change of name.',
  'Section {N}. Governing Law. This Agreement shall be governed by the laws of the State of Delaware, without regard to its conflict of laws principles.',
  'Confidential Information does not include information that is or becomes publicly available through no fault of the Receiving Party.',
  'The Plaintiff, {P}, alleges that on {DATE} the Defendant, {ORG}, failed to deliver the goods.',
];
export function legal(ctx, doc) {
  const r = ctx.rng;
  const n = r.range(1, 4);
  for (let i = 0; i < n; i++) {
    if (i) doc.t('\n\n');
    const t = r.pick(LEGAL).replace('{AGREEMENT}', r.pick(['Consulting Agreement', 'Services Agreement', 'Non-Disclosure Agreement', 'Employment Agreement']))
      .replace('{STATE_OR_COUNTRY}', r.pick(['the State of Delaware', 'England and Wales', 'Germany', 'the State of California']));
    fill(ctx, doc, t);
  }
}

const MED = [
  'Patient: {P}\nDOB: {DOB}\nMRN: {MRN}\nDate of visit: {DATE}\n',
  'Chief complaint: {SYMPTOM} for {N} days.',
  'History: {AGE}-year-old with a history of {DISEASE}, presenting with {SYMPTOM}.',
  'Plan: start {PRODUCT_MED}; follow-up appointment with {T} {P2.last} on {FDATE}.',
  'Referred by {T} {P2} ({PHONE2}).',
  'Next of kin: {P3}, {PHONE3}.',
  'Discharged on {DATE} in stable condition. Contact {PHONE} with questions.',
  'Vitals: BP {BP}, HR {HR}, temp 37.{N} °C.',
  'Allergies: {ALLERGY}. No known drug interactions.',
  'Insurance: {ORG}, member ID {MRN}.',
];
export function medical(ctx, doc) {
  const r = ctx.rng;
  const picks = [MED[0], ...r.sample(MED.slice(1), r.range(2, 5))];
  for (const t of picks) {
    const s = t.replace('{MRN}', `${r.pick(['MRN', 'PT', ''])}${r.digits(r.range(6, 9))}`)
      .replace('{SYMPTOM}', r.pick(['chest pain', 'shortness of breath', 'persistent cough', 'lower back pain', 'headaches', 'fatigue', 'fever']))
      .replace('{PRODUCT_MED}', r.pick(['metformin 500 mg', 'amoxicillin 500 mg TID', 'ibuprofen 400 mg PRN', 'lisinopril 10 mg daily']))
      .replace('{BP}', `${r.range(100, 160)}/${r.range(60, 100)}`).replace('{HR}', String(r.range(55, 110)))
      .replace('{AGE}', String(r.range(18, 90))).replace('{DISEASE}', r.pick(['Parkinson\'s disease', 'Crohn\'s disease', 'Hodgkin lymphoma', 'Alzheimer\'s disease', 'type 2 diabetes', 'hypertension', 'asthma']))
      .replace('{ALLERGY}', r.pick(['penicillin', 'none known', 'peanuts', 'latex', 'sulfa drugs']));
    fill(ctx, doc, s);
    doc.t(s.endsWith('\n') ? '' : '\n');
  }
}

export function resume(ctx, doc) {
  const r = ctx.rng;
  doc.s('private_person', ctx.name(0, r.pick(['full', 'upper']))); nl(doc);
  doc.t(r.pick(JOB_TITLES)); nl(doc);
  const bits = r.shuffle([
    () => doc.s('private_email', ctx.email(0)), () => doc.s('private_phone', ctx.phone(0)),
    () => doc.s('private_url', makePersonalUrl(ctx, ctx.person(0))), () => doc.s('private_address', renderAddress(r, ctx.address(0), 'line', false)),
  ]).slice(0, r.range(2, 4));
  bits.forEach((b, i) => { if (i) doc.t(r.pick([' | ', ' · ', '\n', ' • '])); b(); });
  doc.t('\n\nEXPERIENCE\n');
  for (let i = 0, n = r.range(1, 3); i < n; i++) {
    const y = r.range(2005, 2022);
    doc.t(`${N.company(ctx, 'en')} — ${r.pick(JOB_TITLES)} (${y}–${r.chance(0.3) ? 'present' : y + r.range(1, 3)})\n- ${r.pick(['Led migration of', 'Built', 'Maintained', 'Designed'])} ${r.pick(['the billing platform', 'a data pipeline', 'customer onboarding', 'the mobile app'])} used by ${r.range(2, 900)}k users\n`);
  }
  doc.t(`\nEDUCATION\n${r.pick(['B.Sc. Computer Science', 'MBA', 'B.A. Economics', 'M.Sc. Physics'])}, ${r.pick(['Stanford University', 'University of Manchester', 'TU München', 'Sorbonne Université', 'University of Tokyo', 'National Technical University of Athens'])}\n`);
  if (r.chance(0.3)) { doc.t('References: '); doc.s('private_person', ctx.name(1, 'full')); doc.t(', '); doc.s('private_phone', ctx.phone(1)); nl(doc); }
}

// ---------------------------------------------------------------- synthetic negatives
export function negDoc(ctx, doc) {
  const r = ctx.rng;
  const k = r.int(6);
  if (k === 0) {
    doc.t(`# Changelog\n\n## [${N.version(r)}] - ${logTimestamp(r).slice(0, 10)}\n### Fixed\n- ${r.pick(['Crash when', 'Memory leak in', 'Wrong output of'])} \`${N.identifier(r)}\` (#${r.range(10, 9999)})\n- Bump ${r.pick(['lodash', 'openssl', 'libxml2', 'requests'])} to ${N.version(r)}\n### Added\n- Support for ${N.product(r)}\n`);
  } else if (k === 1) {
    doc.t(`Traceback (most recent call last):\n  File "/usr/lib/python3/dist-packages/${N.identifier(r)}.py", line ${r.range(10, 900)}, in ${N.identifier(r)}\n    return self._${N.identifier(r)}(key)\nKeyError: '${N.identifier(r)}'\n`);
  } else if (k === 2) {
    doc.t(`Order summary\nOrder ${N.orderNumber(r)}\n`);
    for (let i = 0, n = r.range(1, 4); i < n; i++) doc.t(`${r.range(1, 3)} x ${N.product(r)} (${N.sku(r)}) ${N.price(r)}\n`);
    doc.t(`Subtotal: ${N.price(r)}\nShipping: ${N.price(r)}\nTracking: ${N.trackingNumber(r)}\nQuestions? Visit ${publicUrl(r)}\n`);
  } else if (k === 3) {
    doc.t(`${N.company(ctx)} ${r.pick(['reported', 'announced', 'confirmed'])} ${r.pick(['record earnings', 'a new CEO search', 'layoffs', 'a data center'])} in ${r.pick(N.CITIES)} on ${r.pick(['Tuesday', 'Monday', 'Friday'])}. Shares rose ${N.percent(r)}. The ${N.product(r)} will ship in ${r.pick(['spring', 'Q3', 'the fall'])} at ${N.price(r)}; analysts at ${r.pick(N.PERSON_NAMED_ORGS)} expect demand near ${r.pick(N.PUBLIC_PLACES)} stores to stay strong.`);
  } else if (k === 4) {
    doc.t(`${N.product(r)} review: ${r.range(1, 5)}/5 stars. ${r.pick(['Battery life is great', 'Setup took minutes', 'Stopped working after a week', 'Good value for the price'])}. Bought it at ${r.pick(N.PERSON_NAMED_ORGS)} for ${N.price(r)}. Version ${N.version(r)} firmware fixed the Bluetooth issue.`);
  } else {
    doc.t(`$ git log --oneline\n`);
    for (let i = 0, n = r.range(2, 6); i < n; i++) doc.t(`${N.gitHash(r, true)} ${r.pick(['Merge pull request #', 'Fix #', 'Release v'])}${r.range(1, 999)} ${N.identifier(r)}\n`);
    doc.t(`$ docker ps\nCONTAINER ID   IMAGE   STATUS\n${N.gitHash(r, true)}   ${r.pick(['nginx', 'redis', 'postgres'])}:${N.version(r)}   Up ${r.range(1, 48)} hours\n`);
  }
}

// ---------------------------------------------------------------- markup: vCard, HTML, Markdown, XML
function esc(s) { return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'); }
export function markup(ctx, doc) {
  const r = ctx.rng;
  const p = ctx.person(0);
  const k = r.int(4);
  if (k === 0) {
    const a = ctx.address(0);
    doc.t('BEGIN:VCARD\nVERSION:3.0\nN:'); doc.s('private_person', p.family); doc.t(';'); doc.s('private_person', p.given); doc.t(';;;\nFN:');
    doc.s('private_person', ctx.name(0, 'full')); doc.t(`\nORG:${ctx.company()}\n`);
    doc.t(`TEL;TYPE=${r.pick(['CELL', 'WORK,VOICE', 'HOME'])}:`); doc.s('private_phone', ctx.phone(0));
    doc.t('\nEMAIL;TYPE=INTERNET:'); doc.s('private_email', ctx.email(0));
    if (r.chance(0.7)) {
      doc.t('\nADR;TYPE=HOME:;;'); doc.s('private_address', a.lines[0]);
      for (const l of a.lines.slice(1)) { doc.t(';'); doc.s('private_address', l); }
      doc.t(';'); doc.s('private_address', a.country || 'USA');
    }
    if (r.chance(0.5)) { doc.t('\nBDAY:'); doc.s('private_date', formatDate(r, makeYMD(r, 'dob'), 'en', 'iso')); }
    if (r.chance(0.3)) { doc.t('\nURL:'); doc.s('private_url', makePersonalUrl(ctx, p)); }
    doc.t(`\nREV:${logTimestamp(r).replace(/[-:]/g, '').slice(0, 15)}\nEND:VCARD\n`);
  } else if (k === 1) {
    doc.t(`<div class="${r.pick(['contact-card', 'author', 'profile', 'vcard'])}">\n  <h3>`); doc.s('private_person', esc(ctx.name(0, 'full'))); doc.t('</h3>\n');
    doc.t(`  <p class="title">${esc(r.pick(JOB_TITLES))}, ${esc(ctx.company())}</p>\n`);
    const e = ctx.email(0);
    doc.t('  <a href="mailto:'); doc.s('private_email', e); doc.t('">'); doc.s('private_email', e); doc.t('</a><br>\n');
    doc.t('  <span class="tel">'); doc.s('private_phone', ctx.phone(0)); doc.t('</span>\n');
    if (r.chance(0.5)) { doc.t('  <address>'); doc.s('private_address', esc(renderAddress(r, ctx.address(0), 'line', false))); doc.t('</address>\n'); }
    doc.t(`  <a href="${publicUrl(r)}">Company website</a>\n</div>\n`);
  } else if (k === 2) {
    doc.t(`| ${r.pick(['Name', 'Employee', 'Contact'])} | ${r.pick(['Email', 'E-mail'])} | Phone | ${r.pick(['Team', 'Department', 'Role'])} |\n|---|---|---|---|\n`);
    for (let i = 0, n = r.range(2, 5); i < n; i++) {
      ctx.people.length = 0; ctx.cache.clear(); ctx.mentioned.clear();
      doc.t('| '); doc.s('private_person', ctx.name(0, r.pick(['full', 'full', 'initfam']))); doc.t(' | '); doc.s('private_email', ctx.email(0));
      doc.t(' | '); doc.s('private_phone', ctx.phone(0)); doc.t(` | ${r.pick(['Sales', 'Engineering', 'Finance', 'Support', 'Legal', 'HR'])} |\n`);
    }
  } else {
    doc.t(`<?xml version="1.0" encoding="UTF-8"?>\n<customer id="${r.range(1000, 99999)}">\n  <name>`); doc.s('private_person', esc(ctx.name(0, 'full'))); doc.t('</name>\n  <email>'); doc.s('private_email', ctx.email(0));
    doc.t('</email>\n  <phone>'); doc.s('private_phone', ctx.phone(0)); doc.t('</phone>\n');
    if (r.chance(0.6)) { doc.t('  <birthDate>'); doc.s('private_date', formatDate(r, makeYMD(r, 'dob'), 'en', 'iso')); doc.t('</birthDate>\n'); }
    if (r.chance(0.4)) { doc.t('  <iban>'); doc.s('account_number', makeIban(ctx, null, { grouped: false })); doc.t('</iban>\n'); }
    doc.t(`  <createdAt>${logTimestamp(r)}</createdAt>\n  <tier>${r.pick(['gold', 'silver', 'basic'])}</tier>\n</customer>\n`);
  }
}
