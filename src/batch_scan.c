/* batch_scan.c — --check as a scanner: findings with file, line and column,
 * fingerprints, the inline allow marker, baselines, and the report formats
 * (text, json, csv, SARIF 2.1.0).  See docs/CI.md.
 *
 * Workers observe the input bytes of the file in hand (batch_scan_data,
 * before they are fed to the stream) and the spans it reports
 * (batch_scan_span); they record, per file, the offsets of line ends and
 * of the lines that hold the marker, and one finding per span.  Spans come
 * after the bytes that hold them, so every finding's line is known when it
 * arrives.  The main thread prints all findings in input order after the
 * run (batch_scan_report).
 *
 * Lines and columns are the file's own in every mode: records give the
 * raw offset of each span (pii_rec_stream_span_offset).  SARIF counts
 * columns in code points: with --report-format sarif a worker keeps a bit
 * per byte of a file that holds non-ASCII text (from its first
 * continuation byte on; 1/8 of its size, reused for the worker's next file) and
 * the count per 4 KiB, so a column costs at most a block's popcount.
 *
 * SARIF URIs are percent-encoded and relative to run.originalUriBaseIds
 * SRCROOT, the current folder (--staged: the top of the work tree), or
 * absolute file: URIs for paths outside it; standard input has none (its
 * artifactLocation holds only a description).
 *
 * Fingerprint: the first 16 hex digits of SHA-256 over "pii-redact-fp-v1",
 * the path (without a leading "./"), the label and the value, NUL-separated;
 * with a key (--key-file or $PII_REDACT_KEY; issue 42 M5) HMAC-SHA256 with
 * that key over "pii-redact-fp-v2" and the same fields, so a guessable value
 * (a birth date, a phone number) cannot be confirmed from a published
 * fingerprint without the key.  It does not depend on the line, so a
 * baseline survives edits around a finding.  Unkeyed, treat fingerprints
 * and baselines as you would the data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch_int.h"
#include "cli.h"
#include "names.h"
#include "pii_core.h"
#include "pii_json_write.h"
#include "pii_rt_write.h"
#include "pii_sha256.h"

#define MARKER "pii-redact:allow"
#define MARKER_LEN (sizeof MARKER - 1)

static int push_u64(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
    if (PII_VEC_RESERVE(*v, *cap, *n + 1))
        return -1;
    (*v)[(*n)++] = x;
    return 0;
}

void batch_scan_begin(worker *w)
{
    scan_state *s = &w->sc;
    s->fed = 0;
    s->nnl = s->nallow = s->ntail = 0;
    s->ncb = s->ncbn = 0;
    s->cr_pending = 0;
    s->oom = 0;
}

void batch_scan_free(worker *w)
{
    free(w->sc.nl);
    free(w->sc.allow);
    free(w->sc.cb);
    free(w->sc.cbn);
    memset(&w->sc, 0, sizeof w->sc);
}

/* ---- code point columns (SARIF) ----------------------------------------------- */

#define CB_BLOCK 4096u /* bytes per count in cbn */

/* Marks the continuation bytes of p[0..n) (file offsets fed..fed+n). */
static void cb_mark(scan_state *s, const uint8_t *p, size_t n)
{
    size_t i = 0;
    if (!s->ncb) { /* nothing marked yet: skip to the first continuation byte */
        while (i < n && (p[i] < 0x80 || p[i] > 0xbf))
            i++;
        if (i == n)
            return;
    }
    uint64_t end = s->fed + n;
    size_t words = (size_t)((end + 63) / 64), blocks = (size_t)((end + CB_BLOCK - 1) / CB_BLOCK);
    if (PII_VEC_RESERVE(s->cb, s->capcb, words) || PII_VEC_RESERVE(s->cbn, s->capcbn, blocks)) {
        s->oom = 1;
        return;
    }
    if (words > s->ncb) {
        memset(s->cb + s->ncb, 0, (words - s->ncb) * sizeof *s->cb);
        s->ncb = words;
    }
    if (blocks > s->ncbn) {
        memset(s->cbn + s->ncbn, 0, (blocks - s->ncbn) * sizeof *s->cbn);
        s->ncbn = blocks;
    }
    for (; i < n; i++)
        if (p[i] >= 0x80 && p[i] <= 0xbf) {
            uint64_t off = s->fed + i;
            s->cb[off / 64] |= (uint64_t)1 << (off % 64);
            s->cbn[off / CB_BLOCK]++;
        }
}

