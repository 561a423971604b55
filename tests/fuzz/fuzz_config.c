/* fuzz_config.c — config.json of a Hugging Face model directory.
 * Input: the config.json text.  It is loaded with pii_model_load_mem
 * against the weights of a tiny random model synthesised at start-up
 * (pii_model_synth, the seeds' shapes), so a configuration that passes the
 * checks goes on to bind tensors and, when the shapes agree, to run a
 * forward pass.  Checked: no crash, leak or undefined behaviour; errors
 * carry a NUL-terminated message; limits are refused before allocation
 * (a configuration claiming huge sizes cannot bind to the tiny weights).
 *
 * FUZZ_ARGS: -max_len=16384
 */
#include "fuzz.h"

#include "fuzz_store.inc"
#include "fuzz_util.inc"
#include "pii_model_synth.h"

static uint8_t *g_st;
static size_t g_st_len;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    pii_model_synth s;
    pii_model_synth_default(&s);
    pii_model_config *c = &s.cfg;
    c->vocab_size = 12;
    c->d_model = 8;
    c->n_layers = 1;
    c->n_heads = 2;
    c->n_kv_heads = 1;
    c->head_dim = 4;
    c->d_expert = 4;
    c->n_experts = 3;
    c->top_k = 2;
    c->window = 2;
    c->n_labels = 5;
    c->pad_id = -1;
    s.seed = 3;
    s.dtype = PII_DT_F32;
    char dir[200], path[260], msg[256];
    const char *any = fuzz_tmpfile("model.keep", "", 0, 0600);
    snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(any, '/') - any), any);
    FUZZ_CHECK(pii_model_synth_write_hf(&s, dir, msg, sizeof msg) == PII_OK);
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f && fseek(f, 0, SEEK_END) == 0);
    g_st_len = (size_t)ftell(f);
    rewind(f);
    g_st = malloc(g_st_len);
    FUZZ_CHECK(g_st && fread(g_st, 1, g_st_len, f) == g_st_len);
    fclose(f);
    unlink(path);
    snprintf(path, sizeof path, "%s/config.json", dir);
    unlink(path);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    pii_err e;
    pii_model *m =
        pii_model_load_mem((const char *)data, size, g_st, g_st_len, NULL, &e, err, sizeof err);
    if (m)
        run_model(m);
    else
        FUZZ_CHECK(e != PII_OK && memchr(err, 0, sizeof err));
    pii_model_free(m);
    return 0;
}
