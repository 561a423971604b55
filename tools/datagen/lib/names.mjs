// names.mjs — people: given/family names from many cultures and scripts and
// the many ways a name is written (initials, "Family, Given", capitals, ...).
// Name atoms come from @faker-js/faker locale data (MIT) and from the short
// romanised lists below (common names, written for this project).

export const ROMAN = {
  ja: {
    m: ['Hiroshi', 'Takashi', 'Kenji', 'Yuki', 'Daisuke', 'Haruto', 'Sota', 'Ren', 'Kaito', 'Takumi', 'Shota',
      'Ryo', 'Kazuki', 'Naoki', 'Satoshi', 'Yusuke', 'Masato', 'Kenta', 'Tomohiro', 'Shinji', 'Akira', 'Koji'],
    f: ['Yuko', 'Aiko', 'Haruka', 'Sakura', 'Yui', 'Mei', 'Akari', 'Misaki', 'Naomi', 'Keiko', 'Emi', 'Rina',
      'Mai', 'Ayumi', 'Kana', 'Nanami', 'Hina', 'Tomoko', 'Megumi', 'Chihiro', 'Yoko', 'Asuka'],
    l: ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kato',
      'Yoshida', 'Yamada', 'Sasaki', 'Yamaguchi', 'Matsumoto', 'Inoue', 'Kimura', 'Hayashi', 'Shimizu', 'Mori',
      'Abe', 'Ikeda', 'Hashimoto', 'Ishikawa', 'Ogawa', 'Fujita', 'Okada', 'Goto', 'Hasegawa', 'Murakami',
      'Kondo', 'Ishii', 'Saito', 'Sakamoto', 'Endo', 'Aoki', 'Fujii', 'Nishimura', 'Fukuda', 'Ota'],
  },
  zh: {
    m: ['Wei', 'Yong', 'Jie', 'Tao', 'Jun', 'Lei', 'Qiang', 'Hao', 'Yifan', 'Haoran', 'Yuxuan', 'Mingyu', 'Zhiwei',
      'Jianguo', 'Xin', 'Bo', 'Peng', 'Chao', 'Kai', 'Ka Wai', 'Siu Ming', 'Chun Kit'],
    f: ['Fang', 'Min', 'Jing', 'Li Na', 'Xiuying', 'Yan', 'Hui', 'Ping', 'Xiaoling', 'Jiahui', 'Lan', 'Mei',
      'Ying', 'Zihan', 'Yuting', 'Xiaomei', 'Qian', 'Wing Yan', 'Mei Ling', 'Hoi Yee'],
    l: ['Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Yang', 'Huang', 'Zhao', 'Wu', 'Zhou', 'Xu', 'Sun', 'Ma', 'Zhu',
      'Hu', 'Guo', 'He', 'Lin', 'Gao', 'Luo', 'Zheng', 'Liang', 'Xie', 'Tang', 'Song', 'Deng', 'Feng', 'Han',
      'Cao', 'Chan', 'Wong', 'Leung', 'Cheung', 'Lau', 'Ng', 'Ho', 'Tsang', 'Chow', 'Tan', 'Lim', 'Goh'],
  },
  ko: {
    m: ['Min-jun', 'Seo-jun', 'Do-yun', 'Ji-ho', 'Hyun-woo', 'Jae-hyun', 'Ji-hoon', 'Sung-min', 'Dong-hyun',
      'Jun-ho', 'Tae-yang', 'Woo-jin', 'Sang-woo', 'Young-ho'],
    f: ['Seo-yeon', 'Ji-woo', 'Ha-eun', 'Soo-jin', 'Eun-ji', 'Yuna', 'Min-seo', 'Ji-yeon', 'Hye-jin', 'Da-eun',
      'Seo-hyun', 'Ye-jin', 'Su-bin', 'Mi-kyung'],
    l: ['Kim', 'Lee', 'Park', 'Choi', 'Jung', 'Kang', 'Cho', 'Yoon', 'Jang', 'Lim', 'Han', 'Oh', 'Seo', 'Shin',
      'Kwon', 'Hwang', 'Ahn', 'Song', 'Yoo', 'Hong', 'Jeon', 'Ko', 'Moon', 'Yang', 'Baek'],
  },
  ar: {
    m: ['Mohammed', 'Ahmed', 'Omar', 'Youssef', 'Khalid', 'Hassan', 'Ali', 'Ibrahim', 'Tariq', 'Karim', 'Samir',
      'Faisal', 'Mustafa', 'Hamza', 'Bilal', 'Rashid', 'Nabil', 'Walid', 'Ziad', 'Adel'],
    f: ['Fatima', 'Aisha', 'Layla', 'Mariam', 'Nour', 'Yasmin', 'Huda', 'Salma', 'Rania', 'Amira', 'Zainab',
      'Leila', 'Hana', 'Dina', 'Samira', 'Noura', 'Reem', 'Lina'],
    l: ['Al-Farsi', 'Haddad', 'Khoury', 'Nasser', 'Mansour', 'El-Sayed', 'Abdullah', 'Hussein', 'Rahman',
      'Qureshi', 'Saleh', 'Al-Amin', 'Darwish', 'Farouk', 'Hamdan', 'Jaber', 'Karam', 'Nassar', 'Sabbagh',
      'Aziz', 'Benali', 'El Amrani', 'Bouazza', 'Al-Rashid', 'Khalil', 'Shaheen', 'Tahan', 'Zayed'],
  },
  el: {
    m: ['Georgios', 'Dimitrios', 'Konstantinos', 'Ioannis', 'Nikolaos', 'Panagiotis', 'Vasileios', 'Christos',
      'Athanasios', 'Michail', 'Evangelos', 'Spyridon', 'Alexandros', 'Stavros', 'Kostas', 'Giannis', 'Nikos'],
    f: ['Maria', 'Eleni', 'Aikaterini', 'Vasiliki', 'Sofia', 'Angeliki', 'Georgia', 'Dimitra', 'Konstantina',
      'Paraskevi', 'Despoina', 'Eirini', 'Chrysoula', 'Theodora', 'Katerina', 'Anna'],
    l: ['Papadopoulos', 'Papadakis', 'Georgiou', 'Oikonomou', 'Nikolaidis', 'Dimitriou', 'Vlachos',
      'Konstantinidis', 'Antoniou', 'Ioannou', 'Karagiannis', 'Pappas', 'Makris', 'Alexiou', 'Christodoulou',
      'Athanasiou', 'Stavropoulos', 'Kyriakou', 'Economou', 'Petridis', 'Angelopoulos', 'Mavridis'],
  },
  ru: {
    m: ['Ivan', 'Dmitry', 'Sergei', 'Alexei', 'Andrei', 'Mikhail', 'Nikolai', 'Vladimir', 'Pavel', 'Yuri', 'Oleg',
      'Artem', 'Maxim', 'Igor', 'Roman', 'Denis', 'Anton'],
    f: ['Anna', 'Olga', 'Natalia', 'Elena', 'Tatiana', 'Irina', 'Svetlana', 'Ekaterina', 'Yulia', 'Anastasia',
      'Daria', 'Ksenia', 'Marina', 'Polina', 'Vera'],
    l: ['Ivanov', 'Smirnov', 'Kuznetsov', 'Popov', 'Vasiliev', 'Petrov', 'Sokolov', 'Mikhailov', 'Novikov',
      'Fedorov', 'Morozov', 'Volkov', 'Lebedev', 'Kozlov', 'Orlov', 'Pavlov', 'Semenov', 'Egorov', 'Bondarenko',
      'Shevchenko', 'Kovalenko', 'Melnyk'],
  },
};

