// address.mjs — postal addresses of many countries, as lines.  Street names,
// cities, postcodes and regions come from @faker-js/faker locale data (MIT);
// the layout of each country's address is written here.

const US_STATES = ['AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
  'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH',
  'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC'];
const CA_PROV = ['ON', 'QC', 'BC', 'AB', 'MB', 'SK', 'NS', 'NB', 'NL', 'PE'];
const AU_STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'];
const IT_PROV = ['MI', 'RM', 'TO', 'NA', 'FI', 'BO', 'VE', 'GE', 'PA', 'BA', 'VR', 'PD', 'BG', 'BS', 'CT'];
const BR_UF = ['SP', 'RJ', 'MG', 'RS', 'PR', 'SC', 'BA', 'PE', 'CE', 'DF', 'GO', 'AM', 'PA', 'ES'];
const JA_ROMAN_CITIES = [['Shibuya-ku', 'Tokyo', '150'], ['Minato-ku', 'Tokyo', '106'], ['Setagaya-ku', 'Tokyo', '154'],
  ['Shinjuku-ku', 'Tokyo', '160'], ['Kita-ku', 'Osaka', '530'], ['Chuo-ku', 'Osaka', '540'], ['Naka-ku', 'Yokohama', '231'],
  ['Sakyo-ku', 'Kyoto', '606'], ['Chuo-ku', 'Fukuoka', '810'], ['Chikusa-ku', 'Nagoya', '464'], ['Aoba-ku', 'Sendai', '980']];
const JA_ROMAN_AREAS = ['Jingumae', 'Ebisu', 'Azabu-Juban', 'Roppongi', 'Kitazawa', 'Umeda', 'Namba', 'Motomachi',
  'Tenjin', 'Kakuozan', 'Ichibancho', 'Nishi-Shinjuku', 'Daikanyama', 'Sangenjaya', 'Hommachi'];
const GR_ROMAN_STREETS = ['Ermou', 'Stadiou', 'Panepistimiou', 'Akadimias', 'Patision', 'Solonos', 'Kifisias',
  'Vasilissis Sofias', 'Egnatia', 'Tsimiski', 'Mitropoleos', 'Athinas', 'Syngrou', 'Alexandras'];
const GR_ROMAN_CITIES = [['Athens', '10'], ['Thessaloniki', '54'], ['Patras', '26'], ['Heraklion', '71'],
  ['Larissa', '41'], ['Volos', '38'], ['Ioannina', '45'], ['Chania', '73'], ['Piraeus', '18'], ['Kalamata', '24']];
const UK_TOWNS = ['London', 'Manchester', 'Leeds', 'Bristol', 'Glasgow', 'Edinburgh', 'Cardiff', 'Liverpool',
  'Sheffield', 'Nottingham', 'Brighton', 'Oxford', 'Cambridge', 'York', 'Bath', 'Norwich', 'Exeter', 'Belfast',
  'Aberdeen', 'Reading', 'Leicester', 'Coventry', 'Southampton', 'Newcastle upon Tyne'];
const US_CITIES = ['Springfield', 'Portland', 'Austin', 'Denver', 'Boston', 'Seattle', 'Chicago', 'Phoenix',
  'San Diego', 'Columbus', 'Madison', 'Raleigh', 'Tucson', 'Omaha', 'Albany', 'Boise', 'Richmond', 'Fresno',
  'Brooklyn', 'Oakland', 'Pittsburgh', 'Minneapolis', 'Nashville', 'Sacramento', 'Cleveland', 'Tampa'];
const US_STREET_SUFFIX = ['St', 'St.', 'Street', 'Ave', 'Ave.', 'Avenue', 'Rd', 'Road', 'Blvd', 'Drive', 'Dr.', 'Ln',
  'Lane', 'Ct', 'Court', 'Way', 'Pl', 'Place', 'Terrace', 'Circle', 'Pkwy'];
