// contact.mjs — phone numbers, email addresses and URLs.

// '#' any digit, 'N' 2-9.  Patterns written for this project from the
// public numbering plans (national and international forms).
const PHONE = {
  US: ['(N##) N##-####', 'N##-N##-####', 'N##.N##.####', '+1 N## N## ####', '+1-N##-N##-####', '1-N##-N##-####',
    '+1 (N##) N##-####', 'N##N######', '(N##)N##-####', '001-N##-N##-####', '+1N##N######', 'N## N## ####'],
  UK: ['020 7### ####', '+44 20 7### ####', '07### ######', '+44 7### ######', '+44 (0)20 #### ####', '01### ######',
    '0161 ### ####', '+44 161 ### ####', '(0113) ### ####', '07###-######', '+447#########'],
  DE: ['030 ########', '+49 30 ########', '0171 #######', '+49 171 #######', '+49 (0)89 #######', '089/######',
    '0221 ### ## ##', '+49 1## ########', '(030) #######', '040-#######', '+4915#########'],
  AT: ['+43 1 #######', '0664 #######', '+43 664 ### ####', '01/### ## ##'],
  CH: ['+41 44 ### ## ##', '044 ### ## ##', '079 ### ## ##', '+41 79 ### ## ##'],
  FR: ['01 ## ## ## ##', '06 ## ## ## ##', '+33 1 ## ## ## ##', '+33 6 ## ## ## ##', '07.##.##.##.##', '+33 (0)6 ## ## ## ##',
    '04-##-##-##-##', '09########'],
  ES: ['91# ### ###', '6## ### ###', '+34 6## ## ## ##', '+34 91# ## ## ##', '93 ### ## ##', '+34 6########'],
  IT: ['06 #### ####', '02 ########', '3## ### ####', '+39 3## ### ####', '+39 06 ########', '347 #######'],
  NL: ['020 ### ####', '06 ########', '+31 6 ########', '+31 20 ### ####', '06-########', '010-#######'],
  PT: ['+351 21# ### ###', '91# ### ###', '+351 9## ### ###'],
  BR: ['(11) 9####-####', '(21) ####-####', '+55 11 9####-####', '+55 (21) 9####-####', '11 9########'],
  MX: ['55 #### ####', '+52 55 #### ####', '(33) #### ####', '+52 1 55 #### ####'],
  PL: ['+48 ### ### ###', '### ### ###', '22 ### ## ##', '+48 22 ### ## ##'],
  SE: ['08-### ### ##', '070-### ## ##', '+46 70 ### ## ##', '+46 8 ### ### ##'],
  NO: ['+47 ## ## ## ##', '## ## ## ##', '+47 4## ## ###'],
  DK: ['+45 ## ## ## ##', '## ## ## ##'],
  FI: ['040 ### ####', '+358 40 ### ####', '09 ### ####'],
  GR: ['210 ### ####', '+30 210 #######', '69# ### ####', '+30 69# ### ####', '2310 ######', '+30 2310 ######', '6#########'],
  JP: ['03-####-####', '090-####-####', '080-####-####', '+81 3-####-####', '+81 90-####-####', '06-####-####',
    '(03) ####-####', '0120-###-###', '+81-90-####-####', '045-###-####'],
  CN: ['+86 1## #### ####', '1##########', '010-########', '+86 10 ########', '021-########'],
  KR: ['010-####-####', '+82 10-####-####', '02-###-####', '+82 2 #### ####'],
  IN: ['+91 9#### #####', '+91-9#########', '09#########', '+91 80 #### ####', '022-########', '9#### #####'],
  AU: ['(02) #### ####', '04## ### ###', '+61 4## ### ###', '+61 2 #### ####', '0412 ### ###', '1300 ### ###'],
  CA: ['(N##) N##-####', '+1 N##-N##-####', 'N##-N##-####', '1 (N##) N##-####'],
  IE: ['+353 1 ### ####', '08# ### ####', '+353 8# ### ####', '01 ### ####'],
  RU: ['+7 (9##) ###-##-##', '8 (9##) ###-##-##', '+7 495 ###-##-##', '+79#########'],
  TR: ['+90 5## ### ## ##', '0 (5##) ### ## ##', '0212 ### ## ##', '+90 212 ### ## ##'],
  ZA: ['+27 82 ### ####', '082 ### ####', '021 ### ####', '+27 21 ### ####'],
  NG: ['+234 80# ### ####', '080# ### ####', '+234 70# ### ####', '0803 ### ####'],
  BE: ['+32 2 ### ## ##', '04## ## ## ##', '+32 4## ## ## ##'],
  CZ: ['+420 ### ### ###', '6## ### ###', '7## ### ###'],
  HU: ['+36 1 ### ####', '+36 20 ### ####', '06 30 ### ####'],
  RO: ['+40 7## ### ###', '07## ### ###', '021 ### ####'],
  IL: ['+972 5#-###-####', '05#-###-####', '03-###-####'],
  VN: ['+84 9# ### ## ##', '09# ### ####', '028 #### ####'],
};

