// systext.mjs — real prose and code from this machine, used as negatives
// (text with no private data).  Nothing is copied into the repository: the
// generator reads these files at run time.  Sources (Debian 12):
//   /usr/share/common-licenses/*   license texts (their own terms; they
//                                  permit verbatim copying)
//   /usr/lib/python3.11/**.py      docstrings and code of the Python
//                                  standard library (PSF License)
// Paragraphs that mention people, e-mail addresses or copyright holders are
// dropped so that the negatives carry no unlabelled PII.

import fs from 'node:fs';
import path from 'node:path';

const LICENSE_DIR = '/usr/share/common-licenses';
const PY_DIR = '/usr/lib/python3.11';
const PY_SUBDIRS = ['', 'json', 'http', 'urllib', 'asyncio', 'concurrent/futures', 'logging', 'xml/dom', 'xml/etree',
  'multiprocessing', 'collections', 'importlib', 'unittest', 'sqlite3', 'ctypes', 'html', 'wsgiref', 'dbm', 'zoneinfo', 'tomllib', 'venv'];

const BAD = /@[\w-]+\.|copyright|\(c\)|author|written by|contributed|thanks to|maintainer|guido|van rossum|\bby [A-Z][a-z]+ [A-Z][a-z]+|[A-Z][a-z]+ [A-Z][a-z]+ <|https?:\/\/\S*(~|user|people)/i;

function readSorted(dir, filter) {
  try { return fs.readdirSync(dir).filter(filter).sort().map((f) => path.join(dir, f)); } catch { return []; }
}

let cache = null;
export function loadSystemText() {
  if (cache) return cache;
  const prose = [], codeChunks = [];
  for (const f of readSorted(LICENSE_DIR, (n) => !n.startsWith('.'))) {
    let st; try { st = fs.statSync(f); } catch { continue; }
    if (!st.isFile()) continue;
    const txt = fs.readFileSync(f, 'utf8');
    for (const para of txt.split(/\n\s*\n/)) {
      const p = para.replace(/[ \t]+\n/g, '\n').trim();
      if (p.length >= 80 && p.length <= 2500 && !BAD.test(p)) prose.push(p);
    }
  }
  for (const sub of PY_SUBDIRS) {
    for (const f of readSorted(path.join(PY_DIR, sub), (n) => n.endsWith('.py'))) {
      let txt; try { txt = fs.readFileSync(f, 'utf8'); } catch { continue; }
      for (const m of txt.matchAll(/"""([\s\S]*?)"""/g)) {
        const lines = m[1].split('\n');
        const ind = Math.min(...lines.slice(1).filter((l) => l.trim()).map((l) => l.match(/^ */)[0].length), 99);
        const d = [lines[0].trim(), ...lines.slice(1).map((l) => l.slice(ind === 99 ? 0 : ind))].join('\n').trim();
        if (d.length >= 60 && d.length <= 2500 && !BAD.test(d)) prose.push(d);
      }
      // code: chunks of 8-30 lines cut at blank lines
      const lines = txt.split('\n');
      let cur = [];
      for (const l of lines) {
        cur.push(l);
        if ((l.trim() === '' && cur.length >= 8) || cur.length >= 30) {
          const c = cur.join('\n').trim();
          if (c.length >= 120 && !BAD.test(c)) codeChunks.push(c);
          cur = [];
        }
      }
    }
  }
  cache = { prose, code: codeChunks };
  return cache;
}
