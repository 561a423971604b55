/* commands.c — the subcommand table.  Add one line per subcommand. */
#include <stddef.h>
#include <string.h>

#include "cli.h"
#include "pii_wordlist.h"

int pii_cmd_eval(int argc, char **argv);
int pii_cmd_mkmodel(int argc, char **argv);
int pii_cmd_info(int argc, char **argv);
int pii_cmd_logits(int argc, char **argv);
int pii_cmd_tokenize(int argc, char **argv);
int pii_cmd_bench(int argc, char **argv);
int pii_cmd_quantize(int argc, char **argv);
int pii_cmd_serve(int argc, char **argv);
int pii_cmd_restore(int argc, char **argv);

const pii_subcommand pii_subcommands[] = {
    {"eval", pii_cmd_eval, "score the redactor on eval files (per-label P/R/F1, leak rate)"},
    {"mkmodel", pii_cmd_mkmodel, "write a random-weight model (HF layout or GGUF)"},
    {"info", pii_cmd_info, "describe a model: format, shapes, dtypes, labels"},
    {"logits", pii_cmd_logits, "print the encoder's logits for stdin, one JSON line per token"},
    {"tokenize", pii_cmd_tokenize, "print o200k token ids (and byte offsets)"},
    {"bench", pii_cmd_bench,
     "measure encoder speed (and the machine's peak) or quantization fidelity"},
    {"quantize", pii_cmd_quantize, "write an int8/int4 copy of a model (quantized expert weights)"},
    {"serve", pii_cmd_serve,
     "serve the redactor over HTTP (Presidio-compatible endpoints, pseudonym sessions)"},
    {"restore", pii_cmd_restore, "put the originals back into text with pseudonym placeholders"},
    {NULL, NULL, NULL},
};

const char *pii_subcommand_near(const char *word)
{
    const char *best = NULL;
    size_t bd = 3; /* at most two edits ("bnech": bench) */
    if (strlen(word) < 3 || strchr(word, '/') || strchr(word, '.'))
        return NULL;
    for (const pii_subcommand *c = pii_subcommands; c->name; c++) {
        size_t d = pii_word_distance(word, strlen(word), c->name, strlen(c->name), 0);
        if (d < bd) {
            bd = d;
            best = c->name;
        }
    }
    return best;
}
