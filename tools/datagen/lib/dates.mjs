// dates.mjs — calendar dates written in many formats and languages.

const MONTHS = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  de: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
  it: ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'],
  nl: ['januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december'],
  pt: ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'],
  el: ['Ιανουαρίου', 'Φεβρουαρίου', 'Μαρτίου', 'Απριλίου', 'Μαΐου', 'Ιουνίου', 'Ιουλίου', 'Αυγούστου', 'Σεπτεμβρίου', 'Οκτωβρίου', 'Νοεμβρίου', 'Δεκεμβρίου'],
  pl: ['stycznia', 'lutego', 'marca', 'kwietnia', 'maja', 'czerwca', 'lipca', 'sierpnia', 'września', 'października', 'listopada', 'grudnia'],
  sv: ['januari', 'februari', 'mars', 'april', 'maj', 'juni', 'juli', 'augusti', 'september', 'oktober', 'november', 'december'],
  tr: ['Ocak', 'Şubat', 'Mart', 'Nisan', 'Mayıs', 'Haziran', 'Temmuz', 'Ağustos', 'Eylül', 'Ekim', 'Kasım', 'Aralık'],
  ru: ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'],
};
const WEEKDAYS_EN = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const DAYS_IN = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function pad(n, w = 2) { return String(n).padStart(w, '0'); }
function ord(d) { const s = d % 100 >= 11 && d % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][d % 10] || 'th'; return d + s; }
function weekday(y, m, d) { const t = Date.UTC(y, m - 1, d); return (new Date(t).getUTCDay() + 6) % 7; }

// kind: 'dob' (1930-2010), 'recent' (2015-2026), 'future' (2024-2027), 'any'
export function makeYMD(rng, kind = 'any') {
  const [lo, hi] = { dob: [1930, 2010], recent: [2015, 2026], future: [2024, 2027], any: [1950, 2026] }[kind] || [1950, 2026];
  const y = rng.range(lo, hi), m = rng.range(1, 12);
  let d = rng.range(1, DAYS_IN[m - 1]);
  if (m === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) d = 28;
  return { y, m, d };
}

function jaEra(y, m, d) {
  const v = y * 10000 + m * 100 + d;
  if (v >= 20190501) return ['令和', y - 2018];
  if (v >= 19890108) return ['平成', y - 1988];
  return ['昭和', y - 1925];
}

export function formatDate(rng, { y, m, d }, lang = 'en', style = null) {
  const M = MONTHS[lang] || MONTHS.en;
  const mon = M[m - 1];
  switch (lang) {
    case 'de': return rng.weighted([[4, `${d}. ${mon} ${y}`], [4, `${pad(d)}.${pad(m)}.${y}`], [1, `${d}.${m}.${y}`], [1, `${pad(d)}.${pad(m)}.${String(y).slice(2)}`], [1, `${y}-${pad(m)}-${pad(d)}`]]);
    case 'fr': return rng.weighted([[4, `${d === 1 ? '1er' : d} ${mon} ${y}`], [4, `${pad(d)}/${pad(m)}/${y}`], [1, `${d} ${mon.slice(0, 4).replace(/\.?$/, '.')} ${y}`], [1, `${y}-${pad(m)}-${pad(d)}`]]);
    case 'es': return rng.weighted([[4, `${d} de ${mon} de ${y}`], [4, `${pad(d)}/${pad(m)}/${y}`], [1, `${d}-${pad(m)}-${y}`], [1, `${d} ${mon.slice(0, 3)} ${y}`]]);
    case 'it': return rng.weighted([[4, `${d} ${mon} ${y}`], [4, `${pad(d)}/${pad(m)}/${y}`], [1, `${d}.${m}.${y}`]]);
    case 'nl': return rng.weighted([[4, `${d} ${mon} ${y}`], [4, `${pad(d)}-${pad(m)}-${y}`], [1, `${d}-${m}-${y}`]]);
    case 'pt': return rng.weighted([[4, `${d} de ${mon} de ${y}`], [5, `${pad(d)}/${pad(m)}/${y}`]]);
    case 'el': return rng.weighted([[4, `${d} ${mon} ${y}`], [4, `${pad(d)}/${pad(m)}/${y}`], [1, `${d}/${m}/${y}`], [1, `${d}-${m}-${y}`]]);
    case 'pl': return rng.weighted([[4, `${d} ${mon} ${y}`], [4, `${pad(d)}.${pad(m)}.${y}`], [1, `${d} ${mon} ${y} r.`]]);
    case 'sv': return rng.weighted([[4, `${d} ${mon} ${y}`], [4, `${y}-${pad(m)}-${pad(d)}`]]);
    case 'tr': return rng.weighted([[4, `${d} ${mon} ${y}`], [4, `${pad(d)}.${pad(m)}.${y}`]]);
    case 'ru': return rng.weighted([[4, `${d} ${mon} ${y} г.`], [2, `${d} ${mon} ${y}`], [4, `${pad(d)}.${pad(m)}.${y}`]]);
    case 'ja': {
      const [era, ey] = jaEra(y, m, d);
      return rng.weighted([[5, `${y}年${m}月${d}日`], [2, `${y}/${pad(m)}/${pad(d)}`], [1, `${y}/${m}/${d}`], [2, `${era}${ey === 1 ? '元' : ey}年${m}月${d}日`], [1, `${y}年${pad(m)}月${pad(d)}日`], [1, `${y}-${pad(m)}-${pad(d)}`]]);
    }
    default: {
      const s = style || rng.weighted([[6, 'MDY'], [4, 'DMY'], [4, 'us'], [3, 'iso'], [2, 'eu'], [1, 'short'], [1, 'ord'], [1, 'wd'], [1, 'dot'], [1, 'abbr'], [1, 'ofm']]);
      switch (s) {
        case 'MDY': return `${mon} ${d}, ${y}`;
        case 'DMY': return `${d} ${mon} ${y}`;
        case 'us': return rng.chance(0.7) ? `${pad(m)}/${pad(d)}/${y}` : `${m}/${d}/${y}`;
        case 'iso': return `${y}-${pad(m)}-${pad(d)}`;
        case 'eu': return `${pad(d)}/${pad(m)}/${y}`;
        case 'short': return `${m}/${d}/${String(y).slice(2)}`;
        case 'ord': return `${mon} ${ord(d)}, ${y}`;
        case 'wd': return `${WEEKDAYS_EN[weekday(y, m, d)]}, ${mon} ${d}, ${y}`;
        case 'dot': return `${pad(d)}.${pad(m)}.${y}`;
        case 'abbr': return `${mon.slice(0, 3)} ${d}, ${y}`;
        case 'ofm': return `the ${ord(d)} of ${mon} ${y}`;
        default: return `${mon} ${d}, ${y}`;
      }
    }
  }
}

