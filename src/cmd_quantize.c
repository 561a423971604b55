/* cmd_quantize.c — `pii-redact quantize -m IN -o OUT --type int8|int4`:
 * writes a copy of an HF-layout Privacy Filter model whose expert weights
 * (and, with --attn, the attention projections) are replaced by the
 * project's quantized panel streams (docs/FORMATS.md "Quantized models"):
 *
 *   model.layers.L.mlp.experts.gate_proj.q8   I8 [E][ceil(I/64)][256 + 64 D]
 *   model.layers.L.mlp.experts.up_proj.q8     I8 [E][ceil(I/64)][256 + 64 D]
 *   model.layers.L.mlp.experts.down_proj.q8   I8 [E][ceil(D/64)][256 + 64 I]
 *   model.layers.L.self_attn.X_proj.q8        I8 [ceil(out/64)][256 + 64 in]
 *   (int4: .q4, U8, panel bytes in/32 * 1280)
 *
 * Every other tensor is copied byte for byte; the header metadata gets
 * pii_quant = int8|int4 and pii_quant_layout = panel64-v1.  config.json is
 * copied, and tokenizer.json, tokenizer_config.json and
 * viterbi_calibration.json when the input has them.  The output is
 * written to a new temporary file (pii_rt_temp_create) and renamed when complete.  A
 * matrix whose input width does not fit the type (int8: multiple of 4,
 * int4: multiple of 32) stays as it was, with a note on stderr. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "model_cli.h"
#include "pii_rt_write.h"

static const mc_opt opts[] = {
    {"model", 'm', "PATH", "input model (HF directory or .safetensors with config.json)"},
    {"output", 'o', "DIR", "output directory (created when missing)"},
    {"type", 0, "T", "int8 (per-channel scales) or int4 (groups of 32, scale + offset)"},
    {"attn", 0, NULL, "also quantize the attention projections q, k, v, o"},
    {"help", 'h', NULL, "show this help and exit"},
};
#define NOPTS (sizeof opts / sizeof opts[0])
#define CMD "quantize"

typedef enum { K_COPY, K_GATEUP, K_DOWN, K_ATTN } kind;

typedef struct plan {
    const pii_rt_tensor *t;
    kind k;
} plan;

static int copy_file(const char *src, const char *dst)
{
    FILE *in = fopen(src, "rb");
    if (!in)
        return errno == ENOENT ? 1 : -1;
    char *tmp = NULL;
    FILE *out = pii_rt_temp_fopen(dst, &tmp); /* never through a planted link */
    if (!out) {
        fclose(in);
        return -1;
    }
    char buf[1 << 16];
    size_t k;
    int bad = 0;
    while ((k = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, k, out) != k)
            bad = 1;
    bad |= ferror(in);
    fclose(in);
    if (fclose(out) != 0)
        bad = 1;
    if (bad || rename(tmp, dst) != 0) {
        remove(tmp);
        bad = 1;
    }
    free(tmp);
    return bad ? -1 : 0;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* Writes one quantized matrix stream (from view src) through the writer. */
static pii_err put_q(pii_rt_st_writer *w, const pii_rt_mat *src, pii_dtype qt, uint8_t *buf,
                     size_t cap)
{
    uint64_t nb = pii_rt_qmat_bytes(qt, src->n_in, src->n_out);
    pii_err e = pii_rt_quantize(src, qt, buf, cap, NULL);
    return e ? e : pii_rt_st_writer_data(w, buf, (size_t)nb);
}

