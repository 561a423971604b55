/* cmd_mkmodel.c — `pii-redact mkmodel`: writes a deterministic random-weight
 * Privacy Filter model (HF layout, or one GGUF file in LocalAI's layout). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "model_cli.h"
#include "pii_model_synth.h"

static const mc_opt opts[] = {
    {"output", 'o', "PATH", "output directory (HF layout) or .gguf file (with --gguf)"},
    {"layers", 0, "N", "num_hidden_layers (8)"},
    {"d-model", 0, "N", "hidden_size (640)"},
    {"heads", 0, "N", "num_attention_heads (14)"},
    {"kv-heads", 0, "N", "num_key_value_heads (2)"},
    {"head-dim", 0, "N", "head_dim (64)"},
    {"intermediate", 0, "N", "expert intermediate_size (640, or --d-model when given)"},
    {"experts", 0, "N", "num_local_experts (128)"},
    {"top-k", 0, "N", "num_experts_per_tok (4)"},
    {"vocab", 0, "N", "vocab_size (200064)"},
    {"labels", 0, "N", "number of labels (33: the real label space)"},
    {"window", 0, "N", "attention radius, sliding_window (128)"},
    {"seed", 0, "S", "random seed (1)"},
    {"dtype", 0, "T", "f32, bf16 or f16 for the safetensors file (bf16)"},
    {"gguf", 0, "T", "write a GGUF file instead, experts f16 or q8_0"},
    {"layout", 0, "L",
     "hf (default); opf: OpenAI opf's native layout; opf-hf: that opf model "
     "in the HF layout, as transformers' converter writes it"},
    {"embed-rows", 0, "N", "compact embedding of N rows plus a row map (tests)"},
    {"help", 'h', NULL, "show this help and exit"},
};
#define NOPTS (sizeof opts / sizeof opts[0])

int pii_cmd_mkmodel(int argc, char **argv)
{
    pii_model_synth s;
    pii_model_synth_default(&s);
    const char *outp = NULL, *val;
    int gguf = 0, opf = 0, inter_set = 0, i = 1, k;
    unsigned long long v;
    while ((k = mc_next("mkmodel", argc, argv, &i, opts, NOPTS, &val)) != MC_END) {
        if (k == MC_ERR)
            return PII_EXIT_USAGE;
        if (k == MC_POS) {
            fprintf(stderr, "pii-redact mkmodel: unexpected argument '%s'\n", val);
            return PII_EXIT_USAGE;
        }
        const char *nm = opts[k].name;
        if (!strcmp(nm, "help")) {
            mc_usage(stdout, "pii-redact mkmodel [OPTIONS] -o PATH",
                     "Writes a random-weight model of the Privacy Filter architecture:\n"
                     "config.json and model.safetensors with the real tensor names (HF, or\n"
                     "opf's native names with --layout opf), or a GGUF file.  Deterministic\n"
                     "for a seed on every machine.  The defaults give the full-size model\n"
                     "(about 2.8 GB in bf16).  No tokenizer.json is written: loaders fall back\n"
                     "to the built-in o200k tokenizer.",
                     opts, NOPTS);
            return PII_EXIT_OK;
        }
        if (!strcmp(nm, "output")) {
            outp = val;
        } else if (!strcmp(nm, "dtype")) {
            if (!strcmp(val, "f32"))
                s.dtype = PII_DT_F32;
            else if (!strcmp(val, "bf16"))
                s.dtype = PII_DT_BF16;
            else if (!strcmp(val, "f16"))
                s.dtype = PII_DT_F16;
            else {
                fprintf(stderr, "pii-redact mkmodel: --dtype: expected f32, bf16 or f16\n");
                return PII_EXIT_USAGE;
            }
        } else if (!strcmp(nm, "gguf")) {
            gguf = 1;
            if (!strcmp(val, "f16"))
                s.gguf_experts = PII_DT_F16;
            else if (!strcmp(val, "q8_0") || !strcmp(val, "q8"))
                s.gguf_experts = PII_DT_Q8_0;
            else {
                fprintf(stderr, "pii-redact mkmodel: --gguf: expected f16 or q8_0\n");
                return PII_EXIT_USAGE;
            }
        } else if (!strcmp(nm, "layout")) {
            if (!strcmp(val, "hf") || !strcmp(val, "opf") || !strcmp(val, "opf-hf")) {
                opf = !strcmp(val, "opf");
                s.opf_copy = !strcmp(val, "opf-hf");
            } else {
                fprintf(stderr, "pii-redact mkmodel: --layout: expected hf, opf or opf-hf\n");
                return PII_EXIT_USAGE;
            }
        } else if (!strcmp(nm, "seed")) {
            if (mc_uint("mkmodel", nm, val, ~0ull, &v))
                return PII_EXIT_USAGE;
            s.seed = v;
        } else {
            if (mc_uint("mkmodel", nm, val, 1u << 24, &v))
                return PII_EXIT_USAGE;
            int x = (int)v;
            pii_model_config *c = &s.cfg;
            if (!strcmp(nm, "layers"))
                c->n_layers = x;
            else if (!strcmp(nm, "d-model"))
                c->d_model = x;
            else if (!strcmp(nm, "heads"))
                c->n_heads = x;
            else if (!strcmp(nm, "kv-heads"))
                c->n_kv_heads = x;
            else if (!strcmp(nm, "head-dim"))
                c->head_dim = x;
            else if (!strcmp(nm, "intermediate"))
                c->d_expert = x, inter_set = 1;
            else if (!strcmp(nm, "experts"))
                c->n_experts = x;
            else if (!strcmp(nm, "top-k"))
                c->top_k = x;
            else if (!strcmp(nm, "vocab"))
                c->vocab_size = x;
            else if (!strcmp(nm, "labels"))
                c->n_labels = x;
            else if (!strcmp(nm, "window"))
                c->window = x;
            else if (!strcmp(nm, "embed-rows"))
                s.embed_rows = x;
        }
        if (!strcmp(nm, "d-model") && !inter_set)
            s.cfg.d_expert = s.cfg.d_model;
    }
    if (!outp) {
        fprintf(stderr, "pii-redact mkmodel: -o PATH is required (see --help)\n");
        return PII_EXIT_USAGE;
    }
    if (gguf && (opf || s.opf_copy)) {
        fprintf(stderr, "pii-redact mkmodel: --gguf and --layout opf/opf-hf cannot be combined\n");
        return PII_EXIT_USAGE;
    }
    if (s.cfg.pad_id >= s.cfg.vocab_size)
        s.cfg.pad_id = -1;
    char msg[512] = "";
    pii_err e = gguf  ? pii_model_synth_write_gguf(&s, outp, msg, sizeof msg)
                : opf ? pii_model_synth_write_opf(&s, outp, msg, sizeof msg)
                      : pii_model_synth_write_hf(&s, outp, msg, sizeof msg);
    if (e) {
        fprintf(stderr, "pii-redact mkmodel: %s\n", msg[0] ? msg : pii_strerror(e));
        return e == PII_EINVAL ? PII_EXIT_USAGE : PII_EXIT_IO;
    }
    return PII_EXIT_OK;
}