// Cultures: faker locale for the native form, whether the family name comes
// first natively, script, and weights in English and in native contexts.
export const CULTURES = {
  en_US: { fk: 'en_US', w: 30 }, en_GB: { fk: 'en_GB', w: 10 }, en_IE: { fk: 'en_IE', w: 2 },
  en_AU: { fk: 'en_AU', w: 3 }, en_CA: { fk: 'en_CA', w: 3 }, en_IN: { fk: 'en_IN', w: 8 },
  en_NG: { fk: 'en_NG', w: 3 }, yo_NG: { fk: 'yo_NG', w: 2 }, en_GH: { fk: 'en_GH', w: 2 },
  zu_ZA: { fk: 'zu_ZA', w: 2 }, en_ZA: { fk: 'en_ZA', w: 1 },
  de: { fk: 'de', w: 6 }, de_AT: { fk: 'de_AT', w: 1 }, de_CH: { fk: 'de_CH', w: 1 },
  fr: { fk: 'fr', w: 6 }, es: { fk: 'es', w: 5, twoSurnames: true }, es_MX: { fk: 'es_MX', w: 5, twoSurnames: true },
  it: { fk: 'it', w: 4 }, pt_BR: { fk: 'pt_BR', w: 3 }, pt_PT: { fk: 'pt_PT', w: 1 }, nl: { fk: 'nl', w: 3 },
  pl: { fk: 'pl', w: 3 }, cs_CZ: { fk: 'cs_CZ', w: 1 }, sk: { fk: 'sk', w: 1 }, hu: { fk: 'hu', w: 1 },
  ro: { fk: 'ro', w: 1 }, sv: { fk: 'sv', w: 2 }, nb_NO: { fk: 'nb_NO', w: 1 }, da: { fk: 'da', w: 1 },
  fi: { fk: 'fi', w: 1 }, tr: { fk: 'tr', w: 3 }, hr: { fk: 'hr', w: 1 }, lv: { fk: 'lv', w: 1 },
  vi: { fk: 'vi', w: 3, eastern: true }, id_ID: { fk: 'id_ID', w: 2 },
  ru: { fk: 'ru', w: 2, script: 'cyrl' }, uk: { fk: 'uk', w: 1, script: 'cyrl' },
  el: { fk: 'el', w: 2, script: 'grek' },
  ja: { fk: 'ja', w: 2, eastern: true, script: 'cjk', nospace: true },
  zh_CN: { fk: 'zh_CN', w: 2, eastern: true, script: 'cjk', nospace: true },
  zh_TW: { fk: 'zh_TW', w: 1, eastern: true, script: 'cjk', nospace: true },
  ko: { fk: 'ko', w: 1, eastern: true, script: 'hang', nospace: true },
  ar: { fk: 'ar', w: 1, script: 'arab' }, fa: { fk: 'fa', w: 1, script: 'arab' }, he: { fk: 'he', w: 1, script: 'hebr' },
  th: { fk: 'th', w: 0.5, script: 'thai' }, ka_GE: { fk: 'ka_GE', w: 0.3, script: 'geor' },
  ne: { fk: 'ne', w: 0.3, script: 'deva' },
  // romanised forms of names whose native script is not Latin
  r_ja: { roman: 'ja', w: 4 }, r_zh: { roman: 'zh', w: 5 }, r_ko: { roman: 'ko', w: 3 }, r_ar: { roman: 'ar', w: 4 },
  r_el: { roman: 'el', w: 2 }, r_ru: { roman: 'ru', w: 3 },
};

