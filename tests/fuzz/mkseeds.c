/* mkseeds.c — regenerates the model-file seeds of the fuzz corpora:
 * tiny random-weight models (pii_model_synth) as safetensors (F32, BF16,
 * F16, compact embedding table), GGUF (F16 and Q8_0 experts) and their
 * config.json.  `make fuzz-seeds` runs it; the outputs are committed.
 *   mkseeds OUTDIR   (writes OUTDIR/safetensors/, OUTDIR/gguf/, OUTDIR/config/) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pii_model.h"
#include "pii_model_synth.h"

/* The smallest shapes the layout allows; Q8_0 needs widths that are
 * multiples of 32. */
static void tiny(pii_model_synth *s, int q8)
{
    pii_model_synth_default(s);
    pii_model_config *c = &s->cfg;
    c->vocab_size = 12;
    c->d_model = q8 ? 32 : 8;
    c->n_layers = 1;
    c->n_heads = 2;
    c->n_kv_heads = 1;
    c->head_dim = 4;
    c->d_expert = q8 ? 32 : 4;
    c->n_experts = 3;
    c->top_k = 2;
    c->window = 2;
    c->n_labels = 5;
    c->pad_id = -1;
    s->seed = 3;
}

static int copy(const char *from, const char *to)
{
    FILE *f = fopen(from, "rb"), *g = fopen(to, "wb");
    char buf[65536];
    size_t n;
    int rc = f && g ? 0 : -1;
    while (!rc && (n = fread(buf, 1, sizeof buf, f)) > 0)
        if (fwrite(buf, 1, n, g) != n)
            rc = -1;
    if (f)
        fclose(f);
    if (g && fclose(g))
        rc = -1;
    if (rc)
        fprintf(stderr, "mkseeds: %s -> %s failed\n", from, to);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mkseeds OUTDIR\n");
        return 2;
    }
    char tmp[] = "/tmp/mkseeds.XXXXXX", p[512], q[512], msg[512];
    if (!mkdtemp(tmp))
        return 1;
    static const struct {
        const char *name;
        pii_dtype dt;
        int compact;
    } st[] = {{"synth-f32", PII_DT_F32, 0},
              {"synth-bf16", PII_DT_BF16, 0},
              {"synth-f16", PII_DT_F16, 0},
              {"synth-compact", PII_DT_BF16, 1}};
    pii_model_synth s;
    int rc = 0;
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
        tiny(&s, 0);
        s.dtype = st[i].dt;
        s.embed_rows = st[i].compact ? 4 : 0;
        snprintf(p, sizeof p, "%s/%s", tmp, st[i].name);
        if (pii_model_synth_write_hf(&s, p, msg, sizeof msg)) {
            fprintf(stderr, "mkseeds: %s\n", msg);
            return 1;
        }
        snprintf(p, sizeof p, "%s/%s/model.safetensors", tmp, st[i].name);
        snprintf(q, sizeof q, "%s/safetensors/%s.safetensors", argv[1], st[i].name);
        rc |= copy(p, q);
        snprintf(p, sizeof p, "%s/%s/config.json", tmp, st[i].name);
        snprintf(q, sizeof q, "%s/config/%s.json", argv[1], st[i].name);
        rc |= copy(p, q);
    }
    static const struct {
        const char *name;
        pii_dtype experts;
    } gg[] = {{"synth-f16", PII_DT_F16}, {"synth-q8", PII_DT_Q8_0}};
    for (size_t i = 0; i < sizeof gg / sizeof gg[0]; i++) {
        tiny(&s, gg[i].experts == PII_DT_Q8_0);
        s.gguf_experts = gg[i].experts;
        snprintf(q, sizeof q, "%s/gguf/%s.gguf", argv[1], gg[i].name);
        if (pii_model_synth_write_gguf(&s, q, msg, sizeof msg)) {
            fprintf(stderr, "mkseeds: %s\n", msg);
            return 1;
        }
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        rc = 1;
    return rc ? 1 : 0;
}