/* Continuation bytes in [a, b) of the file, bit by bit (b - a small). */
static uint64_t cb_bits(const scan_state *s, uint64_t a, uint64_t b)
{
    uint64_t n = 0;
    while (a < b) {
        uint64_t take = 64 - a % 64;
        if (take > b - a)
            take = b - a;
        uint64_t w = s->cb[a / 64] >> (a % 64);
        if (take < 64)
            w &= ((uint64_t)1 << take) - 1;
        n += (uint64_t)__builtin_popcountll(w);
        a += take;
    }
    return n;
}

/* Continuation bytes in [a, b) of the file: whole blocks by their counts. */
static uint64_t cb_count(const scan_state *s, uint64_t a, uint64_t b)
{
    uint64_t lim = (uint64_t)s->ncb * 64;
    if (b > lim)
        b = lim;
    if (a >= b)
        return 0;
    uint64_t edge = (a + CB_BLOCK - 1) / CB_BLOCK * CB_BLOCK;
    if (edge > b)
        edge = b;
    uint64_t n = cb_bits(s, a, edge);
    for (a = edge; a + CB_BLOCK <= b; a += CB_BLOCK)
        n += s->cbn[a / CB_BLOCK];
    return n + cb_bits(s, a, b);
}

/* Index of the line holding byte `off` (0-based): line ends before it. */
static size_t line_of(const scan_state *s, uint64_t off)
{
    size_t lo = 0, hi = s->nnl;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->nl[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void mark_allow(scan_state *s, uint64_t off)
{
    uint64_t line = line_of(s, off);
    if (s->nallow && s->allow[s->nallow - 1] == line)
        return;
    if (push_u64(&s->allow, &s->nallow, &s->capallow, line))
        s->oom = 1;
}

void batch_scan_data(worker *w, const uint8_t *p, size_t n)
{
    scan_state *s = &w->sc;
    if (w->b->o->report_format == PII_RFMT_SARIF)
        cb_mark(s, p, n);
    /* line ends in order: LF, and CR not followed by LF (old Mac files) */
    if (s->cr_pending && n) {
        s->cr_pending = 0;
        if (p[0] != '\n' && push_u64(&s->nl, &s->nnl, &s->capnl, s->cr_off))
            s->oom = 1;
    }
    const uint8_t *lf = memchr(p, '\n', n), *cr = memchr(p, '\r', n), *end = p + n;
    while (lf || cr) {
        const uint8_t *q = lf && (!cr || lf < cr) ? lf : cr;
        if (q == lf) {
            if (push_u64(&s->nl, &s->nnl, &s->capnl, s->fed + (uint64_t)(q - p)))
                s->oom = 1;
            lf = q + 1 < end ? memchr(q + 1, '\n', (size_t)(end - q - 1)) : NULL;
        } else {
            if (q + 1 == end)
                s->cr_pending = 1, s->cr_off = s->fed + (uint64_t)(q - p);
            else if (q[1] != '\n' &&
                     push_u64(&s->nl, &s->nnl, &s->capnl, s->fed + (uint64_t)(q - p)))
                s->oom = 1;
            cr = q + 1 < end ? memchr(q + 1, '\r', (size_t)(end - q - 1)) : NULL;
        }
    }
    /* the marker, also across the boundary with the previous block */
    uint8_t join[2 * MARKER_LEN];
    size_t k = n < MARKER_LEN - 1 ? n : MARKER_LEN - 1;
    memcpy(join, s->tail, s->ntail);
    memcpy(join + s->ntail, p, k);
    for (size_t i = 0; i + MARKER_LEN <= s->ntail + k; i++)
        if (memcmp(join + i, MARKER, MARKER_LEN) == 0)
            mark_allow(s, s->fed - s->ntail + i);
    for (size_t i = 0; i + MARKER_LEN <= n; i++) {
        const uint8_t *m = memchr(p + i, 'p', n - i - MARKER_LEN + 1);
        if (!m)
            break;
        i = (size_t)(m - p);
        if (memcmp(m, MARKER, MARKER_LEN) == 0)
            mark_allow(s, s->fed + i);
    }
    /* keep the last MARKER_LEN - 1 bytes seen */
    if (n >= MARKER_LEN - 1) {
        memcpy(s->tail, p + n - (MARKER_LEN - 1), MARKER_LEN - 1);
        s->ntail = MARKER_LEN - 1;
    } else {
        size_t keep = s->ntail + n > MARKER_LEN - 1 ? MARKER_LEN - 1 - n : s->ntail;
        memmove(s->tail, s->tail + s->ntail - keep, keep);
        memcpy(s->tail + keep, p, n);
        s->ntail = keep + n;
    }
    s->fed += n;
}

static const char *clean_path(const char *p)
{
    while (p[0] == '.' && p[1] == '/')
        p += 2;
    return p;
}

pii_err batch_scan_span(worker *w, const pii_span *sp, const uint8_t *v, size_t len)
{
    scan_state *s = &w->sc;
    bitem *it = w->it;
    finding f;
    memset(&f, 0, sizeof f);
    /* the file offset of the span: records give it through the record
     * stream (the raw bytes of the value, escapes included) */
    uint64_t off;
    if (w->rs)
        off = pii_rec_stream_span_offset(w->rs);
    else
        off =
            (w->b->o->lines ? s->doc_base[pii_stream_doc(w->cur) % BATCH_DOC_RING] : 0) + sp->start;
    size_t li = line_of(s, off);
    uint64_t ls = li ? s->nl[li - 1] + 1 : 0;
    /* --diff: the added lines' own numbers in the new file */
    f.line = it->lmap && li < it->nlmap ? it->lmap[li] : li + 1;
    f.col = off - ls + 1;
    f.ccol = f.col - (s->ncb ? cb_count(s, ls, off) : 0);
    size_t lo = 0, hi = s->nallow;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->allow[mid] < li)
            lo = mid + 1;
        else
            hi = mid;
    }
    f.allowed = lo < s->nallow && s->allow[lo] == li;
    f.label = sp->label;
    f.rule = sp->rule;
    f.source = sp->source;
    f.score = sp->score;
    pii_sha256_ctx c;
    uint8_t d[PII_SHA256_LEN], k0[64], pad[64];
    const char *path = clean_path(it->path);
    const pii_pipeline *p = w->b->p;
    if (p->key) { /* HMAC-SHA256 (RFC 2104): inner hash, fed below */
        memset(k0, 0, sizeof k0);
        if (p->keylen > sizeof k0) {
            pii_sha256_init(&c);
            pii_sha256_update(&c, p->key, p->keylen);
            pii_sha256_final(&c, k0);
        } else {
            memcpy(k0, p->key, p->keylen);
        }
        for (int i = 0; i < 64; i++)
            pad[i] = k0[i] ^ 0x36;
    }
    pii_sha256_init(&c);
    if (p->key)
        pii_sha256_update(&c, pad, sizeof pad);
    pii_sha256_update(&c, p->key ? "pii-redact-fp-v2" : "pii-redact-fp-v1", 17);
    pii_sha256_update(&c, path, strlen(path) + 1);
    pii_sha256_update(&c, sp->label, strlen(sp->label) + 1);
    pii_sha256_update(&c, v, len);
    pii_sha256_final(&c, d);
    if (p->key) { /* the outer hash */
        for (int i = 0; i < 64; i++)
            pad[i] = k0[i] ^ 0x5c;
        pii_sha256_init(&c);
        pii_sha256_update(&c, pad, sizeof pad);
        pii_sha256_update(&c, d, sizeof d);
        pii_sha256_final(&c, d);
        memset(k0, 0, sizeof k0);
        memset(pad, 0, sizeof pad);
    }
    for (int i = 0; i < 8; i++)
        snprintf(f.fp + 2 * i, 3, "%02x", d[i]);
    if (w->b->o->show_values && !(f.value = malloc(len + 1)))
        return PII_ENOMEM;
    if (f.value) {
        memcpy(f.value, v, len);
        f.value[len] = '\0';
        f.vlen = len;
    }
    if (PII_VEC_RESERVE(it->fnd, it->capfnd, it->nfnd + 1)) {
        free(f.value);
        return PII_ENOMEM;
    }
    it->fnd[it->nfnd++] = f;
    return s->oom ? PII_ENOMEM : PII_OK;
}

