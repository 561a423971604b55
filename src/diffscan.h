/* diffscan.h — the added lines of a unified diff, for --check --diff.
 *
 * pii_diff_parse reads a unified diff (git diff, git show, diff -u) and
 * gives, per file it changes, the lines it adds (each with its '\n') and
 * each one's line number in the new file.  A file the diff deletes
 * (+++ /dev/null) is left out; a binary change ("Binary files ... differ")
 * is listed with binary set and no lines.  Paths are the new file's:
 * git's C-quoting ("a\303\257.txt") is undone, what follows a TAB
 * (diff -u's timestamps, git's mark of a name with a space) is cut, and
 * after a "diff --git" header git's "b/" prefix (or diff.mnemonicPrefix's
 * w/, i/, c/, o/) is removed.  Removed and
 * context lines, "\ No newline at end of file" and everything outside
 * hunks (commit messages of git show, index lines) are not scanned.
 *
 * Errors: PII_EFORMAT for a hunk header that does not parse, a hunk cut
 * short by the end of the input, a combined diff (git diff of a merge
 * conflict, "@@@"), or input that is not empty and holds no line a diff
 * would ("diff ", "--- ", "+++ ", "commit ", "Binary files "): text piped
 * by mistake is never passed as clean; `why` then says which line (never
 * quoting it).
 * PII_ENOMEM.  Prints nothing. */
#ifndef PII_DIFFSCAN_H
#define PII_DIFFSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "pii_error.h"

typedef struct pii_diff_file {
    char *path;     /* the new file's path */
    char *text;     /* its added lines, each ending in '\n' */
    size_t len;     /* bytes of text */
    uint64_t *line; /* line[k]: the new file's 1-based line number of text's line k */
    size_t nlines, capl, capt;
    int binary; /* a binary change: nothing to scan */
} pii_diff_file;

pii_err pii_diff_parse(const char *p, size_t n, pii_diff_file **files, size_t *nfiles, char *why,
                       size_t whycap);
void pii_diff_free(pii_diff_file *v, size_t n);

/* A descriptor that reads p[0..n) (a memfd: the text stays in memory,
 * never in a file on disk), at offset 0; -1 with errno on failure. */
int pii_diff_memfd(const char *p, size_t n);

#endif