function fill(rng, pat) {
  let s = '';
  for (const ch of pat) s += ch === '#' ? String(rng.int(10)) : ch === 'N' ? String(2 + rng.int(8)) : ch;
  return s;
}

const FULLWIDTH = (s) => s.replace(/[0-9\-+()]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

export function makePhone(ctx, country = 'US', opts = {}) {
  const rng = ctx.rng;
  const pats = PHONE[country] || PHONE.US;
  let s = fill(rng, rng.pick(pats));
  if (opts.ext ?? rng.chance(0.08)) {
    const ext = { DE: [' Durchwahl ', '-'], AT: ['-'], CH: [' intern '], FR: [' poste '], BE: [' poste '], ES: [' ext. '], JP: [' 内線'] }[country] || [' ext. ', ' ext ', ' x', 'x', ' Ext. ', ' #', ' (ext. ', ' extension '];
    s += rng.pick(ext) + String(rng.range(1, 9999));
    if (s.includes('(ext. ')) s += ')';
  }
  if (country === 'JP' && rng.chance(0.08)) s = FULLWIDTH(s);
  return s;
}

// ---- email ----------------------------------------------------------------

const FREEMAIL = {
  en: ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'icloud.com', 'aol.com', 'proton.me', 'protonmail.com',
    'live.com', 'msn.com', 'comcast.net', 'verizon.net', 'btinternet.com', 'yahoo.co.uk', 'mail.com', 'fastmail.com',
    'zoho.com', 'gmx.com', 'yandex.com', 'rediffmail.com', 'hey.com'],
  de: ['gmx.de', 'web.de', 't-online.de', 'freenet.de', 'posteo.de', 'gmail.com', 'mailbox.org', 'gmx.at', 'bluewin.ch'],
  fr: ['orange.fr', 'free.fr', 'laposte.net', 'sfr.fr', 'wanadoo.fr', 'gmail.com', 'hotmail.fr', 'yahoo.fr'],
  es: ['gmail.com', 'hotmail.es', 'yahoo.es', 'telefonica.net', 'outlook.es', 'prodigy.net.mx'],
  it: ['libero.it', 'virgilio.it', 'alice.it', 'tiscali.it', 'gmail.com', 'yahoo.it'],
  nl: ['ziggo.nl', 'kpnmail.nl', 'gmail.com', 'hotmail.nl', 'planet.nl', 'telenet.be'],
  pt: ['gmail.com', 'uol.com.br', 'bol.com.br', 'terra.com.br', 'sapo.pt'],
  el: ['gmail.com', 'otenet.gr', 'yahoo.gr', 'hotmail.gr', 'windowslive.gr'],
  ja: ['gmail.com', 'yahoo.co.jp', 'docomo.ne.jp', 'ezweb.ne.jp', 'i.softbank.jp', 'nifty.com', 'outlook.jp'],
  pl: ['wp.pl', 'onet.pl', 'o2.pl', 'interia.pl', 'gmail.com'],
  ru: ['mail.ru', 'yandex.ru', 'rambler.ru', 'gmail.com'],
  sv: ['telia.com', 'gmail.com', 'hotmail.se', 'bredband.net'],
  tr: ['gmail.com', 'hotmail.com.tr', 'yandex.com.tr'],
};
const TLDS = ['com', 'com', 'com', 'net', 'org', 'io', 'co', 'dev', 'de', 'fr', 'co.uk', 'es', 'it', 'nl', 'gr', 'jp',
  'co.jp', 'ca', 'com.au', 'in', 'ch', 'at', 'be', 'se', 'pl', 'com.br', 'mx', 'ie', 'app', 'tech', 'studio', 'me', 'info', 'eu', 'biz'];