/* ---- baselines ------------------------------------------------------------ */

static int cmp_fp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct fpset {
    char **v;
    size_t n;
} fpset;

/* Reads the first word of each line ("#" comments and blank lines skipped). */
static int baseline_read(const char *path, fpset *s)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    size_t cap = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        size_t n = strspn(line, "0123456789abcdef");
        if (line[0] == '#' || n != 16)
            continue;
        line[n] = '\0';
        if (PII_VEC_RESERVE(s->v, cap, s->n + 1)) {
            rc = -1;
            break;
        }
        if (!(s->v[s->n] = strdup(line))) {
            rc = -1;
            break;
        }
        s->n++;
    }
    if (ferror(f))
        rc = -1;
    fclose(f);
    if (s->n)
        qsort(s->v, s->n, sizeof *s->v, cmp_fp);
    return rc;
}

static int in_set(const fpset *s, const char *fp)
{
    return s->n && bsearch(&fp, s->v, s->n, sizeof *s->v, cmp_fp) != NULL;
}

/* ---- output ------------------------------------------------------------------ */

/* A JSON string (pii_json_write.h; write errors show in ferror). */
static void jstr(FILE *f, const char *p, size_t n)
{
    (void)pii_json_fput(f, p, n, PII_JSONW_DEL);
}