export function makeDate(ctx, kind = 'any', lang = 'en') { return formatDate(ctx.rng, makeYMD(ctx.rng, kind), lang); }

// Partial dates used in prose ("March 3", "3 mars"): year omitted.
export function monthDay(rng, lang = 'en') {
  const { m, d } = makeYMD(rng, 'future');
  const M = MONTHS[lang] || MONTHS.en;
  if (lang === 'ja') return `${m}月${d}日`;
  if (lang === 'en') return rng.chance(0.5) ? `${M[m - 1]} ${d}` : `${d} ${M[m - 1]}`;
  if (lang === 'de') return `${d}. ${M[m - 1]}`;
  if (lang === 'es' || lang === 'pt') return `${d} de ${M[m - 1]}`;
  return `${d} ${M[m - 1]}`;
}

// Log/machine timestamps (hard negatives; never labelled).
export function logTimestamp(rng) {
  const { y, m, d } = makeYMD(rng, 'recent');
  const hh = pad(rng.int(24)), mm = pad(rng.int(60)), ss = pad(rng.int(60)), ms = pad(rng.int(1000), 3);
  const mon = MONTHS.en[m - 1].slice(0, 3);
  return rng.weighted([[4, `${y}-${pad(m)}-${pad(d)}T${hh}:${mm}:${ss}.${ms}Z`], [3, `${y}-${pad(m)}-${pad(d)} ${hh}:${mm}:${ss}`],
    [2, `${y}-${pad(m)}-${pad(d)} ${hh}:${mm}:${ss},${ms}`], [2, `${mon} ${String(d).padStart(2, ' ')} ${hh}:${mm}:${ss}`],
    [1, `[${pad(d)}/${mon}/${y}:${hh}:${mm}:${ss} +0000]`], [1, `${Math.floor(Date.UTC(y, m - 1, d) / 1000) + rng.int(86400)}`],
    [1, `${y}${pad(m)}${pad(d)}T${hh}${mm}${ss}Z`]]);
}
export function timeOfDay(rng, lang = 'en') {
  const h = rng.range(7, 19), mi = rng.pick([0, 15, 30, 45, 0, 10, 20]);
  if (lang === 'en' && rng.chance(0.5)) return `${h > 12 ? h - 12 : h}:${pad(mi)} ${h >= 12 ? rng.pick(['PM', 'pm', 'p.m.']) : rng.pick(['AM', 'am', 'a.m.'])}`;
  if (lang === 'ja') return `${h}時${mi ? mi + '分' : ''}`;
  return `${pad(h)}:${pad(mi)}`;
}
