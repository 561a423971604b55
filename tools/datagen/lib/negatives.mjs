// negatives.mjs — things that look like PII but are not: organisations
// (including ones named after people), products, public places, eponyms,
// identifiers and numbers of machines and shops.

const HEX = '0123456789abcdef';

// Organisations and brands that carry a person's name (never private_person).
export const PERSON_NAMED_ORGS = ['Johnson & Johnson', 'Morgan Stanley', 'Goldman Sachs', 'Wells Fargo', 'Ford Motor Company',
  'Ford', 'Dell Technologies', 'Dell', 'Disney', 'The Walt Disney Company', 'McDonald\'s', 'Ben & Jerry\'s', 'Marks & Spencer',
  'Procter & Gamble', 'Hewlett-Packard', 'Porsche', 'Ferrari', 'Lamborghini', 'Chanel', 'Louis Vuitton', 'Ralph Lauren',
  'Calvin Klein', 'Tommy Hilfiger', 'Hugo Boss', 'Mercedes-Benz', 'Siemens', 'Bosch', 'Philips', 'Heineken', 'Kellogg\'s',
  'Campbell Soup Company', 'Boeing', 'Dyson', 'Chrysler', 'Honda', 'Toyota', 'Michelin', 'Peugeot', 'Renault', 'Cadbury',
  'Nestlé', 'Bloomberg L.P.', 'Charles Schwab', 'Merrill Lynch', 'Lehman Brothers', 'J.P. Morgan', 'Ernst & Young', 'Deloitte',
  'Wrigley', 'Tesla', 'Nobel Foundation', 'Carnegie Mellon University', 'Johns Hopkins Hospital', 'Stanford University',
  'Harvard University', 'Yale', 'Rockefeller Foundation', 'Guggenheim Museum', 'Max Planck Institute', 'Fraunhofer',
  'Bill & Melinda Gates Foundation', 'Smithsonian Institution', 'Baskin-Robbins', 'Wendy\'s', 'Dr Pepper', 'Mrs. Fields',
  'Aunt Jemima', 'Uncle Ben\'s', 'Jack Daniel\'s', 'Johnnie Walker', 'Jim Beam', 'Jameson', 'Levi Strauss & Co.', 'Adidas',
  'Harley-Davidson', 'Rolls-Royce', 'Aston Martin', 'Citroën', 'Lacoste', 'Yves Saint Laurent', 'Estée Lauder',
  'Sanyo', 'Suzuki Motor', 'Yamaha', 'Kawasaki', 'Matsumoto Kiyoshi', 'Mitsubishi', 'Takeda Pharmaceutical'];
export const EPONYMS = ['Parkinson\'s disease', 'Alzheimer\'s disease', 'Crohn\'s disease', 'Hodgkin lymphoma', 'Down syndrome',
  'Asperger syndrome', 'Tourette syndrome', 'Lou Gehrig\'s disease', 'the Heimlich maneuver', 'a Foley catheter',
  'the Glasgow Coma Scale', 'Bayes\' theorem', 'the Fourier transform', 'a Turing machine', 'Dijkstra\'s algorithm',
  'the Pythagorean theorem', 'Newton\'s second law', 'Ohm\'s law', 'the Doppler effect', 'a Petri dish', 'the Gaussian distribution',
  'Boolean logic', 'the Kalman filter', 'a Bunsen burner', 'the Richter scale', 'the Fahrenheit scale', 'Murphy\'s law',
  'the Nobel Prize', 'the Pulitzer Prize', 'the Turing Award', 'the Fields Medal', 'Euclidean distance', 'the Levenshtein distance',
  'a Fibonacci heap', 'the Hamming code', 'Huffman coding', 'the Diffie-Hellman key exchange', 'the Bloom filter', 'Morse code',
  'the Braille alphabet', 'a Ferris wheel', 'Celsius', 'the Mercator projection', 'Halley\'s Comet', 'the Hubble Space Telescope',
  'the James Webb Space Telescope', 'Kaposi sarcoma', 'Epstein-Barr virus', 'the Apgar score', 'Achilles tendon'];
