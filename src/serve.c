/* serve.c — `pii-redact serve`: the redactor as a long-running HTTP/1.1
 * service on GNU libmicrohttpd (docs/SERVER.md).
 *
 *   pii-redact serve [--listen ADDR:PORT|unix:PATH] [--workers N]
 *                    [--max-body BYTES] [--max-requests N] [--timeout S]
 *                    [--auth-token-file FILE] [--session-ttl S]
 *                    [REDACTION OPTIONS]
 *
 * The redaction options are the main command's (and its config file's):
 * the redactor is built once by src/pipeline.c, exactly as the command
 * builds it, and shared by every worker thread (pii_redact.h: a configured
 * redactor is immutable; each request opens its own stream).  One
 * libmicrohttpd I/O thread reads and writes every connection; a request
 * whose body is in is queued for the --workers threads and its connection
 * suspended until a worker has the reply.
 *
 * Limits: a body over --max-body is refused with 413 (from Content-Length
 * before it is read, else at its end); more than --max-requests requests
 * in progress (from their headers to their reply: receiving, queued or
 * being redacted) get 503 with Retry-After; a
 * connection idle for --timeout seconds is closed.  SIGTERM or SIGINT:
 * the listening socket closes, requests in progress finish (up to
 * --timeout seconds more), then the process exits 0.
 * Nothing of a request's body is ever logged. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "opts.h"
#include "pipeline.h"
#include "serve.h"
#include "settings.h"

#define MAX_SESSIONS 10000

/* ---- options ------------------------------------------------------------ */

enum {
    S_FIRST = 256,
    S_LISTEN = S_FIRST,
    S_WORKERS,
    S_MAX_BODY,
    S_MAX_REQUESTS,
    S_TIMEOUT,
    S_AUTH,
    S_SESSION_TTL,
    S_HELP,
    S_END
};
static const pii_flag serve_flags[] = {
    [S_LISTEN - S_FIRST] = {"listen", 0, "ADDR",
                            "where to listen: HOST:PORT (an IPv4 or [IPv6] address; port 0 "
                            "picks a free one) or unix:PATH (default 127.0.0.1:8080)"},
    [S_WORKERS - S_FIRST] = {"workers", 0, "N",
                             "worker threads that answer requests (default 2); each "
                             "redaction runs on its worker, so --threads stays 1 unless given"},
    [S_MAX_BODY - S_FIRST] = {"max-body", 0, "BYTES",
                              "largest request body, in bytes (K and M suffixes); larger ones "
                              "get 413 (default 1M)"},
    [S_MAX_REQUESTS - S_FIRST] = {"max-requests", 0, "N",
                                  "requests in progress at once; more get 503 (default 64)"},
    [S_TIMEOUT - S_FIRST] = {"timeout", 0, "SECONDS",
                             "close a connection idle this long, and wait this long for "
                             "requests in progress at shutdown (default 30)"},
    [S_AUTH - S_FIRST] = {"auth-token-file", 0, "FILE",
                          "require \"Authorization: Bearer TOKEN\" on every endpoint but /health; "
                          "TOKEN is FILE's content (a file only its owner can read, 16 bytes "
                          "or more)"},
    [S_SESSION_TTL - S_FIRST] = {"session-ttl", 0, "SECONDS",
                                 "keep a pseudonym session this long after its last use; 0 "
                                 "turns sessions off (default 3600)"},
    [S_HELP - S_FIRST] = {"help", 'h', NULL, "show this help and exit"},
};
enum { S_NFLAGS = S_END - S_FIRST };
_Static_assert(sizeof serve_flags / sizeof serve_flags[0] == S_NFLAGS, "one entry per option id");

static void serve_usage(FILE *fp)
{
    pii_cli_usage(fp, "pii-redact serve [OPTIONS] [REDACTION OPTIONS]",
                  "Serves the redactor over HTTP/1.1: POST /redact (text or JSON), /restore, the\n"
                  "Presidio-compatible /analyze, /anonymize and /deanonymize, and GET /health.\n"
                  "The redaction options are the main command's (pii-redact --help); the redactor\n"
                  "is built once and shared by the workers.",
                  serve_flags, S_NFLAGS,
                  "SIGTERM or SIGINT stops it: requests in progress finish first.  Request bodies\n"
                  "and found values are never logged.  docs/SERVER.md has the endpoints.");
}