/* CSV fields neutralise formula leaders (issue 42 M1; names.h). */
static void csvstr(FILE *f, const char *p, size_t n)
{
    pii_csv_field(f, p, n);
}

static const char *src_name(uint8_t s)
{
    return pii_source_name((pii_source)s);
}

static void text_line(FILE *f, const bitem *it, const finding *x, int values)
{
    /* the name escaped, never a forged line or a terminal sequence (issue
     * 42 M1; names.h) */
    if (it->is_root && strcmp(it->path, "-") == 0)
        fputc('-', f);
    else
        pii_name_put_lead(f, clean_path(it->path));
    fprintf(f, ":%llu:%llu: %s (%s", (unsigned long long)x->line, (unsigned long long)x->col,
            x->label, src_name(x->source));
    if (x->source == PII_SRC_MODEL)
        fprintf(f, " %.2f", x->score);
    fprintf(f, ") %s", x->fp);
    if (x->rule)
        fprintf(f, " [%s]", x->rule);
    if (values && x->value) {
        fputc(' ', f);
        jstr(f, x->value, x->vlen);
    }
    fputc('\n', f);
}

/* ---- SARIF 2.1.0 ------------------------------------------------------------ */

#define SARIF_ROOT "SRCROOT" /* run.originalUriBaseIds: the scan's root */

/* Writes p[0..n) percent-encoded (RFC 3986): unreserved bytes and '/' as
 * they are, every other byte (space, '%', '#', ':', non-ASCII) as %XX. */
static void uri_bytes(FILE *f, const char *p, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
            fputc(c, f);
        else
            fprintf(f, "%%%c%c", hex[c >> 4], hex[c & 15]);
    }
}

/* Joins base (absolute, or NULL) and path and removes "." and ".."
 * segments lexically into out (cap bytes): an absolute path when base is
 * given or path is absolute, else relative.  -1 when a relative path
 * climbs above its start (".." first) or out is too small. */
static int norm_path(const char *base, const char *path, char *out, size_t cap)
{
    size_t n = 0;
    int abs = (base && *base) || path[0] == '/';
    const char *parts[2] = {path[0] == '/' ? NULL : base, path};
    if (abs) {
        if (cap < 2)
            return -1;
        out[n++] = '/';
    }
    for (int k = 0; k < 2; k++)
        for (const char *q = parts[k]; q && *q;) {
            while (*q == '/')
                q++;
            size_t len = strcspn(q, "/");
            if (!len)
                break;
            if (len == 1 && q[0] == '.') {
            } else if (len == 2 && q[0] == '.' && q[1] == '.') {
                if (n <= (size_t)abs) {
                    if (!abs)
                        return -1;
                } else {
                    while (n > (size_t)abs && out[n - 1] != '/')
                        n--;
                    if (n > (size_t)abs)
                        n--; /* the '/' before it */
                }
            } else {
                if (n + len + 2 > cap)
                    return -1;
                if (n > (size_t)abs)
                    out[n++] = '/';
                memcpy(out + n, q, len);
                n += len;
            }
            q += len;
        }
    out[n] = '\0';
    return 0;
}

