/* serve.h — `pii-redact serve`: the HTTP service's parts (docs/SERVER.md).
 *
 *   serve.c       the subcommand: options, the redactor (src/pipeline.c, built
 *                 once), the listening socket, libmicrohttpd's worker pool,
 *                 limits, authentication, SIGTERM.
 *   serve_api.c   the endpoints, HTTP-free: a method, a path, a body in; a
 *                 status, a content type and a body out.
 *   serve_sess.c  the server-side pseudonym sessions (a map per id, TTL).
 *
 * Threads: one pii_srv is shared by every worker; pii_srv_handle may run
 * in several threads at once (the redactor is immutable, each request
 * opens its own stream; sessions are behind a mutex).
 * Never is a request's text or a found value written to a log. */
#ifndef PII_SERVE_H
#define PII_SERVE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "pii_pseudo.h"
#include "pii_redact.h"

/* ---- sessions (serve_sess.c) ---------------------------------------- */

typedef struct pii_sess pii_sess;

/* At most max sessions, each forgotten ttl seconds after its last use. */
pii_sess *pii_sess_create(unsigned ttl, size_t max);
void pii_sess_free(pii_sess *s);
/* A new session: its id (32 hex digits) into id[33].  PII_ETOOBIG when
 * max sessions are alive. */
pii_err pii_sess_new(pii_sess *s, char id[33]);
/* Locks the session's map for the caller (NULL when the id is unknown or
 * expired); pii_sess_release unlocks it and renews its time. */
pii_pseudo *pii_sess_acquire(pii_sess *s, const char *id);
void pii_sess_release(pii_sess *s);
/* Forgets a session; 0 when it was unknown. */
int pii_sess_drop(pii_sess *s, const char *id);

/* ---- the endpoints (serve_api.c) ------------------------------------- */

typedef struct pii_srv {
    const pii_redactor *red;
    const uint8_t *key; /* the hash key (--key-file), NULL if none */
    size_t keylen;
    pii_sess *sess; /* NULL: sessions are off */
} pii_srv;

typedef struct pii_srv_reply {
    int status;
    const char *ctype; /* static */
    const char *allow; /* 405: the methods the path takes (static), else NULL */
    pii_buf body;
} pii_srv_reply;

/* Answers one request: fills r (the caller frees r->body), an error reply
 * included (404 for an unknown path, 405 with r->allow for a method the
 * path does not take).  body[0..n) need not be NUL-terminated. */
void pii_srv_handle(const pii_srv *s, const char *method, const char *path, const char *ctype,
                    const uint8_t *body, size_t n, pii_srv_reply *r);
/* An error reply {"error": msg} with status. */
void pii_srv_error(pii_srv_reply *r, int status, const char *msg);

#endif