export const PUBLIC_PLACES = ['the Eiffel Tower', 'Central Park', 'Heathrow Airport', 'the Golden Gate Bridge', 'Times Square',
  'the Louvre', 'the British Museum', 'Shibuya Crossing', 'Mount Fuji', 'the Acropolis', 'the Colosseum', 'Sagrada Família',
  'the Brandenburg Gate', 'Buckingham Palace', 'Lincoln Center', 'Grand Central Terminal', 'Union Station', 'the Sydney Opera House',
  'Charles de Gaulle Airport', 'Frankfurt Hauptbahnhof', 'Penn Station', 'Wembley Stadium', 'Madison Square Garden',
  'the Empire State Building', 'Trafalgar Square', 'Piccadilly Circus', 'Alexanderplatz', 'Plaza Mayor', 'the Rijksmuseum',
  'Narita Airport', 'Kyoto Station', 'Syntagma Square', 'the Parthenon', 'Hyde Park', 'the Smithsonian', 'JFK Airport',
  'O\'Hare International Airport', 'Schiphol', 'the Vatican Museums', 'the Uffizi Gallery', 'Wall Street', 'Downing Street',
  'Fifth Avenue', 'Oxford Street', 'the Champs-Élysées', 'Las Ramblas', 'Ginza', 'Yellowstone National Park', 'Lake Geneva',
  'the Rhine', 'the Thames', 'Silicon Valley', 'the Bay Area', 'Stanford Hospital', 'Mayo Clinic', 'Cleveland Clinic',
  'Massachusetts General Hospital', 'Charité', 'St Thomas\' Hospital', 'Hôpital Necker', 'the Red Cross', 'Kings Cross station'];
export const CITIES = ['London', 'Paris', 'Berlin', 'Madrid', 'Rome', 'Tokyo', 'Athens', 'New York', 'Chicago', 'San Francisco',
  'Toronto', 'Sydney', 'Mumbai', 'Amsterdam', 'Vienna', 'Zurich', 'Lisbon', 'Dublin', 'Warsaw', 'Stockholm', 'Osaka', 'Seoul',
  'Singapore', 'Dubai', 'São Paulo', 'Mexico City', 'Boston', 'Seattle', 'Austin', 'Munich', 'Lyon', 'Barcelona', 'Milan',
  'Thessaloniki', 'Kyoto', 'Hamburg', 'Brussels', 'Prague', 'Budapest', 'Istanbul', 'Cape Town', 'Lagos', 'Nairobi'];
export const PRODUCTS = ['iPhone 15 Pro', 'Galaxy S24', 'Pixel 8', 'MacBook Air', 'ThinkPad X1 Carbon', 'PlayStation 5',
  'Xbox Series X', 'Nintendo Switch', 'Kindle Paperwhite', 'AirPods Pro', 'Apple Watch', 'Surface Pro 9', 'Model 3',
  'Windows 11', 'Ubuntu 22.04 LTS', 'Debian 12', 'macOS Sonoma', 'Android 14', 'Microsoft Office', 'Photoshop', 'Slack',
  'Zoom', 'Microsoft Teams', 'Google Drive', 'Dropbox', 'Salesforce', 'Jira', 'Confluence', 'PostgreSQL', 'Redis',
  'Kubernetes', 'Docker Desktop', 'Visual Studio Code', 'IntelliJ IDEA', 'Firefox', 'Chrome', 'Safari', 'WordPress',
  'Shopify', 'Stripe Checkout', 'QuickBooks', 'Excel', 'Outlook', 'Gmail', 'WhatsApp', 'Telegram', 'Signal', 'Spotify',
  'Netflix', 'Uber', 'Airbnb', 'Booking.com', 'Dyson V15', 'Roomba j7', 'Nespresso Vertuo', 'Thermomix TM6', 'Prius',
  'Golf GTI', 'Corolla', 'Civic', 'F-150', 'Tylenol', 'Advil', 'ibuprofen 400 mg', 'amoxicillin 500 mg', 'metformin',
  'Lipitor', 'insulin glargine', 'paracetamol'];