typedef struct serve_cfg {
    const char *listen, *auth_file;
    unsigned long workers, max_body, max_requests, timeout, session_ttl;
} serve_cfg;

static int parse_num(const char *opt, const char *s, unsigned long lo, unsigned long hi, int suffix,
                     unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    unsigned long mul = 1;
    if (suffix && (*end == 'K' || *end == 'k'))
        mul = 1024, end++;
    else if (suffix && (*end == 'M' || *end == 'm'))
        mul = 1024 * 1024, end++;
    if (errno || end == s || *end || s[0] == '-' || v > hi / mul || v * mul < lo) {
        fprintf(stderr, "pii-redact serve: %s: '%s' is not a number in %lu..%lu\n", opt, s, lo, hi);
        return -1;
    }
    *out = v * mul;
    return 0;
}

/* Takes serve's own options out of argv; the rest (the redaction options)
 * go to rest[] after "pii-redact".  Returns -1 to go on, else a status. */
static int parse_serve(int argc, char **argv, serve_cfg *c, char **rest, int *nrest)
{
    *c = (serve_cfg){"127.0.0.1:8080", NULL, 2, 1024 * 1024, 64, 30, 3600};
    *nrest = 0;
    rest[(*nrest)++] = "pii-redact";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        size_t k;
        for (k = 0; k < S_NFLAGS; k++) {
            const pii_flag *f = &serve_flags[k];
            size_t ln = strlen(f->name);
            if (strncmp(a, "--", 2) == 0 && strncmp(a + 2, f->name, ln) == 0 &&
                (a[2 + ln] == '\0' || (a[2 + ln] == '=' && f->arg)))
                break;
            if (f->short_name && a[0] == '-' && a[1] == f->short_name && a[2] == '\0')
                break;
        }
        if (k == S_NFLAGS) {
            rest[(*nrest)++] = argv[i];
            continue;
        }
        const char *val = NULL;
        if (serve_flags[k].arg) {
            const char *eq = strchr(a, '=');
            if (eq)
                val = eq + 1;
            else if (i + 1 < argc)
                val = argv[++i];
            else {
                fprintf(stderr, "pii-redact serve: option '%s' requires an argument\n", a);
                return PII_EXIT_USAGE;
            }
        }
        int bad = 0;
        switch ((int)k + S_FIRST) {
        case S_LISTEN:
            c->listen = val;
            break;
        case S_WORKERS:
            bad = parse_num("--workers", val, 1, 256, 0, &c->workers);
            break;
        case S_MAX_BODY:
            bad = parse_num("--max-body", val, 1, 1ul << 30, 1, &c->max_body);
            break;
        case S_MAX_REQUESTS:
            bad = parse_num("--max-requests", val, 1, 100000, 0, &c->max_requests);
            break;
        case S_TIMEOUT:
            bad = parse_num("--timeout", val, 1, 86400, 0, &c->timeout);
            break;
        case S_AUTH:
            c->auth_file = val;
            break;
        case S_SESSION_TTL:
            if (strcmp(val, "0") == 0)
                c->session_ttl = 0;
            else
                bad = parse_num("--session-ttl", val, 1, 7 * 86400, 0, &c->session_ttl);
            break;
        case S_HELP:
            serve_usage(stdout);
            return PII_EXIT_OK;
        }
        if (bad)
            return PII_EXIT_USAGE;
    }
    rest[*nrest] = NULL;
    return -1;
}

/* ---- the token ------------------------------------------------------------ */

