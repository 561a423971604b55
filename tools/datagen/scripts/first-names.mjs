// first-names.mjs — prints the given names of @faker-js/faker's locale data
// (MIT, tools/datagen/LICENSES/faker-js.LICENSE) and the romanised given
// names of lib/names.mjs (written for this project), one per line, unsorted
// and with duplicates removed: the raw input of tools/train/lexicon.py,
// which filters it into ner/data/first_names.txt (ner/data/README.md).
//
//   node tools/datagen/scripts/first-names.mjs > build/lexicon/faker-first.txt
import { allFakers } from '@faker-js/faker';
import { ROMAN } from '../lib/names.mjs';

// Locales of languages written in the Latin script with spaces between
// words: the name lexicon matches "Given Family" pairs there.
const LOCALES = ['en', 'en_US', 'en_GB', 'en_AU', 'en_CA', 'en_IE', 'en_IN', 'en_ZA', 'en_NG', 'de', 'de_AT',
  'de_CH', 'fr', 'es', 'es_MX', 'it', 'pt_BR', 'pt_PT', 'nl', 'pl', 'sv', 'nb_NO', 'da', 'fi', 'tr', 'ro', 'hu',
  'cs_CZ', 'sk', 'hr', 'lv', 'id_ID', 'vi'];

const seen = new Set();
const add = (v) => {
  if (Array.isArray(v)) v.forEach(add);
  else if (v && typeof v === 'object') Object.values(v).forEach(add);
  else if (typeof v === 'string') seen.add(v);
};
for (const loc of LOCALES) {
  const person = allFakers[loc]?.rawDefinitions?.person;
  if (person?.first_name) add(person.first_name);
}
for (const c of Object.values(ROMAN)) add([c.m, c.f]);
process.stdout.write([...seen].join('\n') + '\n');