const DEACCENT = (s) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ß/g, 'ss').replace(/[øØ]/g, 'o')
  .replace(/[łŁ]/g, 'l').replace(/[æÆ]/g, 'ae').replace(/[đĐ]/g, 'd').replace(/ı/g, 'i');
export function asciiSlug(s) { return DEACCENT(s).toLowerCase().replace(/[^a-z0-9]+/g, ''); }
function latinish(p) { return p.script === 'latn' && /[a-z]/i.test(DEACCENT(p.given)) && /[a-z]/i.test(DEACCENT(p.family)); }

const HANDLE_WORDS = ['sunny', 'blue', 'moon', 'river', 'tiger', 'pixel', 'coffee', 'rocket', 'ocean', 'maple', 'wolf',
  'star', 'green', 'happy', 'lucky', 'cool', 'dragon', 'panda', 'ninja', 'nova', 'jazz', 'cloud', 'storm', 'cat'];

export function localPart(rng, p) {
  if (!p || !latinish(p)) {
    return rng.pick(HANDLE_WORDS) + rng.pick(['', '.', '_']) + rng.pick(HANDLE_WORDS) + (rng.chance(0.6) ? rng.range(1, 9999) : '');
  }
  const g = asciiSlug(p.given.split(/[\s-]/)[0]) || 'x', f = asciiSlug(p.family.split(' ')[0]) || 'y';
  const y = rng.chance(0.5) ? String(rng.range(60, 99)) : String(rng.range(1, 2024));
  return rng.weighted([[10, `${g}.${f}`], [5, `${g}${f}`], [5, `${g[0]}${f}`], [4, `${g}_${f}`], [3, `${g}.${f}${y}`],
    [3, `${g}${y}`], [2, `${f}.${g}`], [2, `${g[0]}.${f}`], [2, `${f}${g[0]}`], [2, `${g}-${f}`], [1, `${g}`],
    [1, `${g}.${f[0]}`], [1, `${g[0].toUpperCase()}${f[0].toUpperCase()}${f.slice(1)}`], [1, `${g}+${rng.pick(['news', 'shop', 'work', 'github'])}`]]);
}

export function companyDomain(rng, company) {
  const base = asciiSlug(company.replace(/\b(Inc|LLC|Ltd|GmbH|AG|SAS|S\.?A|s\.r\.l|BV|NV|Corp|Co|PLC|und|and|e|y)\b\.?/gi, ' ').split(/[\s,&-]+/).filter(Boolean).slice(0, 2).join(rng.chance(0.3) ? '-' : '')) || 'example';
  return base.slice(0, 24) + '.' + rng.pick(TLDS);
}

export function makeEmail(ctx, p, lang = 'en', opts = {}) {
  const rng = ctx.rng;
  const local = localPart(rng, p);
  let domain;
  if (opts.domain) domain = opts.domain;
  else if (rng.chance(0.5)) domain = rng.pick(FREEMAIL[lang] || FREEMAIL.en);
  else if (rng.chance(0.1)) domain = rng.pick(['müller-bau.de', 'bäckerei-schön.de', 'café-lumière.fr', 'españa-viajes.es', 'straße.at', 'ελληνικά.gr']);
  else domain = companyDomain(rng, opts.company || ctx.company());
  let e = `${local}@${domain}`;
  if (rng.chance(0.03)) e = e.toUpperCase();
  else if (rng.chance(0.05)) e = e.replace(/^./, (c) => c.toUpperCase());
  return e;
}