static int read_token(const char *path, char *buf, size_t cap, size_t *n)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        fprintf(stderr, "pii-redact serve: %s: %s\n", path, strerror(errno));
        return PII_EXIT_IO;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_mode & 077)) {
        fprintf(stderr,
                "pii-redact serve: %s: the token file must be a regular file only its owner "
                "can read (chmod 600)\n",
                path);
        close(fd);
        return PII_EXIT_USAGE;
    }
    ssize_t r;
    *n = 0;
    while (*n < cap && ((r = read(fd, buf + *n, cap - *n)) > 0 || (r < 0 && errno == EINTR)))
        *n += r > 0 ? (size_t)r : 0;
    close(fd);
    while (*n && (buf[*n - 1] == '\n' || buf[*n - 1] == '\r'))
        (*n)--;
    if (*n < 16 || *n >= cap) {
        fprintf(stderr, "pii-redact serve: %s: the token must have 16..%zu bytes\n", path, cap - 1);
        return PII_EXIT_USAGE;
    }
    for (size_t i = 0; i < *n; i++)
        if ((unsigned char)buf[i] <= ' ' || (unsigned char)buf[i] >= 0x7f) {
            fprintf(stderr, "pii-redact serve: %s: the token must be printable ASCII\n", path);
            return PII_EXIT_USAGE;
        }
    return -1;
}

/* ---- the listening socket -------------------------------------------------- */

/* Binds and listens; the address it got is written to shown (for the
 * "serving on" line).  -1 after a message. */
static int listen_on(const char *spec, char *shown, size_t cap)
{
    int fd;
    if (strncmp(spec, "unix:", 5) == 0) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        const char *path = spec + 5;
        if (!*path || strlen(path) >= sizeof sa.sun_path) {
            fprintf(stderr, "pii-redact serve: --listen: bad socket path\n");
            return -1;
        }
        strcpy(sa.sun_path, path);
        struct stat st;
        /* a stale socket of an earlier run goes; any other file stays */
        if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
            unlink(path);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 128) != 0) {
            fprintf(stderr, "pii-redact serve: %s: %s\n", path, strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        snprintf(shown, cap, "unix:%s", path);
        return fd;
    }
    char host[256];
    const char *colon = strrchr(spec, ':');
    if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof host) {
        fprintf(stderr, "pii-redact serve: --listen: '%s' is not HOST:PORT or unix:PATH\n", spec);
        return -1;
    }
    memcpy(host, spec, (size_t)(colon - spec));
    host[colon - spec] = '\0';
    if (host[0] == '[' && host[strlen(host) - 1] == ']') {
        memmove(host, host + 1, strlen(host));
        host[strlen(host) - 1] = '\0';
    }
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
                             .ai_socktype = SOCK_STREAM},
                    *ai;
    int g = getaddrinfo(host, colon + 1, &hints, &ai);
    if (g != 0) {
        fprintf(stderr, "pii-redact serve: --listen: '%s': %s (a numeric address and port)\n", spec,
                gai_strerror(g));
        return -1;
    }
    fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 128) != 0) {
        fprintf(stderr, "pii-redact serve: %s: %s\n", spec, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return -1;
    }
    freeaddrinfo(ai);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    char ip[INET6_ADDRSTRLEN] = "?";
    int port = 0;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
        if (ss.ss_family == AF_INET) {
            struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
            inet_ntop(AF_INET, &s4->sin_addr, ip, sizeof ip);
            port = ntohs(s4->sin_port);
        } else if (ss.ss_family == AF_INET6) {
            struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
            inet_ntop(AF_INET6, &s6->sin6_addr, ip, sizeof ip);
            port = ntohs(s6->sin6_port);
        }
    }
    snprintf(shown, cap, ss.ss_family == AF_INET6 ? "http://[%s]:%d" : "http://%s:%d", ip, port);
    return fd;
}

static int is_loopback(const char *spec)
{
    return strncmp(spec, "unix:", 5) == 0 || strncmp(spec, "127.", 4) == 0 ||
           strncmp(spec, "[::1]:", 6) == 0 || strncmp(spec, "localhost:", 10) == 0;
}

/* ---- requests ----------------------------------------------------------------- */

typedef struct req req;

