/* model_check.c — whole-model sanity checks run after loading
 * (pii_model.h): every stored weight must be finite. */
#include <stdio.h>

#include "pii_model.h"
#include "pii_rt.h"

pii_err pii_model_check_finite(const pii_model *m, char *errbuf, size_t cap)
{
    const pii_rt_store *s = pii_model_store(m);
    for (size_t i = 0, n = pii_rt_store_count(s); i < n; i++) {
        const pii_rt_tensor *t = pii_rt_store_at(s, i);
        uint64_t bad = 0;
        if (pii_rt_tensor_finite(t, &bad) != PII_OK) {
            if (errbuf && cap)
                snprintf(errbuf, cap, "%s: tensor %s: element %llu is NaN or infinite", t->file,
                         t->name, (unsigned long long)bad);
            return PII_EMODEL;
        }
    }
    return PII_OK;
}