const US_STREET_BASE = ['Main', 'Oak', 'Maple', 'Cedar', 'Pine', 'Elm', 'Washington', 'Lake', 'Hill', 'Park',
  'Sunset', 'Lincoln', 'Jackson', 'Franklin', 'Highland', 'Church', 'Mill', 'River', 'Spring', 'Walnut', 'Chestnut',
  'Willow', 'Madison', 'Jefferson', 'Broad', 'Market', '1st', '2nd', '3rd', '5th', '12th', '42nd', 'W 34th', 'E 7th',
  'N Lamar', 'S Congress', 'Old Mill', 'Meadowbrook', 'Ridgeview', 'Birchwood', 'Magnolia', 'Peachtree'];

export const COUNTRY_NAMES = {
  US: ['USA', 'United States', 'U.S.A.', 'United States of America'], UK: ['United Kingdom', 'UK', 'England', 'U.K.'],
  CA: ['Canada'], AU: ['Australia'], IE: ['Ireland'], IN: ['India'], DE: ['Germany', 'Deutschland'],
  AT: ['Austria', 'Österreich'], CH: ['Switzerland', 'Schweiz', 'Suisse'], FR: ['France'], ES: ['Spain', 'España'],
  IT: ['Italy', 'Italia'], NL: ['Netherlands', 'The Netherlands', 'Nederland'], PT: ['Portugal'], BR: ['Brazil', 'Brasil'],
  MX: ['Mexico', 'México'], PL: ['Poland', 'Polska'], SE: ['Sweden', 'Sverige'], GR: ['Greece', 'Ελλάδα'],
  JP: ['Japan', '日本'], CN: ['China', '中国'], KR: ['South Korea', '대한민국'], RU: ['Russia', 'Россия'],
  TR: ['Turkey', 'Türkiye'], CZ: ['Czech Republic', 'Czechia'], NO: ['Norway', 'Norge'], DK: ['Denmark', 'Danmark'],
  FI: ['Finland', 'Suomi'], BE: ['Belgium', 'België', 'Belgique'], ZA: ['South Africa'], NG: ['Nigeria'],
  HU: ['Hungary', 'Magyarország'], RO: ['Romania', 'România'], IL: ['Israel'], VN: ['Vietnam', 'Việt Nam'],
};

function A(ctx, fk) {
  const f = ctx.faker(fk);
  const tryf = (fn, d) => { try { const v = fn(); return v == null ? d : String(v); } catch { return d; } };
  return {
    f,
    street: tryf(() => f.location.street(), 'Main Street'),
    num: tryf(() => f.location.buildingNumber(), '12'),
    city: tryf(() => f.location.city(), 'Springfield'),
    zip: tryf(() => f.location.zipCode(), '12345'),
    state: tryf(() => f.location.state(), ''),
  };
}

function shortNum(rng) { return rng.weighted([[5, String(rng.range(1, 99))], [4, String(rng.range(100, 999))], [2, String(rng.range(1000, 19999))]]); }

