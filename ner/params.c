/* params.c — the parameters of the model detector (pii_ner_params of
 * pii_ner.h): the defaults, and the threshold, bias and decoding specs as
 * the command line writes them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pii_ner.h"

pii_ner_params pii_ner_default_params(void)
{
    pii_ner_params p;
    memset(&p, 0, sizeof p);
    p.window = 0; /* auto: 8192, or 8 x halo for deeper models */
    p.pack_tokens = 0;
    p.threshold = 0.0f;
    snprintf(p.operating_point, sizeof p.operating_point, "default");
    p.decode = PII_NER_DECODE_VITERBI;
    p.max_lag = 4096;
    p.max_span_tokens = 4096;
    return p;
}

static int parse_float(const char *s, float *out)
{
    if (!s || !*s)
        return 0;
    char *end;
    float v = strtof(s, &end);
    if (*end != '\0' || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

pii_err pii_ner_params_threshold(pii_ner_params *p, const char *spec)
{
    if (!p || !spec)
        return PII_EINVAL;
    const char *eq = strrchr(spec, '=');
    float v;
    if (!eq) {
        if (!parse_float(spec, &v) || v < 0.0f || v > 1.0f)
            return PII_EINVAL;
        p->threshold = v;
        return PII_OK;
    }
    size_t ln = (size_t)(eq - spec);
    if (ln == 0 || ln >= PII_NER_NAME_MAX || !parse_float(eq + 1, &v) || v < 0.0f || v > 1.0f)
        return PII_EINVAL;
    size_t i;
    for (i = 0; i < p->nlabel_thresholds; i++)
        if (strlen(p->label_thresholds[i].label) == ln &&
            memcmp(p->label_thresholds[i].label, spec, ln) == 0)
            break;
    if (i == p->nlabel_thresholds) {
        if (i == PII_NER_MAX_LABEL_THRESHOLDS)
            return PII_ETOOBIG;
        memcpy(p->label_thresholds[i].label, spec, ln);
        p->label_thresholds[i].label[ln] = '\0';
        p->nlabel_thresholds++;
    }
    p->label_thresholds[i].value = v;
    return PII_OK;
}

pii_err pii_ner_params_bias(pii_ner_params *p, const char *spec)
{
    if (!p || !spec)
        return PII_EINVAL;
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || (size_t)(eq - spec) >= 128)
        return PII_EINVAL;
    char key[128];
    memcpy(key, spec, (size_t)(eq - spec));
    key[eq - spec] = '\0';
    int i = pii_ner_bias_index(key);
    float v;
    if (i < 0 || !parse_float(eq + 1, &v))
        return PII_EINVAL;
    p->bias_override.v[i] = v;
    p->bias_mask |= 1u << i;
    return PII_OK;
}

pii_err pii_ner_params_decode(pii_ner_params *p, const char *mode)
{
    if (!p || !mode)
        return PII_EINVAL;
    if (strcmp(mode, "viterbi") == 0)
        p->decode = PII_NER_DECODE_VITERBI;
    else if (strcmp(mode, "argmax") == 0)
        p->decode = PII_NER_DECODE_ARGMAX;
    else
        return PII_EINVAL;
    return PII_OK;
}