/* artifactLocation of a path: relative to the run's root (the current
 * folder, or the top of the work tree with --staged) with uriBaseId, or
 * an absolute file URI when the path lies outside it. */
static void sarif_location(FILE *f, const char *path, const char *cwd, int staged)
{
    char buf[8192];
    if (strcmp(path, "-") == 0) { /* no file, so no URI (not for code scanning) */
        fputs("\"artifactLocation\":{\"description\":{\"text\":\"standard input\"}}", f);
        return;
    }
    fputs("\"artifactLocation\":{\"uri\":\"", f);
    size_t cl = cwd ? strlen(cwd) : 0;
    if (!staged && path[0] != '/' && norm_path(NULL, path, buf, sizeof buf) == 0) {
        uri_bytes(f, buf, strlen(buf));
    } else if (staged) {
        uri_bytes(f, path, strlen(path));
    } else if (cwd && norm_path(cwd, path, buf, sizeof buf) == 0 && strncmp(buf, cwd, cl) == 0 &&
               (buf[cl] == '/' || (cl == 1 && cwd[0] == '/'))) {
        const char *rel = buf + cl + (cl > 1);
        uri_bytes(f, rel, strlen(rel));
    } else {
        const char *abs = path;
        if (cwd && norm_path(cwd, path, buf, sizeof buf) == 0)
            abs = buf;
        fputs("file://", f);
        uri_bytes(f, abs, strlen(abs));
        fputs("\"}", f);
        return;
    }
    fputs("\",\"uriBaseId\":\"" SARIF_ROOT "\"}", f);
}

/* The rule of a finding in the run's table: a built-in category's index,
 * else PII_NCAT + its place among the other labels. */
static int sarif_rule(const char *label, const char *const *extra, size_t nextra)
{
    int c = pii_category_index(label);
    if (c >= 0)
        return c;
    for (size_t i = 0; i < nextra; i++)
        if (strcmp(extra[i], label) == 0)
            return PII_NCAT + (int)i;
    return -1;
}

static void sarif_rule_entry(FILE *f, const char *label, int first)
{
    char text[160];
    fputs(first ? "{\"id\":" : ",{\"id\":", f);
    jstr(f, label, strlen(label));
    fputs(",\"name\":", f);
    jstr(f, label, strlen(label));
    snprintf(text, sizeof text, "personal data: %s", label);
    fputs(",\"shortDescription\":{\"text\":", f);
    jstr(f, text, strlen(text));
    fputs("},\"defaultConfiguration\":{\"level\":\"error\"}}", f);
}

static void sarif_head(FILE *f, const char *cwd, int staged, const char *const *extra,
                       size_t nextra)
{
    fputs("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
          "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"pii-redact\",\"version\":\"" PII_VERSION
          "\",\"rules\":[",
          f);
    for (int i = 0; i < PII_NCAT; i++)
        sarif_rule_entry(f, pii_categories[i], i == 0);
    for (size_t i = 0; i < nextra; i++)
        sarif_rule_entry(f, extra[i], 0);
    fputs("]}},\"originalUriBaseIds\":{\"" SARIF_ROOT "\":{", f);
    if (staged) {
        fputs("\"description\":{\"text\":\"the top of the git work tree\"}", f);
    } else if (cwd) {
        fputs("\"uri\":\"file://", f);
        uri_bytes(f, cwd, strlen(cwd));
        fputs(cwd[1] ? "/\"" : "\"", f);
    } else {
        fputs("\"description\":{\"text\":\"the folder pii-redact ran in\"}", f);
    }
    fputs("}},\"columnKind\":\"unicodeCodePoints\",\"results\":[", f);
}