const FORMATS = {
  US(ctx) {
    const r = ctx.rng;
    const street = r.chance(0.6) ? `${r.pick(US_STREET_BASE)} ${r.pick(US_STREET_SUFFIX)}` : A(ctx, 'en_US').street;
    let l1 = `${shortNum(r)} ${street}`;
    if (r.chance(0.35)) l1 += r.pick([', ', ' ']) + r.pick(['Apt ', 'Apt. ', 'Suite ', 'Unit ', '#', 'Ste ', 'Fl ']) + r.weighted([[3, String(r.range(1, 999))], [1, r.range(1, 20) + r.pick('ABCDEF')]]);
    const city = r.chance(0.5) ? r.pick(US_CITIES) : A(ctx, 'en_US').city;
    const st = r.chance(0.85) ? r.pick(US_STATES) : A(ctx, 'en_US').state;
    const zip = r.digits(5) + (r.chance(0.15) ? '-' + r.digits(4) : '');
    if (r.chance(0.06)) return { c: 'US', lines: [`${r.pick(['P.O. Box', 'PO Box', 'P. O. Box'])} ${r.range(1, 9999)}`, `${city}, ${st} ${zip}`] };
    return { c: 'US', lines: [l1, `${city}, ${st} ${zip}`] };
  },
  CA(ctx) {
    const r = ctx.rng, a = A(ctx, 'en_CA');
    const L = 'ABCEGHJKLMNPRSTVXY';
    const pc = `${r.pick(L)}${r.int(10)}${r.pick(L)} ${r.int(10)}${r.pick(L)}${r.int(10)}`;
    const l1 = (r.chance(0.3) ? `${r.range(1, 2500)}-` : '') + `${shortNum(r)} ${r.chance(0.5) ? a.street : r.pick(US_STREET_BASE) + ' ' + r.pick(US_STREET_SUFFIX)}`;
    return { c: 'CA', lines: [l1, `${r.pick(['Toronto', 'Montréal', 'Vancouver', 'Calgary', 'Ottawa', 'Halifax', 'Winnipeg', a.city])}, ${r.pick(CA_PROV)} ${pc}`] };
  },
  UK(ctx) {
    const r = ctx.rng, a = A(ctx, 'en_GB');
    const lines = [];
    if (r.chance(0.3)) lines.push(`${r.pick(['Flat', 'Flat', 'Apartment'])} ${r.range(1, 40)}${r.chance(0.2) ? r.pick('ABC') : ''}`);
    if (r.chance(0.15)) lines.push(r.pick(['Rose Cottage', 'The Old Rectory', 'Ivy House', 'Mill Farm', 'Orchard View', 'Kingsley Court', 'Victoria House']));
    lines.push(`${r.range(1, 240)} ${a.street}`);
    const town = r.chance(0.7) ? r.pick(UK_TOWNS) : a.city;
    if (r.chance(0.3) && lines.length === 1) { lines[0] = (r.chance(0.5) ? `Flat ${r.range(1, 30)}, ` : '') + lines[0]; }
    lines.push(town);
    lines.push(a.zip.toUpperCase());
    return { c: 'UK', lines };
  },
  IE(ctx) {
    const r = ctx.rng, a = A(ctx, 'en_IE');
    const county = r.pick(['Dublin', 'Cork', 'Galway', 'Kerry', 'Limerick', 'Wicklow', 'Meath', 'Kildare', 'Clare', 'Mayo']);
    return { c: 'IE', lines: [`${r.range(1, 150)} ${a.street}`, r.pick(['Rathmines', 'Ballsbridge', 'Salthill', 'Douglas', 'Blackrock', 'Dundrum', 'Ennis']), `Co. ${county}`, `${r.pick(['D04', 'D06', 'T12', 'H91', 'V94', 'A94', 'W91'])} ${r.chars('ACDEFHKNPRTVWXY0123456789', 4)}`] };
  },
  AU(ctx) {
    const r = ctx.rng, a = A(ctx, 'en_AU');
    const l1 = (r.chance(0.3) ? `Unit ${r.range(1, 40)}, ` : r.chance(0.15) ? `${r.range(1, 40)}/` : '') + `${r.range(1, 300)} ${a.street}`;
    return { c: 'AU', lines: [l1, `${r.pick(['Surry Hills', 'Fitzroy', 'Paddington', 'Brunswick', 'Newtown', 'Toowong', 'Fremantle', 'Glenelg', a.city.toUpperCase()])} ${r.pick(AU_STATES)} ${r.range(2000, 7999)}`] };
  },
  IN(ctx) {
    const r = ctx.rng, a = A(ctx, 'en_IN');
    const lines = [`${r.pick(['Flat No. ', 'Flat ', 'House No. ', 'H.No. ', '#', 'Plot '])}${r.range(1, 999)}${r.chance(0.3) ? '/' + r.range(1, 20) : ''}, ${r.pick(['Sai Residency', 'Green Park Apartments', 'Shanti Niwas', 'Lotus Towers', 'Ganga Enclave', 'Sunrise Heights', a.street])}`];
    lines.push(`${r.pick(['MG Road', 'Linking Road', 'Anna Salai', 'Park Street', 'Brigade Road', '4th Cross', '12th Main', 'Sector ' + r.range(1, 60)])}, ${r.pick(['Koramangala', 'Andheri West', 'Banjara Hills', 'Salt Lake', 'Indiranagar', 'Powai', 'T. Nagar', 'Vasant Kunj', 'Kothrud'])}`);
    lines.push(`${r.pick(['Bengaluru', 'Mumbai', 'Hyderabad', 'Kolkata', 'Chennai', 'New Delhi', 'Pune', a.city])} - ${r.range(110, 860)}${r.digits(3)}`);
    if (r.chance(0.4)) lines.push(a.state);
    return { c: 'IN', lines };
  },
  DE(ctx, fk = 'de', c = 'DE') {
    const r = ctx.rng, a = A(ctx, fk);
    let l1 = `${a.street} ${r.range(1, 180)}${r.chance(0.15) ? r.pick('abc') : ''}`;
    if (c === 'AT' && r.chance(0.4)) l1 += `/${r.range(1, 30)}`;
    const lines = [l1];
    if (r.chance(0.15)) lines.push(r.pick(['Hinterhaus', '2. OG', `Wohnung ${r.range(1, 40)}`]));
    const zip = c === 'DE' ? r.digits(5).replace(/^0(?=0)/, '1') : String(r.range(1000, 9999));
    lines.push(`${c !== 'DE' && r.chance(0.3) ? c[0] + '-' : ''}${zip} ${a.city}`);
    return { c, lines };
  },
  AT(ctx) { return FORMATS.DE(ctx, 'de_AT', 'AT'); },
  CH(ctx) { return FORMATS.DE(ctx, 'de_CH', 'CH'); },
  FR(ctx) {
    const r = ctx.rng, a = A(ctx, 'fr');
    const lines = [];
    if (r.chance(0.25)) lines.push(r.pick([`Appartement ${r.range(1, 60)}`, `Bât. ${r.pick('ABCD')}, esc. ${r.range(1, 4)}`, `Apt ${r.range(1, 99)}`, `Résidence ${r.pick(['Les Tilleuls', 'Le Parc', 'Les Jardins'])}`]));
    lines.push(`${r.range(1, 150)}${r.chance(0.1) ? ' bis' : ''} ${a.street}`);
    const city = a.city;
    lines.push(`${r.digits(2).replace(/^00/, '75')}${r.digits(3)} ${r.chance(0.5) ? city.toUpperCase() : city}${r.chance(0.1) ? ' CEDEX' : ''}`);
    return { c: 'FR', lines };
  },
  BE(ctx) {
    const r = ctx.rng, a = A(ctx, r.chance(0.5) ? 'nl_BE' : 'fr_BE');
    return { c: 'BE', lines: [`${a.street} ${r.range(1, 200)}${r.chance(0.2) ? ' bus ' + r.range(1, 20) : ''}`, `${r.range(1000, 9999)} ${a.city}`] };
  },
  ES(ctx) {
    const r = ctx.rng, a = A(ctx, 'es');
    const l1 = `${a.street}, ${r.range(1, 150)}${r.chance(0.5) ? ', ' + r.range(1, 9) + 'º ' + r.pick(['A', 'B', 'C', 'D', 'Izda.', 'Dcha.']) : ''}`;
    return { c: 'ES', lines: [l1, `${r.pick(['28', '08', '41', '46', '29', '48', '50', '15'])}${r.digits(3)} ${a.city}${r.chance(0.3) ? ' (' + a.state + ')' : ''}`] };
  },
  MX(ctx) {
    const r = ctx.rng, a = A(ctx, 'es_MX');
    return { c: 'MX', lines: [`${r.chance(0.5) ? 'Calle ' : ''}${a.street} ${r.range(1, 999)}${r.chance(0.3) ? ' Int. ' + r.range(1, 30) : ''}`, `Col. ${r.pick(['Roma Norte', 'Condesa', 'Del Valle', 'Polanco', 'Centro', 'Juárez', 'Coyoacán'])}`, `${r.digits(5)} ${a.city}, ${a.state}`] };
  },
  IT(ctx) {
    const r = ctx.rng, a = A(ctx, 'it');
    return { c: 'IT', lines: [`${a.street} ${r.range(1, 200)}${r.chance(0.2) ? ', int. ' + r.range(1, 30) : ''}`, `${r.digits(5)} ${a.city} (${r.pick(IT_PROV)})`] };
  },
  NL(ctx) {
    const r = ctx.rng, a = A(ctx, 'nl');
    return { c: 'NL', lines: [`${a.street} ${r.range(1, 300)}${r.chance(0.2) ? r.pick(['-A', ' bis', '-2', ' hs']) : ''}`, `${r.range(1000, 9999)} ${r.chars('ABCDEFGHJKLMNPRSTVWXZ', 2)} ${a.city}`] };
  },
  PT(ctx) {
    const r = ctx.rng, a = A(ctx, 'pt_PT');
    return { c: 'PT', lines: [`${a.street}, ${r.range(1, 300)}${r.chance(0.4) ? ', ' + r.range(1, 9) + 'º ' + r.pick(['Esq.', 'Dto.', 'A', 'B']) : ''}`, `${r.range(1000, 9999)}-${r.digits(3)} ${a.city}`] };
  },
  BR(ctx) {
    const r = ctx.rng, a = A(ctx, 'pt_BR');
    return { c: 'BR', lines: [`${a.street}, ${r.range(1, 3000)}${r.chance(0.4) ? ', Apto ' + r.range(11, 1504) : ''}`, `${r.pick(['Jardim Paulista', 'Copacabana', 'Savassi', 'Moinhos de Vento', 'Boa Viagem', 'Centro'])}, ${a.city} - ${r.pick(BR_UF)}`, `${r.digits(5)}-${r.digits(3)}`] };
  },
  PL(ctx) {
    const r = ctx.rng, a = A(ctx, 'pl');
    return { c: 'PL', lines: [`${r.chance(0.5) ? 'ul. ' : ''}${a.street.replace(/^(ul\.|al\.|pl\.) /, '')} ${r.range(1, 150)}${r.chance(0.5) ? '/' + r.range(1, 80) : ''}`, `${r.digits(2)}-${r.digits(3)} ${a.city}`] };
  },
  SE(ctx) {
    const r = ctx.rng, a = A(ctx, 'sv');
    return { c: 'SE', lines: [`${a.street} ${r.range(1, 120)}${r.chance(0.2) ? ' lgh ' + r.range(1001, 1504) : ''}`, `${r.range(100, 989)} ${r.digits(2)} ${a.city}`] };
  },
  NO(ctx) {
    const r = ctx.rng, a = A(ctx, 'nb_NO');
    return { c: 'NO', lines: [`${a.street} ${r.range(1, 120)}${r.chance(0.2) ? r.pick('ABC') : ''}`, `${r.digits(4)} ${a.city}`] };
  },
  DK(ctx) {
    const r = ctx.rng, a = A(ctx, 'da');
    return { c: 'DK', lines: [`${a.street} ${r.range(1, 120)}${r.chance(0.4) ? ', ' + r.range(1, 5) + '. ' + r.pick(['tv.', 'th.', 'mf.']) : ''}`, `${r.range(1000, 9990)} ${a.city}`] };
  },
  FI(ctx) {
    const r = ctx.rng, a = A(ctx, 'fi');
    return { c: 'FI', lines: [`${a.street} ${r.range(1, 90)}${r.chance(0.4) ? ' ' + r.pick('ABC') + ' ' + r.range(1, 40) : ''}`, `${r.digits(5)} ${a.city}`] };
  },
  CZ(ctx) {
    const r = ctx.rng, a = A(ctx, 'cs_CZ');
    return { c: 'CZ', lines: [`${a.street} ${r.range(1, 2999)}/${r.range(1, 80)}`, `${r.range(100, 799)} ${r.digits(2)} ${a.city}`] };
  },
  HU(ctx) {
    const r = ctx.rng, a = A(ctx, 'hu');
    return { c: 'HU', lines: [`${r.range(1000, 9999)} ${a.city}, ${a.street} ${r.range(1, 120)}.${r.chance(0.4) ? ' ' + r.range(1, 8) + '. em. ' + r.range(1, 20) + '.' : ''}`] };
  },
  RO(ctx) {
    const r = ctx.rng, a = A(ctx, 'ro');
    return { c: 'RO', lines: [`${a.street} nr. ${r.range(1, 200)}${r.chance(0.4) ? ', bl. ' + r.range(1, 40) + ', ap. ' + r.range(1, 90) : ''}`, `${r.digits(6)} ${a.city}`] };
  },
  TR(ctx) {
    const r = ctx.rng, a = A(ctx, 'tr');
    return { c: 'TR', lines: [`${a.street} No: ${r.range(1, 150)}${r.chance(0.5) ? ' D: ' + r.range(1, 30) : ''}`, `${r.digits(5)} ${r.pick(['Kadıköy', 'Beşiktaş', 'Çankaya', 'Karşıyaka', 'Nilüfer', 'Üsküdar'])}/${a.city}`] };
  },
  GR(ctx) {
    const r = ctx.rng;
    if (r.chance(0.45)) {
      const [city, pre] = r.pick(GR_ROMAN_CITIES);
      return { c: 'GR', lines: [`${r.pick(GR_ROMAN_STREETS)} ${r.range(1, 200)}`, `${pre}${r.digits(1)} ${r.digits(2)} ${city}`] };
    }
    const a = A(ctx, 'el');
    return { c: 'GR', lines: [`${r.chance(0.3) ? 'Οδός ' : ''}${a.street} ${r.range(1, 200)}`, `${a.zip} ${a.city}`] };
  },
  JP(ctx) {
    const r = ctx.rng;
    if (r.chance(0.4)) {
      const [ward, city, zp] = r.pick(JA_ROMAN_CITIES);
      const l1 = `${r.range(1, 6)}-${r.range(1, 30)}-${r.range(1, 20)} ${r.pick(JA_ROMAN_AREAS)}` + (r.chance(0.3) ? `, ${r.pick(['Sunny Heights', 'Maison Hikari', 'Park Court', 'Green Hills'])} ${r.range(101, 1205)}` : '');
      return { c: 'JP', lines: [l1, `${ward}, ${city} ${zp}-${r.digits(4)}`] };
    }
    const a = A(ctx, 'ja');
    const zip = `${r.digits(3)}-${r.digits(4)}`;
    const block = r.chance(0.5) ? `${r.range(1, 9)}丁目${r.range(1, 30)}番${r.range(1, 20)}号` : `${r.range(1, 9)}-${r.range(1, 30)}-${r.range(1, 20)}`;
    const bld = r.chance(0.4) ? ` ${r.pick(['サンハイツ', 'グランドメゾン', 'パークコート', 'コーポ', 'レジデンス'])}${r.range(101, 1205)}号室` : '';
    const town = r.pick(['本町', '栄町', '中央', '緑町', '旭町', '桜台', '南町', '東町', '西新宿', '神宮前']);
    return { c: 'JP', lines: [`${r.chance(0.6) ? '〒' : ''}${zip}`, `${a.state}${a.city}${town}${block}${bld}`], ja: true };
  },
  CN(ctx) {
    const r = ctx.rng, a = A(ctx, 'zh_CN');
    return { c: 'CN', lines: [`${a.state}${a.city}${a.street}${r.range(1, 999)}号${r.chance(0.5) ? r.range(1, 30) + '栋' + r.range(101, 2505) + '室' : ''}`], cjk: true };
  },
  KR(ctx) {
    const r = ctx.rng, a = A(ctx, 'ko');
    return { c: 'KR', lines: [`${a.state} ${a.city} ${a.street} ${r.range(1, 300)}${r.chance(0.4) ? ', ' + r.range(101, 120) + '동 ' + r.range(101, 2505) + '호' : ''}`] };
  },
  RU(ctx) {
    const r = ctx.rng, a = A(ctx, 'ru');
    return { c: 'RU', lines: [`${a.street.startsWith('ул') ? '' : 'ул. '}${a.street}, д. ${r.range(1, 150)}${r.chance(0.6) ? ', кв. ' + r.range(1, 300) : ''}`, `${a.city}, ${r.digits(6)}`] };
  },
  ZA(ctx) {
    const r = ctx.rng, a = A(ctx, 'en_ZA');
    return { c: 'ZA', lines: [`${r.range(1, 300)} ${a.street}`, `${r.pick(['Sea Point', 'Sandton', 'Rosebank', 'Umhlanga', 'Hatfield', 'Observatory'])}`, `${r.pick(['Cape Town', 'Johannesburg', 'Durban', 'Pretoria'])}, ${r.digits(4)}`] };
  },
  NG(ctx) {
    const r = ctx.rng, a = A(ctx, 'en_NG');
    return { c: 'NG', lines: [`${r.range(1, 120)} ${a.street}`, `${r.pick(['Ikeja', 'Lekki', 'Victoria Island', 'Wuse II', 'Garki', 'Surulere', 'Yaba'])}, ${r.pick(['Lagos', 'Abuja', 'Ibadan', 'Port Harcourt'])}`] };
  },
  IL(ctx) {
    const r = ctx.rng, a = A(ctx, 'he');
    return { c: 'IL', lines: [`${a.street} ${r.range(1, 120)}`, `${a.city} ${r.digits(7)}`] };
  },
  VN(ctx) {
    const r = ctx.rng;
    return { c: 'VN', lines: [`${r.range(1, 300)}${r.chance(0.3) ? '/' + r.range(1, 40) : ''} ${r.pick(['Nguyễn Huệ', 'Lê Lợi', 'Trần Hưng Đạo', 'Hai Bà Trưng', 'Điện Biên Phủ', 'Lý Thường Kiệt'])}, ${r.pick(['Phường Bến Nghé', 'Phường 6', 'Phường Cửa Nam'])}, ${r.pick(['Quận 1', 'Quận 3', 'Quận Hoàn Kiếm'])}, ${r.pick(['TP. Hồ Chí Minh', 'Hà Nội', 'Đà Nẵng'])}`] };
  },
};

