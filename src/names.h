/* names.h — file names in text outputs (issue 42 M1).
 *
 * A file name may hold any byte but '/' and NUL: a newline forges a line of
 * a finding list or a baseline, an escape sequence drives the terminal, a
 * "::" line is a GitHub Actions command.  Every text output that prints a
 * name (stderr messages, --check's text lines, the baseline) writes it
 * through pii_name_put: control characters (C0, DEL, and the C1 controls
 * U+0080..U+009F) and bytes that are not UTF-8 become \xNN (each byte), a
 * backslash becomes \\ so the escaped form is unambiguous; everything
 * else is written as it is.  JSON, SARIF and CSV outputs escape by their
 * own rules.  Pure functions, thread-safe. */
#ifndef PII_NAMES_H
#define PII_NAMES_H

#include <stddef.h>
#include <stdio.h>

/* Writes s[0..n) escaped to f. */
void pii_name_putn(FILE *f, const char *s, size_t n);
/* Writes the NUL-terminated s escaped to f. */
void pii_name_put(FILE *f, const char *s);
/* pii_name_put for a name that starts a line (--check's text lines): a
 * name beginning with ':' or white space gets "./" first, so no line of
 * ours is a GitHub Actions "::" command. */
void pii_name_put_lead(FILE *f, const char *s);
/* A CSV field (RFC 4180: quoted, quotes doubled) of s[0..n) for a
 * spreadsheet: a field starting with '=', '+', '-', '@', TAB or CR (a
 * formula) gets a "'" first. */
void pii_csv_field(FILE *f, const char *s, size_t n);
/* Non-zero when s needs no escape (pii_name_put writes it unchanged). */
int pii_name_plain(const char *s);

#endif
