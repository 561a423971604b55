/* pii_fault.h — test-only fault injection (SQLite fault tests, curl torture).
 *
 * Contract.  One process-wide counter per fault site.  Code at a site calls
 * pii_fault_hit() once per event (an allocation, a detector scan, a forward
 * pass, an output write, an input read); when the site is armed with
 * pii_fault_set(site, n, sticky), the n-th event counted from the call
 * (1-based) fails, and with sticky != 0 so does every later one.  The caller
 * of the site turns a failure into its ordinary error path (NULL/ENOMEM for
 * an allocation, PII_EINJECTED for a scan or a forward pass, PII_EWRITE /
 * PII_EIO for the CLI's writes and reads), so tests exercise exactly the
 * code that a real failure would run.
 *
 * Allocations.  The library and the CLI call malloc & co. directly.  A
 * binary linked with the wrap flags (FAULT_WRAP in mk/fuzz.mk:
 * -Wl,--wrap=malloc,... ) routes every malloc, calloc, realloc, strdup,
 * strndup, posix_memalign and aligned_alloc call made by its own objects
 * and by libpiiredact.a through core/fault_alloc.c, which asks the
 * PII_FAULT_ALLOC site first.  Allocations inside shared libraries
 * (libc internals, PCRE2, json-c) are not counted.  The pii-redact binary
 * and the tests/unit/test_fault_* suites are linked this way.
 *
 * Who arms it.  Tests call pii_fault_set directly.  The library never reads
 * the environment: the CLI reads $PII_REDACT_FAULT once at start-up and
 * hands it to pii_fault_parse (docs/HARDENING.md).
 *
 * Threads and cost.  Counters are C11 atomics, so "the n-th event" is well
 * defined across threads.  While nothing is armed or counting, a site costs
 * one relaxed atomic load.
 *
 * Builds.  The rig exists only where PII_FAULT_INJECTION is defined: the
 * fault, san and fuzz variants (`make FAULT=1`, `make SAN=1`, `make fuzz`),
 * which the tests that inject faults use.  In a release (or debug) build
 * every function below is a macro that does nothing (pii_fault_hit is the
 * constant 0, so a site compiles to nothing), core/fault.c and
 * core/fault_alloc.c are not compiled, no binary is linked with --wrap,
 * and the command does not read $PII_REDACT_FAULT.
 */
#ifndef PII_FAULT_H
#define PII_FAULT_H

#include <stdint.h>

#include "pii_error.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

typedef enum pii_fault_site {
    PII_FAULT_ALLOC = 0, /* malloc & co. in wrapped binaries            */
    PII_FAULT_SCAN,      /* one detector scan call in redact/stream.c   */
    PII_FAULT_FORWARD,   /* one encoder forward pass                    */
    PII_FAULT_WRITE,     /* one output write of the CLI (src/output.c)  */
    PII_FAULT_READ,      /* one input read of the CLI (src/main.c)      */
    PII_FAULT_NSITES
} pii_fault_site;

#ifdef PII_FAULT_INJECTION

/* "alloc", "scan", "forward", "write", "read"; "?" for anything else. */
const char *pii_fault_site_name(pii_fault_site site);

/* Arms `site`: the n-th event from now fails (n >= 1); sticky != 0 makes
 * every later event fail too.  n = 0 disarms the site.  Restarts the
 * site's count and turns counting on. */
void pii_fault_set(pii_fault_site site, uint64_t n, int sticky);

/* Counts events at every site from now on without failing any (to learn
 * how many injection points a run has). */
void pii_fault_count_all(void);

/* Disarms every site, zeroes the counts and stops counting. */
void pii_fault_reset(void);

/* Events seen at `site` since it was last armed/reset while counting. */
uint64_t pii_fault_count(pii_fault_site site);

/* Called at a site: non-zero when this event must fail. */
int pii_fault_hit(pii_fault_site site);

/* Allocation sizes: the wrappers report each request's size (bytes) while
 * counting; pii_fault_max_alloc() is the largest since the last reset (how
 * tests prove that a hostile header is refused before anything sized by
 * it is allocated). */
void pii_fault_alloc_size(uint64_t bytes);
uint64_t pii_fault_max_alloc(void);

/* Parses and applies a spec: comma-separated items "SITE:N" (one-shot),
 * "SITE:N+" (sticky), or "count" (count every site).  Example:
 * "alloc:17,write:3+".  PII_EINVAL on a malformed spec (nothing applied).
 * NULL or "" does nothing. */
pii_err pii_fault_parse(const char *spec);

#else /* the release build: no rig */

#define pii_fault_site_name(site) ((void)(site), "?")
#define pii_fault_set(site, n, sticky) ((void)(site), (void)(n), (void)(sticky))
#define pii_fault_count_all() ((void)0)
#define pii_fault_reset() ((void)0)
#define pii_fault_count(site) ((void)(site), (uint64_t)0)
#define pii_fault_hit(site) ((void)(site), 0)
#define pii_fault_alloc_size(bytes) ((void)(bytes))
#define pii_fault_max_alloc() ((uint64_t)0)
#define pii_fault_parse(spec) ((void)(spec), PII_OK)

#endif /* PII_FAULT_INJECTION */

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