const EN_COUNTRY_W = [[40, 'US'], [12, 'UK'], [5, 'CA'], [5, 'AU'], [5, 'IN'], [2, 'IE'], [3, 'DE'], [3, 'FR'], [2, 'ES'],
  [2, 'IT'], [2, 'NL'], [1, 'AT'], [1, 'CH'], [1, 'BE'], [1, 'PT'], [2, 'BR'], [2, 'MX'], [1, 'PL'], [1, 'SE'], [1, 'NO'],
  [1, 'DK'], [1, 'FI'], [1, 'CZ'], [0.5, 'HU'], [0.5, 'RO'], [1, 'TR'], [1.5, 'GR'], [2, 'JP'], [0.5, 'CN'], [0.5, 'KR'],
  [0.5, 'RU'], [1, 'ZA'], [1, 'NG'], [0.3, 'IL'], [0.5, 'VN']];
const LANG_COUNTRY = { de: [[6, 'DE'], [2, 'AT'], [2, 'CH']], fr: [[8, 'FR'], [1, 'BE'], [1, 'CH']], es: [[6, 'ES'], [4, 'MX']],
  it: [[1, 'IT']], nl: [[4, 'NL'], [1, 'BE']], pt: [[1, 'PT'], [2, 'BR']], el: [[1, 'GR']], ja: [[1, 'JP']], pl: [[1, 'PL']],
  sv: [[1, 'SE']], tr: [[1, 'TR']], ru: [[1, 'RU']] };

