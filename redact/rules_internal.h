/* rules_internal.h — private hooks of the rule tier for tests and tools. */
#ifndef PII_RULES_INTERNAL_H
#define PII_RULES_INTERNAL_H

#include <stddef.h>

#include "pii_redact.h"

/* The combined PCRE2 pattern (malloc'd; caller frees). */
char *pii_rules__pattern(void);
/* pii_rules_create_flags with JIT and the C prefilter on or off (every
 * combination must give the same spans); msg receives a compile error. */
pii_rules *pii_rules__create(unsigned flags, int use_jit, int use_prefilter, pii_err *err,
                             char *msg, size_t msgcap);
/* Non-zero when the rules run as JIT code. */
int pii_rules__jit(const pii_rules *r);

#endif
