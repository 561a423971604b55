// tok_node.cjs - o200k_base tokenizer backend for tools/train (fallback when
// the C `pii-redact tokenize` is not built).  Reads JSONL on stdin, each line
// an object with a "text" string; writes one JSON line per input:
//   {"ids":[...], "offsets":[[bs,be],...]}
// with UTF-8 byte offsets that tile the text.  Special-token literals such as
// "<|endoftext|>" are encoded as plain text (no special ids).
// With --vocab: writes one JSON line per token id 0..N-1 instead:
//   {"id":N,"hex":"..."}  (the token's bytes in hex; specials omitted)
"use strict";
const readline = require("readline");
const { get_encoding } = require("tiktoken");
const enc = get_encoding("o200k_base");

if (process.argv.includes("--vocab")) {
    const out = [];
    for (let id = 0; id < 199998; id++) {
        const b = enc.decode_single_token_bytes(id);
        out.push(JSON.stringify({ id, hex: Buffer.from(b).toString("hex") }));
        if (out.length >= 4096) { process.stdout.write(out.join("\n") + "\n"); out.length = 0; }
    }
    if (out.length) process.stdout.write(out.join("\n") + "\n");
} else {
    const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    const lens = new Map();
    const buf = [];
    rl.on("line", (line) => {
        if (!line.trim()) return;
        const text = JSON.parse(line).text;
        const ids = enc.encode(text, [], []);
        const offsets = [];
        let pos = 0;
        for (const id of ids) {
            let n = lens.get(id);
            if (n === undefined) { n = enc.decode_single_token_bytes(id).length; lens.set(id, n); }
            offsets.push([pos, pos + n]);
            pos += n;
        }
        buf.push(JSON.stringify({ ids: Array.from(ids), offsets }));
        if (buf.length >= 256) { process.stdout.write(buf.join("\n") + "\n"); buf.length = 0; }
    });
    rl.on("close", () => { if (buf.length) process.stdout.write(buf.join("\n") + "\n"); });
}