export function pickCountry(rng, lang) {
  const n = LANG_COUNTRY[lang];
  if (n && rng.chance(0.8)) return rng.weighted(n);
  return rng.weighted(EN_COUNTRY_W);
}

export function makeAddress(ctx, lang = 'en', country = null) {
  const rng = ctx.rng;
  const c = country || pickCountry(rng, lang);
  const a = FORMATS[c](ctx);
  a.country = rng.pick(COUNTRY_NAMES[c] || ['']);
  return a;
}

// Renders an address.  mode: 'line' (comma-joined), 'multi' (newlines),
// 'street' (first line only, a partial address).  withCountry appends it.
export function renderAddress(rng, a, mode, withCountry) {
  let lines = a.lines.slice();
  if (mode === 'street') return lines[0];
  if (withCountry && a.country && !(a.country === '日本' && !a.ja)) lines.push(a.country);
  if (a.ja && mode === 'line') return lines.join(rng.chance(0.6) ? ' ' : '');
  if (a.cjk) return lines.join('');
  return lines.join(mode === 'multi' ? '\n' : rng.weighted([[8, ', '], [1, ' '], [1, ' - ']]));
}

// Street locales for the second street of an intersection.
const CORNER_LOCALES = ['en_US', 'en_US', 'en_GB', 'en_AU', 'en_CA', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'sv', 'pt_BR',
  'nb_NO', 'da', 'fi', 'cs_CZ', 'hu', 'el', 'tr'];