typedef struct server {
    pii_srv api;
    serve_cfg cfg;
    char token[1024];
    size_t token_len;
    atomic_long active;  /* requests between their headers and their completion */
    atomic_long pending; /* requests handed to the workers, not yet completed */
    /* the work queue: requests whose body is in, for the worker pool */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    req *head, *tail;
    int stop;
    pthread_t *workers;
    unsigned long nworkers;
} server;

struct req {
    int counted;    /* in server.active */
    int refused;    /* a reply is queued already: discard the body */
    size_t too_big; /* bytes dropped past --max-body */
    pii_buf body;
    /* handed to a worker: the connection is suspended until done */
    atomic_int done;
    struct MHD_Connection *conn;
    char *method, *url, *ctype;
    pii_srv_reply reply;
    req *next;
};

static enum MHD_Result send_reply(struct MHD_Connection *c, pii_srv_reply *r)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        r->body.n, r->body.p ? r->body.p : (void *)"", MHD_RESPMEM_MUST_COPY);
    if (!resp)
        return MHD_NO;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->ctype);
    if (r->status == 503)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, "1");
    if (r->status == 401)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
    if (r->status == 405 && r->allow)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, r->allow);
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

static enum MHD_Result refuse(struct MHD_Connection *c, req *q, int status, const char *msg)
{
    pii_srv_reply r = {0};
    pii_srv_error(&r, status, msg);
    q->refused = 1;
    enum MHD_Result ok = send_reply(c, &r);
    pii_buf_free(&r.body);
    return ok;
}

/* Constant-time comparison of the bearer token. */
static int authorized(const server *s, struct MHD_Connection *c)
{
    if (!s->token_len)
        return 1;
    const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    if (!h || strncasecmp(h, "Bearer ", 7) != 0)
        return 0;
    h += 7;
    while (*h == ' ')
        h++;
    size_t n = strlen(h);
    while (n && h[n - 1] == ' ')
        n--;
    unsigned char diff = n != s->token_len;
    for (size_t i = 0; i < s->token_len; i++)
        diff |= (unsigned char)(s->token[i] ^ (i < n ? h[i] : 0));
    return diff == 0;
}

/* ---- the worker pool ------------------------------------------------------------ */

static void *worker(void *arg)
{
    server *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->mu);
        while (!s->head && !s->stop)
            pthread_cond_wait(&s->cv, &s->mu);
        req *q = s->head;
        if (q) {
            s->head = q->next;
            if (!s->head)
                s->tail = NULL;
        }
        pthread_mutex_unlock(&s->mu);
        if (!q)
            return NULL; /* stopping, and the queue is empty */
        pii_srv_handle(&s->api, q->method, q->url, q->ctype,
                       q->body.p ? q->body.p : (const uint8_t *)"", q->body.n, &q->reply);
        pii_buf_free(&q->body);
        atomic_store(&q->done, 1);
        MHD_resume_connection(q->conn); /* the reply goes out from the I/O thread */
    }
}

/* Hands a request whose body is in to the workers; its connection waits
 * (suspended) until a worker resumes it.  0 when out of memory. */
static int submit(server *s, struct MHD_Connection *c, req *q, const char *method, const char *url)
{
    const char *ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    q->method = strdup(method);
    q->url = strdup(url);
    q->ctype = ct ? strdup(ct) : NULL;
    if (!q->method || !q->url || (ct && !q->ctype))
        return 0;
    q->conn = c;
    atomic_fetch_add(&s->pending, 1);
    MHD_suspend_connection(c);
    pthread_mutex_lock(&s->mu);
    if (s->tail)
        s->tail->next = q;
    else
        s->head = q;
    s->tail = q;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return 1;
}

