// rng.mjs — a small deterministic PRNG (sfc32 seeded through splitmix32).
// Every record gets its own stream derived from (seed, index), so output is
// byte-identical for a fixed seed whatever the chunking or worker count.

function splitmix32(a) {
  return function () {
    a |= 0;
    a = (a + 0x9e3779b9) | 0;
    let t = a ^ (a >>> 16);
    t = Math.imul(t, 0x21f0aaad);
    t = t ^ (t >>> 15);
    t = Math.imul(t, 0x735a2d97);
    return (t ^ (t >>> 15)) >>> 0;
  };
}

export class Rng {
  constructor(seed, stream = 0) {
    const sm = splitmix32((seed ^ Math.imul(stream + 1, 0x85ebca6b)) >>> 0);
    sm();
    this.a = sm(); this.b = sm(); this.c = sm(); this.d = sm() | 1;
    for (let i = 0; i < 12; i++) this.u32();
  }
  u32() {
    let { a, b, c, d } = this;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    this.a = a; this.b = b; this.c = c; this.d = d;
    return t >>> 0;
  }
  float() { return this.u32() / 4294967296; }
  int(n) { return n <= 0 ? 0 : Math.floor(this.float() * n); }       // [0, n)
  range(lo, hi) { return lo + this.int(hi - lo + 1); }                // [lo, hi]
  chance(p) { return this.float() < p; }
  pick(arr) { return arr[this.int(arr.length)]; }
  // pairs: [[weight, value], ...]
  weighted(pairs) {
    let tot = 0;
    for (const p of pairs) tot += p[0];
    let x = this.float() * tot;
    for (const p of pairs) { x -= p[0]; if (x < 0) return p[1]; }
    return pairs[pairs.length - 1][1];
  }
  digits(n) { let s = ''; for (let i = 0; i < n; i++) s += String.fromCharCode(48 + this.int(10)); return s; }
  chars(alphabet, n) { let s = ''; for (let i = 0; i < n; i++) s += alphabet[this.int(alphabet.length)]; return s; }
  shuffle(arr) {
    const a = arr.slice();
    for (let i = a.length - 1; i > 0; i--) { const j = this.int(i + 1); [a[i], a[j]] = [a[j], a[i]]; }
    return a;
  }
  sample(arr, k) { return this.shuffle(arr).slice(0, Math.min(k, arr.length)); }
}