int pii_cmd_quantize(int argc, char **argv)
{
    const char *in = NULL, *outd = NULL, *type = NULL, *val;
    int attn = 0, i = 1, k, status = PII_EXIT_OK;
    while ((k = mc_next(CMD, argc, argv, &i, opts, NOPTS, &val)) != MC_END) {
        if (k == MC_ERR)
            return PII_EXIT_USAGE;
        if (k == MC_POS) {
            fprintf(stderr, "pii-redact quantize: unexpected argument '%s'\n", val);
            return PII_EXIT_USAGE;
        }
        const char *nm = opts[k].name;
        if (!strcmp(nm, "help")) {
            mc_usage(stdout, "pii-redact quantize -m IN -o OUT --type int8|int4 [--attn]",
                     "Writes OUT/model.safetensors (and config.json, tokenizer files) with the\n"
                     "expert weights quantized: int8 with one scale per output channel, or "
                     "int4\nin groups of 32 inputs with an f16 scale and offset.  The quantized "
                     "model\nloads like any other (mmap, no conversion) and runs on int8 "
                     "kernels\n(AVX-512 VNNI, AVX2 or scalar) with activations quantized per "
                     "token.\nLayout: docs/FORMATS.md.",
                     opts, NOPTS);
            return PII_EXIT_OK;
        }
        if (!strcmp(nm, "model"))
            in = val;
        else if (!strcmp(nm, "output"))
            outd = val;
        else if (!strcmp(nm, "type"))
            type = val;
        else if (!strcmp(nm, "attn"))
            attn = 1;
    }
    if (!in || !outd || !type) {
        fprintf(stderr, "pii-redact quantize: -m IN, -o OUT and --type are required\n");
        return PII_EXIT_USAGE;
    }
    pii_dtype qt;
    if (!strcmp(type, "int8"))
        qt = PII_DT_Q8_ROW;
    else if (!strcmp(type, "int4"))
        qt = PII_DT_Q4_G32;
    else {
        fprintf(stderr, "pii-redact quantize: --type: expected int8 or int4\n");
        return PII_EXIT_USAGE;
    }
    pii_model *m = mc_load(CMD, in, 0, &status);
    if (!m)
        return status;
    const pii_rt_store *s = pii_model_store(m);
    const pii_model_config *c = pii_model_cfg(m);
    const char *indir = pii_model_dir(m);
    pii_rt_st_writer *w = NULL;
    FILE *f = NULL;
    plan *pl = NULL;
    uint8_t *buf = NULL;
    char *path = NULL, *tmp = NULL;
    pii_err e = PII_OK;
    if (pii_rt_store_format(s) != PII_RT_FMT_SAFETENSORS ||
        pii_model_layout_of(m) != PII_MODEL_HF) {
        fprintf(stderr,
                "pii-redact quantize: %s: needs a safetensors model in the HF layout "
                "(opf's native layout and GGUF are not quantized)\n",
                in);
        status = PII_EXIT_USAGE;
        goto out;
    }
    pii_dtype edt = pii_model_expert_dtype(m);
    if (edt == PII_DT_Q8_ROW || edt == PII_DT_Q4_G32) {
        fprintf(stderr, "pii-redact quantize: %s: the model is already quantized\n", in);
        status = PII_EXIT_USAGE;
        goto out;
    }
    if (mkdir(outd, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "pii-redact quantize: %s: %s\n", outd, strerror(errno));
        status = PII_EXIT_IO;
        goto out;
    }
    const uint64_t D = (uint64_t)c->d_model, I = (uint64_t)c->d_expert, E = (uint64_t)c->n_experts;
    int q_exp = pii_rt_qmat_bytes(qt, D, I) && pii_rt_qmat_bytes(qt, I, D);
    if (!q_exp)
        fprintf(stderr,
                "pii-redact quantize: note: d_model %llu / intermediate %llu do not fit "
                "%s; experts stay unquantized\n",
                (unsigned long long)D, (unsigned long long)I, type);
    size_t nt = pii_rt_store_count(s), cap = 0;
    pl = calloc(nt, sizeof *pl);
    if (!pl || !(w = pii_rt_st_writer_create(&e)))
        goto fail;
    if ((e = pii_rt_st_writer_meta(w, "format", "pt")) ||
        (e = pii_rt_st_writer_meta(w, "pii_quant", type)) ||
        (e = pii_rt_st_writer_meta(w, "pii_quant_layout", "panel64-v1")))
        goto fail;
    char nm[600];
    for (size_t j = 0; j < nt; j++) {
        const pii_rt_tensor *t = pii_rt_store_at(s, j);
        pl[j].t = t;
        pl[j].k = K_COPY;
        if (strncmp(t->name, "model.layers.", 13) == 0 && t->ndim == 3 && q_exp) {
            if (ends_with(t->name, ".mlp.experts.gate_up_proj"))
                pl[j].k = K_GATEUP;
            else if (ends_with(t->name, ".mlp.experts.down_proj"))
                pl[j].k = K_DOWN;
        } else if (attn && strncmp(t->name, "model.layers.", 13) == 0 && t->ndim == 2 &&
                   strstr(t->name, ".self_attn.") && ends_with(t->name, "_proj.weight")) {
            if (pii_rt_qmat_bytes(qt, (uint64_t)t->shape[1], (uint64_t)t->shape[0]))
                pl[j].k = K_ATTN;
            else
                fprintf(stderr, "pii-redact quantize: note: %s stays %s (input width %lld)\n",
                        t->name, pii_dtype_name(t->dtype), (long long)t->shape[1]);
        }
        const char *sfx = qt == PII_DT_Q8_ROW ? "q8" : "q4";
        pii_dtype sd = qt == PII_DT_Q8_ROW ? PII_DT_I8 : PII_DT_U8;
        size_t stem = strlen(t->name);
        switch (pl[j].k) {
        case K_COPY:
            e = pii_rt_st_writer_add(w, t->name, t->dtype, t->ndim, t->shape);
            break;
        case K_GATEUP:
        case K_DOWN: {
            stem -= pl[j].k == K_GATEUP ? strlen("gate_up_proj") : strlen("down_proj");
            uint64_t ni = pl[j].k == K_GATEUP ? D : I, no = pl[j].k == K_GATEUP ? I : D;
            uint64_t mb = pii_rt_qmat_bytes(qt, ni, no), np = (no + 63) / 64;
            int64_t sh[3] = {(int64_t)E, (int64_t)np, (int64_t)(mb / np)};
            cap = mb > cap ? mb : cap;
            for (int h = 0; h < (pl[j].k == K_GATEUP ? 2 : 1) && !e; h++) {
                snprintf(nm, sizeof nm, "%.*s%s.%s", (int)stem, t->name,
                         pl[j].k == K_DOWN ? "down_proj"
                         : h               ? "up_proj"
                                           : "gate_proj",
                         sfx);
                e = pii_rt_st_writer_add(w, nm, sd, 3, sh);
            }
            break;
        }
        case K_ATTN: {
            uint64_t ni = (uint64_t)t->shape[1], no = (uint64_t)t->shape[0];
            uint64_t mb = pii_rt_qmat_bytes(qt, ni, no), np = (no + 63) / 64;
            int64_t sh[2] = {(int64_t)np, (int64_t)(mb / np)};
            cap = mb > cap ? mb : cap;
            snprintf(nm, sizeof nm, "%.*s.%s", (int)(stem - strlen(".weight")), t->name, sfx);
            e = pii_rt_st_writer_add(w, nm, sd, 2, sh);
            break;
        }
        }
        if (e)
            goto fail;
    }
    size_t dl = strlen(outd);
    path = malloc(dl + 64);
    if (!path || (cap && !(buf = malloc(cap)))) {
        e = PII_ENOMEM;
        goto fail;
    }
    snprintf(path, dl + 64, "%s/model.safetensors", outd);
    if (!(f = pii_rt_temp_fopen(path, &tmp))) {
        fprintf(stderr, "pii-redact quantize: %s: cannot create a temporary file: %s\n", path,
                strerror(errno));
        status = PII_EXIT_IO;
        goto out;
    }
    if ((e = pii_rt_st_writer_begin(w, f)))
        goto fail;
    for (size_t j = 0; j < nt && !e; j++) {
        const pii_rt_tensor *t = pl[j].t;
        pii_rt_mat src;
        switch (pl[j].k) {
        case K_COPY:
            e = pii_rt_st_writer_data(w, t->data, (size_t)t->nbytes);
            break;
        case K_GATEUP:
            for (int h = 0; h < 2 && !e; h++)
                for (uint64_t x = 0; x < E && !e; x++)
                    if (!(e = pii_rt_mat_view(&src, t, PII_RT_IO, (int64_t)x, h ? (uint32_t)I : 0,
                                              (uint32_t)I)))
                        e = put_q(w, &src, qt, buf, cap);
            break;
        case K_DOWN:
            for (uint64_t x = 0; x < E && !e; x++)
                if (!(e = pii_rt_mat_view(&src, t, PII_RT_IO, (int64_t)x, 0, 0)))
                    e = put_q(w, &src, qt, buf, cap);
            break;
        case K_ATTN:
            if (!(e = pii_rt_mat_view(&src, t, PII_RT_OI, 0, 0, 0)))
                e = put_q(w, &src, qt, buf, cap);
            break;
        }
        if (e)
            fprintf(stderr, "pii-redact quantize: tensor '%s': %s\n", t->name, pii_strerror(e));
    }
    if (e || (e = pii_rt_st_writer_end(w)))
        goto fail;
    if (fflush(f) != 0 || ferror(f)) {
        e = PII_EWRITE;
        goto fail;
    }
    int cl = fclose(f);
    f = NULL;
    if (cl != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "pii-redact quantize: %s: %s\n", path, strerror(errno));
        remove(tmp);
        status = PII_EXIT_IO;
        goto out;
    }
    static const char *const side[] = {"config.json", "tokenizer.json", "tokenizer_config.json",
                                       "viterbi_calibration.json"};
    for (size_t j = 0; j < sizeof side / sizeof side[0]; j++) {
        char a[4096], b[4096];
        snprintf(a, sizeof a, "%s/%s", indir ? indir : ".", side[j]);
        snprintf(b, sizeof b, "%s/%s", outd, side[j]);
        int r = copy_file(a, b);
        if (r < 0 || (r > 0 && j == 0)) {
            fprintf(stderr, "pii-redact quantize: cannot copy %s to %s\n", a, b);
            status = PII_EXIT_IO;
            goto out;
        }
    }
    goto out;
fail:
    fprintf(stderr, "pii-redact quantize: %s: %s\n", tmp ? tmp : outd, pii_strerror(e));
    status = e == PII_ENOMEM ? PII_EXIT_FAIL : PII_EXIT_IO;
out:
    if (f) {
        fclose(f);
        remove(tmp);
    }
    pii_rt_st_writer_free(w);
    pii_model_free(m);
    free(pl);
    free(buf);
    free(path);
    free(tmp);
    return status;
}
