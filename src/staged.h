/* staged.h — the staged content of a git repository, for --staged
 * (docs/CI.md).
 *
 * Contract: pii_staged_list runs `git diff --cached --raw -z --no-renames
 * --no-abbrev --diff-filter=ACMT` in the current directory (pathspecs after
 * "--" when given) and returns one entry per file of the index that differs
 * from HEAD (every staged file when there is no commit yet): its path
 * relative to the top of the repository, as git wrote it (no quoting), its
 * mode in the index and the id of its staged blob.  pii_staged_open starts
 * `git cat-file blob ID` and returns the read end of a pipe that yields the
 * staged bytes exactly (after git's clean filters, before any smudge);
 * pii_staged_close closes it and reaps git, and says whether git succeeded,
 * so a blob cut short is never taken for a whole one.
 *
 * git is run with posix_spawnp (no shell), its standard input from
 * /dev/null and its standard error passed through (git's messages name no
 * file content).  Every descriptor made here is close-on-exec.  Errors are
 * returned, never printed.  Thread-safe: the functions share no state.
 */
#ifndef PII_STAGED_H
#define PII_STAGED_H

#include <stddef.h>
#include <sys/types.h>

#include "pii_error.h"

#define PII_STAGED_MODE_LINK 0120000u    /* a symbolic link: the blob is its target */
#define PII_STAGED_MODE_GITLINK 0160000u /* a submodule: no blob */

typedef struct pii_staged_file {
    char *path;    /* relative to the top of the repository */
    unsigned mode; /* octal mode in the index (100644, 100755, 120000, 160000) */
    char oid[72];  /* the staged blob's id, hex (SHA-1 or SHA-256) */
} pii_staged_file;

/* Lists the staged files.  PII_OK with *files (malloc'd, free with
 * pii_staged_free) and *n; PII_ENOTFOUND when the current directory is not
 * in a git work tree (`git rev-parse --is-inside-work-tree`, run silently);
 * PII_EIO when git could not be run or failed (git said why on standard
 * error); PII_EFORMAT when its
 * output did not parse; PII_ENOMEM. */
pii_err pii_staged_list(const char *const *pathspec, size_t npathspec, pii_staged_file **files,
                        size_t *n);
void pii_staged_free(pii_staged_file *files, size_t n);

/* Starts git cat-file for one blob.  Returns the pipe's read end (>= 0) and
 * sets *pid, or -1 with errno set. */
int pii_staged_open(const char *oid, pid_t *pid);
/* Closes fd and waits for git.  0 when git exited 0, else -1. */
int pii_staged_close(int fd, pid_t pid);

#endif