const ORG_SUFFIX = ['Inc.', 'LLC', 'Ltd', 'GmbH', 'AG', 'SAS', 'S.A.', 'B.V.', 'plc', 'Corp.', 'Co.', 'Group', 'Holdings', 'Labs',
  'Systems', 'Technologies', 'Solutions', 'Partners', 'Consulting', 'Logistics', 'Health', 'Analytics', 'Software', 'Studio'];
const ORG_WORDS = ['Acme', 'Northwind', 'Contoso', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Blue Harbor', 'Redwood',
  'Silverline', 'Brightpath', 'Evergreen', 'Summit', 'Pinnacle', 'Horizon', 'Nimbus', 'Quantum', 'Vertex', 'Apex', 'Helios',
  'Orion', 'Nova', 'Atlas', 'Beacon', 'Cobalt', 'Crescent', 'Falcon', 'Granite', 'Ironwood', 'Juniper', 'Keystone', 'Lumen',
  'Meridian', 'Northstar', 'Oakridge', 'Polaris', 'Riverbend', 'Sequoia', 'Tidewater', 'Unity', 'Vanguard', 'Willow', 'Zenith'];

export function company(ctx, lang = 'en') {
  const rng = ctx.rng;
  const r = rng.float();
  if (r < 0.25) return rng.pick(PERSON_NAMED_ORGS);
  if (r < 0.6) return `${rng.pick(ORG_WORDS)} ${rng.pick(ORG_SUFFIX)}`;
  if (r < 0.7) return `${rng.pick(ORG_WORDS)}${rng.pick(['', ' ', '-'])}${rng.pick(ORG_WORDS)}`;
  const fk = { de: 'de', fr: 'fr', es: 'es', it: 'it', nl: 'nl', pt: 'pt_BR', el: 'el', ja: 'ja', pl: 'pl', sv: 'sv', tr: 'tr', ru: 'ru' }[lang] || 'en_US';
  try { return ctx.faker(fk).company.name(); } catch { return `${rng.pick(ORG_WORDS)} ${rng.pick(ORG_SUFFIX)}`; }
}
export function product(rng) { return rng.pick(PRODUCTS); }