// ---- URLs -----------------------------------------------------------------

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const B64U = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

// URLs that point at a person or a private resource (labelled private_url).
export function makePersonalUrl(ctx, p) {
  const rng = ctx.rng;
  const lat = p && latinish(p);
  const g = lat ? asciiSlug(p.given.split(/[\s-]/)[0]) : rng.pick(HANDLE_WORDS);
  const f = lat ? asciiSlug(p.family.split(' ')[0]) : rng.pick(HANDLE_WORDS);
  const handle = rng.weighted([[3, `${g}${f}`], [2, `${g}.${f}`], [2, `${g}-${f}`], [2, `${g[0]}${f}`], [1, `${g}_${f}${rng.range(1, 99)}`]]);
  const proto = rng.weighted([[7, 'https://'], [1, 'http://'], [2, '']]);
  const www = rng.chance(0.3) ? 'www.' : '';
  const kind = rng.weighted([[6, 'own'], [3, 'linkedin'], [2, 'github'], [2, 'social'], [2, 'doc'], [1, 'cal'], [1, 'meet'],
    [1, 'photo'], [1, 'idn'], [2, 'ownpath'], [1, 'query']]);
  switch (kind) {
    case 'own': return `${proto}${www}${rng.chance(0.5) ? g + f : g + '-' + f}.${rng.pick(TLDS)}${rng.chance(0.3) ? '/' : ''}`;
    case 'ownpath': return `${proto || 'https://'}${www}${g}${f}.${rng.pick(TLDS)}/${rng.pick(['about', 'blog', 'cv', 'portfolio', 'contact', 'photos/2019', 'blog/' + rng.range(2015, 2025) + '/' + rng.range(1, 12) + '/my-trip', 'resume.pdf', '~' + g])}`;
    case 'linkedin': return `${proto || 'https://'}${rng.chance(0.6) ? 'www.' : ''}linkedin.com/in/${g}-${f}${rng.chance(0.5) ? '-' + rng.chars(ALNUM, rng.range(6, 9)) : ''}${rng.chance(0.2) ? '/' : ''}`;
    case 'github': return `${proto || 'https://'}${rng.pick(['github.com', 'gitlab.com', 'codeberg.org', 'bitbucket.org'])}/${handle}`;
    case 'social': return `${proto || 'https://'}${rng.pick(['twitter.com', 'x.com', 'instagram.com', 'www.facebook.com', 'mastodon.social/@', 'www.tiktok.com/@', 'bsky.app/profile', 'medium.com/@', 'www.youtube.com/@'])}`.replace(/([^@/])$/, '$1/') + handle;
    case 'doc': return `https://${rng.pick(['docs.google.com/document/d/', 'drive.google.com/file/d/', 'docs.google.com/spreadsheets/d/', 'www.dropbox.com/s/', 'onedrive.live.com/redir?resid=', '1drv.ms/u/s!'])}${rng.chars(B64U, rng.range(20, 44))}${rng.chance(0.5) ? rng.pick(['/edit?usp=sharing', '/view', '?dl=0', '/edit#gid=0']) : ''}`;
    case 'cal': return `https://calendly.com/${g}-${f}/${rng.pick(['30min', '15min', 'intro', 'consultation'])}`;
    case 'meet': return rng.chance(0.5) ? `https://zoom.us/j/${rng.digits(rng.range(9, 11))}?pwd=${rng.chars(B64U.slice(0, 62), 32)}` : `https://meet.google.com/${rng.chars('abcdefghijklmnopqrstuvwxyz', 3)}-${rng.chars('abcdefghijklmnopqrstuvwxyz', 4)}-${rng.chars('abcdefghijklmnopqrstuvwxyz', 3)}`;
    case 'photo': return `https://${rng.pick(['photos.app.goo.gl/', 'www.flickr.com/photos/' + handle + '/', 'imgur.com/a/', 'share.icloud.com/photos/'])}${rng.chars(B64U.slice(0, 62), rng.range(8, 22))}`;
    case 'idn': return `${proto || 'https://'}${rng.pick(['müller-familie.de', 'josé-garcía.es', 'françois-lefèvre.fr', 'παπαδόπουλος.gr', 'たなか.jp', 'søren-østergaard.dk', 'zoë-ng.com', 'ştefan.ro'])}${rng.chance(0.4) ? '/' + rng.pick(['kontakt', 'blog', 'fotos', 'about']) : ''}`;
    case 'query': return `https://${rng.pick(['portal.', 'my.', 'account.', 'app.', ''])}${rng.pick(['clinic', 'bank', 'insure', 'school', 'gym', 'dentist', 'housing'])}${rng.pick(['-online', 'hub', 'plus', ''])}.${rng.pick(TLDS)}/${rng.pick(['patient', 'profile', 'user', 'member', 'account'])}?id=${rng.digits(rng.range(5, 9))}${rng.chance(0.5) ? '&token=' + rng.chars(ALNUM, 24) : ''}`;
  }
  return `https://${g}${f}.com`;
}