const EN_WEIGHTS = Object.entries(CULTURES).filter(([, c]) => !c.script).map(([k, c]) => [c.w, k]);
const ALL_WEIGHTS = Object.entries(CULTURES).map(([k, c]) => [c.w, k]);

// Culture for a name in a text of language `lang`.
export function pickCulture(rng, lang) {
  const native = { de: ['de', 'de_AT', 'de_CH'], fr: ['fr'], es: ['es', 'es_MX'], it: ['it'], nl: ['nl'],
    pt: ['pt_BR', 'pt_PT'], el: ['el'], ja: ['ja'], pl: ['pl'], sv: ['sv'], tr: ['tr'], ru: ['ru'] }[lang];
  if (native && rng.chance(0.75)) return rng.pick(native);
  return rng.chance(0.9) ? rng.weighted(EN_WEIGHTS) : rng.weighted(ALL_WEIGHTS);
}

function fixFamilyForSex(c, fam, sex) {
  if (c === 'r_ru' && sex === 'f') return fam.endsWith('ko') || fam.endsWith('yk') ? fam : fam + 'a';
  return fam;
}

export function makePerson(ctx, culture) {
  const rng = ctx.rng;
  culture = culture || pickCulture(rng, 'en');
  const c = CULTURES[culture];
  const sex = rng.chance(0.5) ? 'f' : 'm';
  const p = { culture, sex, eastern: !!c.eastern, script: c.script || 'latn', nospace: !!c.nospace };
  if (c.roman) {
    const R = ROMAN[c.roman];
    p.given = rng.pick(R[sex]);
    p.family = fixFamilyForSex(culture, rng.pick(R.l), sex);
    if (c.roman === 'ar' && rng.chance(0.2)) p.middle = rng.pick(R.m);
  } else {
    const f = ctx.faker(c.fk);
    const fsex = sex === 'f' ? 'female' : 'male';
    p.given = f.person.firstName(fsex);
    p.family = f.person.lastName(fsex);
    if (c.twoSurnames && rng.chance(0.5)) p.family += ' ' + f.person.lastName(fsex);
    if (culture === 'ru' && rng.chance(0.3)) p.middle = f.person.middleName(fsex);
    else if (!c.script && !c.eastern && rng.chance(0.12)) {
      const m = f.person.firstName(rng.chance(0.5) ? 'female' : 'male');
      if (m !== p.given) p.middle = m;
    }
  }
  // Avoid degenerate atoms (faker data has a few one-letter or spaced entries).
  p.given = p.given.trim(); p.family = p.family.trim();
  return p;
}