/* ---- requests ----------------------------------------------------------------- */

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *data,
                                  size_t *data_size, void **con_cls)
{
    server *s = cls;
    req *q = *con_cls;
    (void)version;
    if (!q) { /* the headers are in: admit or refuse */
        if (!(q = calloc(1, sizeof *q)))
            return MHD_NO;
        *con_cls = q;
        q->counted = 1;
        long now_active = atomic_fetch_add(&s->active, 1) + 1;
        if (now_active > (long)s->cfg.max_requests)
            return refuse(c, q, 503, "too many requests in progress; retry");
        if (strcmp(url, "/health") != 0 && !authorized(s, c))
            return refuse(c, q, 401, "missing or wrong bearer token");
        const char *cl =
            MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > s->cfg.max_body)
            return refuse(c, q, 413, "request body too large (--max-body)");
        return MHD_YES;
    }
    if (*data_size) {
        /* A reply can only be queued once the body is in (libmicrohttpd):
         * a body past the limit is dropped as it comes and answered 413 at
         * its end; one that goes on past 16 times the limit is cut. */
        size_t n = *data_size;
        *data_size = 0;
        if (q->refused)
            return MHD_YES;
        if (q->too_big || q->body.n + n > s->cfg.max_body) {
            q->too_big += n;
            pii_buf_free(&q->body);
            return q->too_big / 16 > s->cfg.max_body ? MHD_NO : MHD_YES;
        }
        if (pii_buf_append(&q->body, data, n) != PII_OK)
            q->too_big = 1; /* out of memory: refused as too large */
        return MHD_YES;
    }
    if (q->refused)
        return MHD_YES;
    if (q->too_big)
        return refuse(c, q, 413, "request body too large (--max-body)");
    if (q->conn) { /* resumed: a worker has the reply */
        if (!atomic_load(&q->done))
            return MHD_YES;
        enum MHD_Result ok = send_reply(c, &q->reply);
        pii_buf_free(&q->reply.body);
        return ok;
    }
    if (strcmp(url, "/health") == 0) { /* answered here, never queued */
        pii_srv_reply r = {0};
        pii_srv_handle(&s->api, method, url, NULL, (const uint8_t *)"", 0, &r);
        enum MHD_Result ok = send_reply(c, &r);
        pii_buf_free(&r.body);
        return ok;
    }
    if (!submit(s, c, q, method, url))
        return refuse(c, q, 500, "out of memory");
    return MHD_YES;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    server *s = cls;
    req *q = *con_cls;
    (void)c;
    (void)toe;
    if (!q)
        return;
    if (q->counted)
        atomic_fetch_sub(&s->active, 1);
    if (q->conn)
        atomic_fetch_sub(&s->pending, 1);
    pii_buf_free(&q->body);
    pii_buf_free(&q->reply.body);
    free(q->method);
    free(q->url);
    free(q->ctype);
    free(q);
    *con_cls = NULL;
}

static int start_workers(server *s)
{
    if (pthread_mutex_init(&s->mu, NULL) != 0)
        return -1;
    if (pthread_cond_init(&s->cv, NULL) != 0 ||
        !(s->workers = calloc(s->cfg.workers, sizeof *s->workers))) {
        pthread_mutex_destroy(&s->mu);
        return -1;
    }
    for (; s->nworkers < s->cfg.workers; s->nworkers++)
        if (pthread_create(&s->workers[s->nworkers], NULL, worker, s) != 0)
            return -1;
    return 0;
}

static void stop_workers(server *s)
{
    pthread_mutex_lock(&s->mu);
    s->stop = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    for (unsigned long i = 0; i < s->nworkers; i++)
        pthread_join(s->workers[i], NULL);
    free(s->workers);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
}

/* ---- the command -------------------------------------------------------------- */

static int wait_signal(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    int sig = 0;
    while (sigwait(&set, &sig) != 0)
        ;
    return sig;
}

