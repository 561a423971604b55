/* testhook.c — the CLI's test hooks: $PII_REDACT_FAULT and
 * $PII_REDACT_PAUSE (see cli.h).
 *
 * The library never reads the environment; the command reads this variable
 * once, at start-up, and hands it to pii_fault_parse.  Syntax (see
 * core/include/pii_fault.h): "SITE:N" makes the N-th event at SITE fail,
 * "SITE:N+" the N-th and every later one, "count" prints how many events
 * each site saw when the command exits (tests use it to walk every
 * injection point).  Sites: alloc, scan, forward, write, read. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pii_fault.h"

static void report(void)
{
    fprintf(stderr, "pii-redact: fault counts:");
    for (int i = 0; i < PII_FAULT_NSITES; i++)
        fprintf(stderr, " %s=%llu", pii_fault_site_name((pii_fault_site)i),
                (unsigned long long)pii_fault_count((pii_fault_site)i));
    fprintf(stderr, "\n");
}

int pii_cli_testhook_init(void)
{
    const char *spec = getenv("PII_REDACT_FAULT");
    if (!spec || !*spec)
        return 0;
    if (pii_fault_parse(spec) != PII_OK) {
        fprintf(stderr, "pii-redact: PII_REDACT_FAULT: expected SITE:N[+],... or count\n");
        return -1;
    }
    if (strstr(spec, "count") && atexit(report) != 0)
        return -1;
    return 0;
}

void pii_cli_testhook_pause(const char *point)
{
    const char *spec = getenv("PII_REDACT_PAUSE");
    size_t pl = strlen(point);
    if (!spec || strncmp(spec, point, pl) != 0 || spec[pl] != ':')
        return;
    int fd = open(spec + pl + 1, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char c;
    while (read(fd, &c, 1) < 0 && errno == EINTR)
        ;
    close(fd);
}