export function uuid(rng) {
  const h = (n) => rng.chars(HEX, n);
  return `${h(8)}-${h(4)}-4${h(3)}-${rng.pick('89ab')}${h(3)}-${h(12)}`;
}
export function gitHash(rng, short = false) { return rng.chars(HEX, short ? rng.pick([7, 8, 10, 12]) : 40); }
export function sha256(rng) { return rng.chars(HEX, 64); }
export function version(rng) {
  return rng.weighted([[4, `${rng.range(0, 12)}.${rng.range(0, 30)}.${rng.range(0, 40)}`], [2, `v${rng.range(0, 5)}.${rng.range(0, 20)}.${rng.range(0, 9)}`],
    [1, `${rng.range(1, 3)}.${rng.range(0, 9)}.${rng.range(0, 9)}-${rng.pick(['rc1', 'beta.2', 'alpha', 'dev', 'post1'])}`], [1, `${rng.range(2019, 2025)}.${rng.range(1, 12)}`],
    [1, `${rng.range(1, 120)}.0.${rng.range(1000, 6999)}.${rng.range(10, 200)}`]]);
}
export function price(rng, lang = 'en') {
  const v = (rng.range(1, 3000) + rng.pick([0, 0.99, 0.5, 0.49, 0.95])).toFixed(2);
  if (lang === 'en') return rng.pick([`$${v}`, `USD ${v}`, `£${v}`, `€${v}`, `$${Number(v).toLocaleString('en-US', { minimumFractionDigits: 2 })}`]);
  if (lang === 'ja') return `¥${rng.range(100, 99999).toLocaleString('en-US')}`;
  return `${v.replace('.', ',')} €`;
}
export function orderNumber(rng) {
  return rng.weighted([[3, `#${rng.range(10000, 9999999)}`], [2, `ORD-${rng.range(100000, 999999)}`], [2, `${rng.digits(3)}-${rng.digits(7)}-${rng.digits(7)}`],
    [1, `INV-${rng.range(2019, 2025)}-${rng.digits(5)}`], [1, `PO${rng.digits(8)}`], [1, `SO-${rng.digits(6)}`], [1, `RMA${rng.digits(6)}`]]);
}
export function ticketId(rng) { return rng.pick(['#', 'TCK-', 'INC', 'SR-', 'CASE-', 'JIRA-', 'OPS-', 'BUG-']) + rng.range(1000, 999999); }
export function ipv4(rng) {
  return rng.weighted([[3, `10.${rng.int(256)}.${rng.int(256)}.${rng.range(1, 254)}`], [2, `192.168.${rng.int(256)}.${rng.range(1, 254)}`],
    [2, `${rng.range(11, 223)}.${rng.int(256)}.${rng.int(256)}.${rng.range(1, 254)}`], [1, `172.${rng.range(16, 31)}.${rng.int(256)}.${rng.range(1, 254)}`], [1, '127.0.0.1']]);
}
export function ipv6(rng) { const h = () => rng.chars(HEX, rng.range(1, 4)); return `2001:db8:${h()}:${h()}::${h()}`; }
export function mac(rng) { return Array.from({ length: 6 }, () => rng.chars('0123456789ABCDEF', 2)).join(rng.pick([':', '-'])); }
export function sku(rng) { return `${rng.chars('ABCDEFGHJKLMNPRSTUVWXYZ', rng.range(2, 4))}-${rng.digits(rng.range(3, 6))}${rng.chance(0.3) ? '-' + rng.pick(['BLK', 'XL', 'RED', 'S', '128GB']) : ''}`; }
export function trackingNumber(rng) { return rng.pick([`1Z${rng.chars('0123456789ABCDEFGHJKLMNPRSTUVWXYZ', 16)}`, rng.digits(12), `JD${rng.digits(18)}`, `${rng.chars('ABCDEFGHJKLMNPRSTUVWXYZ', 2)}${rng.digits(9)}GB`]); }
export function isbn(rng) { return `978-${rng.range(0, 1)}-${rng.digits(3)}-${rng.digits(5)}-${rng.int(10)}`; }
export function port(rng) { return String(rng.pick([22, 80, 443, 3000, 5432, 6379, 8080, 8443, 9090, 27017])); }
export function hexErr(rng) { return `0x${rng.chars('0123456789ABCDEF', 8)}`; }
export function percent(rng) { return `${rng.range(0, 100)}${rng.chance(0.5) ? '.' + rng.int(10) : ''}%`; }
export function quantity(rng) { return `${rng.range(1, 500)} ${rng.pick(['ms', 'MB', 'GB', 'kg', 'km', 'items', 'users', 'requests/s', 'mg', 'ml'])}`; }
export function buildNumber(rng) { return `build ${rng.range(2019, 2025)}${String(rng.range(1, 12)).padStart(2, '0')}${String(rng.range(1, 28)).padStart(2, '0')}.${rng.range(1, 9)}`; }

const IDENT_PARTS = ['user', 'name', 'email', 'phone', 'address', 'account', 'customer', 'order', 'id', 'first', 'last', 'date',
  'birth', 'token', 'secret', 'key', 'password', 'card', 'number', 'url', 'profile', 'session', 'config', 'handler', 'request',
  'response', 'buffer', 'parse', 'get', 'set', 'update', 'validate', 'format', 'street', 'city', 'zip', 'postal', 'billing'];
export function identifier(rng) {
  const parts = rng.sample(IDENT_PARTS, rng.range(2, 3));
  return rng.weighted([[3, parts.join('_')], [3, parts[0] + parts.slice(1).map((p) => p[0].toUpperCase() + p.slice(1)).join('')],
    [1, parts.map((p) => p[0].toUpperCase() + p.slice(1)).join('')], [1, parts.join('_').toUpperCase()], [1, parts.join('-')]]);
}