static void sarif_result(FILE *f, const bitem *it, const finding *x, int rule, int first,
                         int values, const char *cwd, int staged)
{
    const char *path = clean_path(it->path);
    fprintf(f, "%s{\"ruleId\":", first ? "" : ",");
    jstr(f, x->label, strlen(x->label));
    if (rule >= 0)
        fprintf(f, ",\"ruleIndex\":%d", rule);
    fputs(",\"level\":\"error\",\"message\":{\"text\":", f);
    char msg[200];
    if (x->rule)
        snprintf(msg, sizeof msg, "%s found (%s, rule %s)", x->label, src_name(x->source), x->rule);
    else
        snprintf(msg, sizeof msg, "%s found (%s)", x->label, src_name(x->source));
    jstr(f, msg, strlen(msg));
    fputs("},\"locations\":[{\"physicalLocation\":{", f);
    sarif_location(f, path, cwd, staged);
    fprintf(f, ",\"region\":{\"startLine\":%llu,\"startColumn\":%llu}}}],",
            (unsigned long long)x->line, (unsigned long long)x->ccol);
    fprintf(f, "\"partialFingerprints\":{\"piiRedact/v1\":\"%s\"}", x->fp);
    fputs(",\"properties\":{\"source\":", f);
    jstr(f, src_name(x->source), strlen(src_name(x->source)));
    if (x->rule) {
        fputs(",\"rule\":", f);
        jstr(f, x->rule, strlen(x->rule));
    }
    if (values && x->value) {
        fputs(",\"value\":", f);
        jstr(f, x->value, x->vlen);
    }
    fputs("}}", f);
}

/* run.invocations: whether every file was read, and a notification for
 * each one that failed (its message never quotes input text). */
static void sarif_tail(FILE *f, const batch *b, const char *cwd, int staged)
{
    int ok = 1, first = 1;
    for (size_t i = 0; i < b->nitems; i++)
        ok &= b->items[i].status != ST_FAILED;
    fprintf(f, "],\"invocations\":[{\"executionSuccessful\":%s", ok ? "true" : "false");
    for (size_t i = 0; i < b->nitems; i++) {
        const bitem *it = &b->items[i];
        if (it->status != ST_FAILED)
            continue;
        fputs(first ? ",\"toolExecutionNotifications\":[" : ",", f);
        first = 0;
        const char *why = it->error ? it->error : "could not be read";
        fputs("{\"level\":\"error\",\"message\":{\"text\":", f);
        jstr(f, why, strlen(why));
        fputs("},\"locations\":[{\"physicalLocation\":{", f);
        sarif_location(f, clean_path(it->path), cwd, staged);
        fputs("}}]}", f);
    }
    fputs(first ? "}]}]}\n" : "]}]}]}\n", f);
}

/* ---- the text line -------------------------------------------------------------- */

/* Prints the findings of every file (those on an allow-marker line or in
 * the baseline left out), writes the baseline with --write-baseline.
 * Returns the number reported, or -1 after a message. */
