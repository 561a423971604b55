/* ignore.h — gitignore-style ignore files for the batch walk (-r).
 *
 * Two layers:
 *  - pii_ignore_list: the patterns of one file (.gitignore,
 *    .git/info/exclude, the global excludes file), parsed with git's rules:
 *    blank lines and "#" comments skipped, trailing spaces dropped unless
 *    escaped, "!" negates, a trailing "/" matches directories only, a "/" at
 *    the start or in the middle anchors the pattern to the file's folder
 *    (else it matches the name at any depth), "*" "?" "[...]" do not match
 *    "/", "**" matches across folders ("**" + "/x", "x/" + "**", "a/" + "**"
 *    + "/b"), "\" escapes.  Within a list the last matching pattern decides.
 *    Pure functions over memory: unit-tested (tests/unit/test_ignore.c).
 *  - pii_ignore_ctx: what one walk of --check consults (issue 42 H4: git's
 *    rules, what git would not commit; a tree to redact is redacted whole).
 *    Created for a directory argument inside a git repository (a parent
 *    holding ".git"; outside one it ignores nothing), it loads, lowest
 *    precedence first, the global excludes (core.excludesFile from the git
 *    config files, else $XDG_CONFIG_HOME/git/ignore or
 *    ~/.config/git/ignore), the repository's .git/info/exclude, and the
 *    .gitignore files of the folders from the repository root down to the
 *    argument.  The walk then enters and leaves each folder (its .gitignore
 *    is pushed and popped).  A path is decided by the most specific list
 *    that matches it: deeper folders before shallower ones, then
 *    info/exclude, then the global file.  ripgrep's .ignore files are not
 *    read (no git rule; a planted one hid committed files).
 *
 * Errors are returned (-1 with errno), never printed.  Not thread-safe: one
 * walk, one thread. */
#ifndef PII_IGNORE_H
#define PII_IGNORE_H

#include <stddef.h>

typedef struct pii_ignore_list pii_ignore_list;

/* Parses text[0..len) of an ignore file whose folder is `base` (a path
 * relative to the top of the walk or repository, "" for the top itself;
 * copied).  NULL when out of memory. */
pii_ignore_list *pii_ignore_list_parse(const char *text, size_t len, const char *base);
void pii_ignore_list_free(pii_ignore_list *l);
/* Decides `path` (relative to the same top as the list's base, no leading
 * "/"; is_dir: it is a folder): 1 ignored, 0 re-included by a "!" pattern,
 * -1 no pattern matches (or the path is not under the list's base). */
int pii_ignore_list_match(const pii_ignore_list *l, const char *path, int is_dir);
/* The glob matcher alone (pattern syntax above, "**" included). */
int pii_ignore_glob(const char *pattern, const char *text);

typedef struct pii_ignore_ctx pii_ignore_ctx;

/* For a walk of directory `dir`.  NULL with errno when out of memory;
 * unreadable ignore files are skipped. */
pii_ignore_ctx *pii_ignore_ctx_create(const char *dir);
void pii_ignore_ctx_free(pii_ignore_ctx *c);
/* Entering folder `path` (as the walk names it) whose path below the walk
 * argument is `rel` ("" for the argument itself): pushes its .gitignore
 * (in a repository).  Returns the mark to give to pii_ignore_ctx_leave. */
size_t pii_ignore_ctx_enter(pii_ignore_ctx *c, const char *path, const char *rel);
void pii_ignore_ctx_leave(pii_ignore_ctx *c, size_t mark);
/* 1 when the entry `rel` (below the walk argument) is ignored. */
int pii_ignore_ctx_ignored(const pii_ignore_ctx *c, const char *rel, int is_dir);

#endif
