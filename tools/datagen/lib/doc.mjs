// doc.mjs — builds one example as a list of parts; labelled parts become spans.
// Offsets are computed at the end in Unicode code points and UTF-8 bytes.

export const LABELS = ['account_number', 'private_address', 'private_date', 'private_email',
  'private_person', 'private_phone', 'private_url', 'secret'];
const LABELSET = new Set(LABELS);

export class Doc {
  constructor() { this.parts = []; }
  t(s) { if (s) this.parts.push([String(s), null]); return this; }
  s(label, s) {
    if (!LABELSET.has(label)) throw new Error('bad label ' + label);
    s = String(s);
    // Spans never start or end with whitespace: move it outside.
    const m = /^(\s*)([\s\S]*?)(\s*)$/u.exec(s);
    if (m[1]) this.parts.push([m[1], null]);
    if (m[2]) this.parts.push([m[2], label]);
    if (m[3]) this.parts.push([m[3], null]);
    return this;
  }
  // Appends the parts of another doc (used for nested builders).
  cat(d) { for (const p of d.parts) this.parts.push(p); return this; }
  // Applies a string transform (case change) to every part.
  map(fn) { this.parts = this.parts.map(([s, l]) => [fn(s), l]); return this; }
  get length() { let n = 0; for (const [s] of this.parts) n += s.length; return n; }
  finish() {
    let text = '';
    const spans = [];
    let cp = 0, by = 0;
    for (const [s, l] of this.parts) {
      let ncp = 0;
      for (const _ of s) ncp++;
      const nb = Buffer.byteLength(s, 'utf8');
      if (l) {
        const last = spans[spans.length - 1];
        if (last && last.label === l && last.end === cp) { last.end += ncp; last.bend += nb; }
        else spans.push({ start: cp, end: cp + ncp, label: l, bstart: by, bend: by + nb });
      }
      text += s; cp += ncp; by += nb;
    }
    return { text, spans };
  }
}