long batch_scan_report(batch *b)
{
    const pii_opts *o = b->o;
    fpset base = {NULL, 0};
    long reported = 0;
    FILE *f = stdout;
    if (o->baseline && !o->write_baseline && baseline_read(o->baseline, &base) != 0) {
        fprintf(stderr, "pii-redact: --baseline %s: %s\n", o->baseline, strerror(errno));
        return -1;
    }
    if (o->write_baseline) {
        /* a new file beside the baseline (never a planted name or link),
         * 0600, renamed over it when complete (issue 42 H2) */
        char *tmp = NULL;
        FILE *bf = pii_rt_temp_fopen(o->baseline, &tmp);
        if (!bf) {
            fprintf(stderr, "pii-redact: --baseline %s: %s\n", o->baseline, strerror(errno));
            return -1;
        }
        fputs("# pii-redact baseline: accepted findings, one fingerprint a line "
              "(FINGERPRINT PATH:LINE LABEL)\n",
              bf);
        for (size_t i = 0; i < b->nitems; i++)
            for (size_t k = 0; k < b->items[i].nfnd; k++) {
                const finding *x = &b->items[i].fnd[k];
                if (x->allowed)
                    continue;
                fprintf(bf, "%s ", x->fp); /* the name escaped: no forged entry */
                pii_name_put(bf, clean_path(b->items[i].path));
                fprintf(bf, ":%llu %s\n", (unsigned long long)x->line, x->label);
            }
        int bad = ferror(bf);
        bad |= fclose(bf) != 0;
        if (bad || rename(tmp, o->baseline) != 0) {
            fprintf(stderr, "pii-redact: --baseline %s: %s\n", o->baseline,
                    strerror(errno ? errno : EIO));
            unlink(tmp);
            bad = 1;
        }
        free(tmp);
        return bad ? -1 : 0;
    }
    int fmt = o->report_format, first = 1;
    /* SARIF: the labels outside the built-in categories (--deny lines),
     * each with a rule entry, and the root the URIs are relative to */
    const char **extra = NULL;
    size_t nextra = 0, capextra = 0;
    char cwdbuf[4096];
    const char *cwd = NULL;
    if (fmt == PII_RFMT_SARIF) {
        cwd = getcwd(cwdbuf, sizeof cwdbuf);
        for (size_t i = 0; i < b->nitems; i++)
            for (size_t k = 0; k < b->items[i].nfnd; k++) {
                const finding *x = &b->items[i].fnd[k];
                if (x->allowed || in_set(&base, x->fp) || sarif_rule(x->label, extra, nextra) >= 0)
                    continue;
                if (PII_VEC_RESERVE(extra, capextra, nextra + 1)) {
                    fprintf(stderr, "pii-redact: out of memory writing the report\n");
                    reported = -1;
                    goto out;
                }
                extra[nextra++] = x->label;
            }
    }
    if (fmt == PII_RFMT_JSON)
        fputs("{\"findings\":[", f);
    else if (fmt == PII_RFMT_SARIF)
        sarif_head(f, cwd, o->staged, extra, nextra);
    else if (fmt == PII_RFMT_CSV)
        fprintf(f, "path,line,column,label,source,score,fingerprint,rule%s\n",
                o->show_values ? ",value" : "");
    for (size_t i = 0; i < b->nitems; i++) {
        const bitem *it = &b->items[i];
        for (size_t k = 0; k < it->nfnd; k++) {
            const finding *x = &it->fnd[k];
            if (x->allowed || in_set(&base, x->fp))
                continue;
            reported++;
            b->items[i].reported++;
            const char *path = clean_path(it->path);
            switch (fmt) {
            case PII_RFMT_TEXT:
                text_line(f, it, x, o->show_values);
                break;
            case PII_RFMT_JSON:
                fputs(first ? "\n" : ",\n", f);
                fputs("{\"path\":", f);
                jstr(f, path, strlen(path));
                fprintf(f,
                        ",\"line\":%llu,\"column\":%llu,\"label\":\"%s\",\"source\":\"%s\","
                        "\"score\":%.4f,\"fingerprint\":\"%s\"",
                        (unsigned long long)x->line, (unsigned long long)x->col, x->label,
                        src_name(x->source), x->score, x->fp);
                fputs(",\"rule\":", f);
                if (x->rule)
                    jstr(f, x->rule, strlen(x->rule));
                else
                    fputs("null", f);
                if (o->show_values && x->value) {
                    fputs(",\"value\":", f);
                    jstr(f, x->value, x->vlen);
                }
                fputc('}', f);
                break;
            case PII_RFMT_CSV:
                csvstr(f, path, strlen(path));
                fprintf(f, ",%llu,%llu,%s,%s,%.4f,%s", (unsigned long long)x->line,
                        (unsigned long long)x->col, x->label, src_name(x->source), x->score, x->fp);
                fputc(',', f);
                if (x->rule)
                    csvstr(f, x->rule, strlen(x->rule));
                if (o->show_values && x->value) {
                    fputc(',', f);
                    csvstr(f, x->value, x->vlen);
                }
                fputc('\n', f);
                break;
            case PII_RFMT_SARIF:
                sarif_result(f, it, x, sarif_rule(x->label, extra, nextra), first, o->show_values,
                             cwd, o->staged);
                break;
            }
            first = 0;
        }
    }
    if (fmt == PII_RFMT_JSON)
        fputs(first ? "]}\n" : "\n]}\n", f);
    else if (fmt == PII_RFMT_SARIF)
        sarif_tail(f, b, cwd, o->staged);
out:
    free(extra);
    for (size_t i = 0; i < base.n; i++)
        free(base.v[i]);
    free(base.v);
    return reported;
}

void batch_scan_item_free(bitem *it)
{
    for (size_t k = 0; k < it->nfnd; k++)
        free(it->fnd[k].value);
    free(it->fnd);
    it->fnd = NULL;
    it->nfnd = it->capfnd = 0;
}