// Public, non-personal URLs (hard negatives; not labelled).
const PUBLIC_URLS = ['https://www.gnu.org/licenses/', 'https://www.python.org/downloads/', 'https://docs.python.org/3/library/json.html',
  'https://developer.mozilla.org/en-US/docs/Web/HTTP', 'https://www.apache.org/licenses/LICENSE-2.0', 'https://www.w3.org/TR/html52/',
  'https://en.wikipedia.org/wiki/Unicode', 'https://www.debian.org/releases/', 'https://kernel.org', 'https://nodejs.org/api/fs.html',
  'https://www.rfc-editor.org/rfc/rfc5322', 'https://status.example-cloud.com', 'https://www.bbc.co.uk/news', 'https://www.who.int',
  'https://registry.npmjs.org/', 'https://pypi.org/project/requests/', 'https://crates.io', 'https://www.iana.org/domains/reserved',
  'http://localhost:8080/health', 'http://127.0.0.1:5000/api/v1/items', 'https://api.example.com/v2/orders?limit=50',
  'https://cdn.jsdelivr.net/npm/vue@3', 'https://fonts.googleapis.com/css2?family=Inter', 'https://www.un.org/en/',
  'https://www.nasa.gov', 'https://www.europa.eu', 'https://support.apple.com/en-us/HT201236', 'https://learn.microsoft.com/en-us/windows/',
  'https://www.openssl.org/docs/', 'https://curl.se/docs/manpage.html', 'https://sqlite.org/lang.html', 'https://www.postgresql.org/docs/16/',
  'https://www.amazon.com/gp/help/customer/display.html', 'https://www.ikea.com/us/en/', 'https://www.booking.com', 'https://www.nytimes.com/section/world'];
export function publicUrl(rng) {
  if (rng.chance(0.7)) return rng.pick(PUBLIC_URLS);
  const host = rng.pick(['docs', 'api', 'www', 'status', 'downloads', 'support', 'help', 'cdn', 'blog']) + '.' + rng.pick(['acme-cloud.com', 'northwind.io', 'contoso.com', 'globex.net', 'initech.dev', 'umbrella-corp.org', 'example.org']);
  return `https://${host}/${rng.pick(['v1', 'v2', 'en', 'docs', 'guide', 'release-notes', 'pricing', 'faq'])}/${rng.pick(['', 'getting-started', 'install', 'changelog', 'index.html', 'errors#E' + rng.range(100, 999)])}`;
}