function initial(s) {
  const ch = [...s][0] || '';
  return ch.toUpperCase() + '.';
}
function upperFirstLetters(s) { return s.toUpperCase(); }

// Ways to write a person's name.  Returns the string for the span.
export function nameForm(rng, p, form) {
  const G = p.given, F = p.family, M = p.middle;
  if (p.script === 'cjk' || p.script === 'hang') {
    const sep = p.nospace ? rng.weighted([[6, ''], [3, ' '], [1, '\u3000']]) : ' ';
    switch (form) {
      case 'given': return G;
      case 'family': return F;
      default: return F + sep + G;
    }
  }
  const famFirst = p.eastern;
  switch (form) {
    case 'given': return G;
    case 'family': return F;
    case 'full': return famFirst ? F + ' ' + G : (M && rng.chance(0.5) ? `${G} ${M} ${F}` : `${G} ${F}`);
    case 'middleinit': return M ? `${G} ${initial(M)} ${F}` : `${G} ${rng.pick('ABCDEFGHJKLMNPRSTW')}. ${F}`;
    case 'initfam': return `${initial(G)} ${F}`;
    case 'initfam2': return `${initial(G)}${rng.chance(0.5) ? ' ' : ''}${rng.pick('ABCDEHJKLMPRSTW')}. ${F}`;
    case 'famcomma': return `${F}, ${G}`;
    case 'FAMgiven': return `${upperFirstLetters(F)} ${G}`;
    case 'upper': return (famFirst ? `${F} ${G}` : `${G} ${F}`).toUpperCase();
    case 'lower': return (famFirst ? `${F} ${G}` : `${G} ${F}`).toLowerCase();
    case 'givenlower': return G.toLowerCase();
    default: return `${G} ${F}`;
  }
}

// A random form for a first mention; weights favour plain full names.
export function anyNameForm(rng, p) {
  return nameForm(rng, p, rng.weighted([[60, 'full'], [6, 'middleinit'], [6, 'initfam'], [3, 'initfam2'],
    [5, 'famcomma'], [3, 'FAMgiven'], [5, 'upper'], [5, 'lower'], [4, 'given'], [3, 'family']]));
}

const TITLES = {
  en: { m: ['Mr.', 'Mr', 'Dr.', 'Dr', 'Prof.', 'Sir'], f: ['Ms.', 'Mrs.', 'Ms', 'Mrs', 'Miss', 'Dr.', 'Dr', 'Prof.'], n: ['Mx.'] },
  de: { m: ['Herr', 'Herrn', 'Dr.', 'Herr Dr.', 'Prof. Dr.'], f: ['Frau', 'Frau Dr.', 'Dr.'] },
  fr: { m: ['M.', 'Monsieur', 'Dr', 'Me'], f: ['Mme', 'Madame', 'Mlle', 'Dr', 'Me'] },
  es: { m: ['Sr.', 'Don', 'Dr.'], f: ['Sra.', 'Srta.', 'Doña', 'Dra.'] },
  it: { m: ['Sig.', 'Dott.', 'Avv.', 'Ing.'], f: ['Sig.ra', 'Dott.ssa', 'Avv.'] },
  nl: { m: ['dhr.', 'de heer', 'Dr.'], f: ['mevr.', 'mevrouw', 'Dr.'] },
  pt: { m: ['Sr.', 'Dr.'], f: ['Sra.', 'Dra.'] },
  el: { m: ['κ.', 'Δρ.', 'κύριος'], f: ['κα', 'κ.', 'Δρ.', 'κυρία'] },
  pl: { m: ['Pan', 'dr'], f: ['Pani', 'dr'] },
  sv: { m: ['Dr.'], f: ['Dr.'] },
  tr: { m: ['Bay', 'Dr.'], f: ['Bayan', 'Dr.'] },
  ru: { m: ['г-н', 'д-р'], f: ['г-жа', 'д-р'] },
};
export function title(rng, lang, p) {
  const T = TITLES[lang] || TITLES.en;
  return rng.pick(T[p.sex] || T.m);
}
// Japanese honorific suffixes (written after the name, outside the span).
export const JA_HONORIFICS = ['様', 'さん', '先生', '氏', '殿', 'くん', 'ちゃん'];