static int run_server(server *s, const pii_opts *o)
{
    char shown[600];
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    /* blocked here, so every thread started below has them blocked too */
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    int fd = listen_on(s->cfg.listen, shown, sizeof shown);
    if (fd < 0)
        return PII_EXIT_IO;
    if (!is_loopback(s->cfg.listen) && !s->token_len && !o->quiet)
        fprintf(stderr,
                "pii-redact serve: warning: %s is not a loopback address and no "
                "--auth-token-file is set: anyone who can reach it can use it\n",
                s->cfg.listen);
    if (start_workers(s) != 0) {
        fprintf(stderr, "pii-redact serve: cannot start the worker threads\n");
        close(fd);
        return PII_EXIT_FAIL;
    }
    /* one I/O thread reads and writes every connection; the workers redact */
    struct MHD_Daemon *d =
        MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_AUTO,
                         0, NULL, NULL, on_request, s, MHD_OPTION_LISTEN_SOCKET, fd,
                         MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)s->cfg.timeout,
                         MHD_OPTION_CONNECTION_LIMIT, (unsigned)(s->cfg.max_requests * 2 + 64),
                         MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "pii-redact serve: the HTTP server did not start\n");
        close(fd);
        stop_workers(s);
        return PII_EXIT_FAIL;
    }
    fprintf(stderr, "pii-redact serve: listening on %s (%lu workers)\n", shown, s->cfg.workers);
    fflush(stderr);
    int sig = wait_signal();
    /* no new connections; what is in progress finishes */
    MHD_socket lfd = MHD_quiesce_daemon(d);
    if (lfd != MHD_INVALID_SOCKET)
        close(lfd);
    if (strncmp(s->cfg.listen, "unix:", 5) == 0)
        unlink(s->cfg.listen + 5);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* Requests with a worker always finish (their time is bounded by
     * --max-body); ones still sending their body get --timeout seconds. */
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        long pending = atomic_load(&s->pending);
        if (atomic_load(&s->active) <= 0 ||
            (pending <= 0 && t.tv_sec - t0.tv_sec >= (time_t)s->cfg.timeout))
            break;
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    long left = atomic_load(&s->active);
    MHD_stop_daemon(d);
    stop_workers(s);
    if (!o->quiet)
        fprintf(stderr, "pii-redact serve: stopped (%s)%s\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
                left > 0 ? "; requests still in progress were cut" : "");
    return left > 0 ? PII_EXIT_FAIL : PII_EXIT_OK;
}

int pii_cmd_serve(int argc, char **argv)
{
    serve_cfg cfg;
    char **rest = calloc((size_t)argc + 2, sizeof *rest);
    int nrest, rc;
    if (!rest)
        return PII_EXIT_FAIL;
    if ((rc = parse_serve(argc, argv, &cfg, rest, &nrest)) >= 0) {
        free(rest);
        return rc;
    }
    pii_settings_args args;
    pii_opts o;
    if ((rc = pii_settings_argv(nrest, rest, &args)) >= 0) {
        free(rest);
        return rc;
    }
    pii_opts_origins(args.origin);
    rc = pii_opts_parse(args.argc, args.argv, &o);
    if (rc < 0 &&
        (o.nfiles || pii_batch_wanted(&o) || o.check || o.lines || o.list_rules || o.map_out)) {
        fprintf(stderr, "pii-redact serve: takes redaction options only (no FILE, --check, "
                        "--lines, -r, --in-place, --list-rules, --map-out)\n");
        rc = PII_EXIT_USAGE;
    }
    server *s = calloc(1, sizeof *s);
    pii_pipeline p;
    int built = 0;
    memset(&p, 0, sizeof p);
    if (rc < 0 && !s)
        rc = PII_EXIT_FAIL;
    if (rc < 0) {
        s->cfg = cfg;
        if (!o.threads)
            o.threads = "1"; /* the workers are the parallelism */
        rc = pii_pipeline_build(&o, &p);
        built = 1;
    }
    if (rc < 0 && cfg.auth_file)
        rc = read_token(cfg.auth_file, s->token, sizeof s->token, &s->token_len);
    if (rc < 0) {
        s->api.red = p.red;
        s->api.key = p.key; /* the hash key the pipeline loaded, if any */
        s->api.keylen = p.keylen;
        if (cfg.session_ttl &&
            !(s->api.sess = pii_sess_create((unsigned)cfg.session_ttl, MAX_SESSIONS)))
            rc = PII_EXIT_FAIL;
    }
    if (rc < 0)
        rc = run_server(s, &o);
    if (s) {
        pii_sess_free(s->api.sess);
        memset(s->token, 0, sizeof s->token);
        free(s);
    }
    if (built)
        pii_pipeline_free(&p);
    pii_opts_free(&o);
    pii_settings_argv_free(&args);
    free(rest);
    return rc;
}
