/* validators.h — private: checks run on rule matches (rules.c callouts).
 *
 * Every function takes the bytes of a candidate span and returns non-zero to
 * accept it.  They are pure functions of those bytes (no context, no
 * state), which keeps the rule tier's result independent of how a stream is
 * chunked.  docs/RULES.md describes what each one checks. */
#ifndef PII_VALIDATORS_H
#define PII_VALIDATORS_H

#include <stddef.h>
#include <stdint.h>

/* Building blocks (exposed for the unit tests). */
int pii_val_luhn(const char *digits, size_t n);        /* '0'..'9' only      */
int pii_val_iban_mod97(const char *compact, size_t n); /* [A-Z0-9], no spaces */
int pii_val_real_date(int y, int m, int d);            /* Gregorian, 1..9999 */
double pii_val_entropy(const uint8_t *p, size_t n);    /* bits per byte      */
/* Does p[0..n) equal the lower-case, NUL-terminated s, ASCII caseless? */
int pii_val_eq_ci(const uint8_t *p, size_t n, const char *s);

int pii_val_email(const uint8_t *p, size_t n);
int pii_val_url(const uint8_t *p, size_t n);
int pii_val_iban(const uint8_t *p, size_t n);
int pii_val_card(const uint8_t *p, size_t n);
int pii_val_account(const uint8_t *p, size_t n);
/* An identifier after a Japanese label: at least three digits, not a date
 * (2026-07-01), not one repeated digit. */
int pii_val_id_ja(const uint8_t *p, size_t n);
/* National identifiers (docs/RULES.md): US SSN/ITIN (area not 000, 666;
 * group not 00; serial not 0000; 9xx with an ITIN group), UK National
 * Insurance number (prefix not BG GB KN NK NT TN ZZ), Spanish DNI/NIE
 * (check letter mod 23), Italian codice fiscale (check character), French
 * NIR (key 97 - n mod 97), and an identifier after a context word. */
int pii_val_ssn(const uint8_t *p, size_t n);
int pii_val_uk_nino(const uint8_t *p, size_t n);
int pii_val_es_dni(const uint8_t *p, size_t n);
int pii_val_it_cf(const uint8_t *p, size_t n);
int pii_val_fr_nir(const uint8_t *p, size_t n);
int pii_val_id_context(const uint8_t *p, size_t n);
/* A login that may name a person: not a system, service or placeholder
 * account (root, admin, postgres, ubuntu, svc-*, ...). */
int pii_val_login(const uint8_t *p, size_t n);
int pii_val_handle(const uint8_t *p, size_t n);
int pii_val_date_iso(const uint8_t *p, size_t n);     /* yyyy-mm-dd, yyyy/mm/dd */
int pii_val_date_numeric(const uint8_t *p, size_t n); /* d.m.yyyy, d/m/yyyy, m/d/yyyy */
int pii_val_date_text(const uint8_t *p, size_t n);    /* 23 April 2026, April 23, 2026 */
int pii_val_phone_intl(const uint8_t *p, size_t n);
int pii_val_phone_intl00(const uint8_t *p, size_t n); /* 00 + country code, 3+ groups */
int pii_val_phone_national(const uint8_t *p, size_t n);
int pii_val_phone_loose(const uint8_t *p, size_t n);
int pii_val_secret_token(const uint8_t *p, size_t n);
int pii_val_secret_password(const uint8_t *p, size_t n);
int pii_val_openai_key(const uint8_t *p, size_t n);
int pii_val_jwt(const uint8_t *p, size_t n);
int pii_val_basic_auth(const uint8_t *p, size_t n);

#endif