const CORNER_COUNTRY = { de: 'DE', fr: 'FR', es: 'ES', it: 'IT', nl: 'NL', pt: 'BR', el: 'GR', pl: 'PL', sv: 'SE',
  tr: 'TR' };

// An intersection of two streets ("Elm St and 5th Ave", "Kirchweg 4 &
// Rue Haute"): the two street names are the span; words around them such as
// "the corner of" stay plain text.  The second street has no house number.
export function corner(ctx, lang) {
  const rng = ctx.rng;
  const c = lang === 'en' || !CORNER_COUNTRY[lang] ? rng.pick(['US', 'US', 'US', 'UK', 'CA', 'AU', 'DE', 'FR', 'ES', 'IT',
    'NL', 'PL', 'SE', 'BR', 'GR', 'TR', 'CZ', 'NO', 'DK', 'FI']) : CORNER_COUNTRY[lang];
  let first = renderAddress(rng, makeAddress(ctx, lang, c), 'street', false).split(',')[0];
  if (!/\p{L}{3}/u.test(first)) first = 'Main Street';
  let second;
  try { second = ctx.faker(rng.pick(CORNER_LOCALES)).location.street(); } catch { second = 'Main Street'; }
  if (!second) second = 'Main Street';
  if (rng.chance(0.3)) second = `${second} ${rng.pick(['St.', 'Road', 'Ave', 'Lane'])}`;
  const [x, y] = rng.chance(0.5) ? [first, second] : [second, first];
  return x + rng.weighted([[6, ' and '], [2, ' & '], [1, ' at '], [1, ' / '], [1, ' x ']]) + y;
}

export function anyAddress(ctx, lang, opts = {}) {
  const rng = ctx.rng;
  const a = makeAddress(ctx, lang, opts.country);
  const mode = opts.mode || rng.weighted([[6, 'line'], [3, 'multi'], [1.5, 'street']]);
  return renderAddress(rng, a, mode, rng.chance(opts.countryP ?? 0.25));
}
