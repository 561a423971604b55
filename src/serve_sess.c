/* serve_sess.c — server-side pseudonym sessions: a pii_pseudo per random
 * id, forgotten ttl seconds after its last use (serve.h).  One mutex guards
 * the table and is held from pii_sess_acquire to pii_sess_release: a
 * session's map is only ever used by one request at a time. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "serve.h"

typedef struct sess {
    char id[33];
    int64_t last; /* ms, CLOCK_MONOTONIC */
    pii_pseudo *map;
} sess;

struct pii_sess {
    pthread_mutex_t mu;
    unsigned ttl;
    size_t max, n;
    sess *v;
    sess *held; /* between acquire and release */
};

static int64_t now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

pii_sess *pii_sess_create(unsigned ttl, size_t max)
{
    pii_sess *s = calloc(1, sizeof *s);
    if (!s || !(s->v = calloc(max ? max : 1, sizeof *s->v)) ||
        pthread_mutex_init(&s->mu, NULL) != 0) {
        if (s)
            free(s->v);
        free(s);
        return NULL;
    }
    s->ttl = ttl;
    s->max = max;
    return s;
}

void pii_sess_free(pii_sess *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        pii_pseudo_free(s->v[i].map);
    free(s->v);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

/* Drops expired sessions (mutex held). */
static void sweep(pii_sess *s)
{
    int64_t t = now();
    for (size_t i = 0; i < s->n;) {
        if (t - s->v[i].last >= (int64_t)s->ttl * 1000) {
            pii_pseudo_free(s->v[i].map);
            s->v[i] = s->v[--s->n];
        } else {
            i++;
        }
    }
}

pii_err pii_sess_new(pii_sess *s, char id[33])
{
    uint8_t rnd[16];
    size_t got = 0;
    while (got < sizeof rnd) {
        ssize_t r = getrandom(rnd + got, sizeof rnd - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return PII_EIO;
        got += (size_t)r;
    }
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        id[2 * i] = hex[rnd[i] >> 4];
        id[2 * i + 1] = hex[rnd[i] & 15];
    }
    id[32] = '\0';
    pii_err e;
    pii_pseudo *m = pii_pseudo_create(&e);
    if (!m)
        return e;
    pthread_mutex_lock(&s->mu);
    sweep(s);
    if (s->n >= s->max) {
        pthread_mutex_unlock(&s->mu);
        pii_pseudo_free(m);
        return PII_ETOOBIG;
    }
    sess *x = &s->v[s->n++];
    memcpy(x->id, id, 33);
    x->last = now();
    x->map = m;
    pthread_mutex_unlock(&s->mu);
    return PII_OK;
}

static sess *lookup(pii_sess *s, const char *id)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i].id, id) == 0)
            return &s->v[i];
    return NULL;
}

pii_pseudo *pii_sess_acquire(pii_sess *s, const char *id)
{
    pthread_mutex_lock(&s->mu);
    sweep(s);
    sess *x = strlen(id) == 32 ? lookup(s, id) : NULL;
    if (!x) {
        pthread_mutex_unlock(&s->mu);
        return NULL;
    }
    s->held = x;
    return x->map;
}

void pii_sess_release(pii_sess *s)
{
    if (s->held)
        s->held->last = now();
    s->held = NULL;
    pthread_mutex_unlock(&s->mu);
}

int pii_sess_drop(pii_sess *s, const char *id)
{
    pthread_mutex_lock(&s->mu);
    sess *x = lookup(s, id);
    if (x) {
        pii_pseudo_free(x->map);
        *x = s->v[--s->n];
    }
    pthread_mutex_unlock(&s->mu);
    return x != NULL;
}
