/* batch_int.h — internals shared by src/batch*.c (not a public header).
 *
 * Threads: the main thread collects the inputs (batch_walk.c), starts the
 * workers, then draws the progress line until every item is finished.
 * Workers take item indexes from `next` (atomic) and own an item from then
 * on; they publish completion under `mu` (finished flag, stdout spool
 * order) and bump the atomic progress counters.  Messages to stderr go
 * through batch_msg (under `msgmu`) so they never tear the progress line.
 */
#ifndef PII_BATCH_INT_H
#define PII_BATCH_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "drive.h"
#include "opts.h"
#include "output.h"
#include "pii_records.h"
#include "pipeline.h"

enum dest {
    DEST_STDOUT,  /* the redacted text on stdout (one input, or json/jsonl) */
    DEST_NONE,    /* --check: nothing written */
    DEST_OUTDIR,  /* --out-dir DIR */
    DEST_SUFFIX,  /* --suffix SUF beside the input */
    DEST_INPLACE, /* --in-place */
};

enum status { ST_PENDING, ST_OK, ST_SKIPPED, ST_FAILED };

/* What a skipped item means (issue 42 H4, issue 43 item 2).  Every file a
 * walk does not read is an item, listed in the report with its reason.
 * SKIP_NOTE: a documented normal skip (a binary file or a link met in a
 * walk, a special file, --resume): a notice unless -q, not an error.
 * SKIP_SILENT: one the user chose (--exclude, --include, ignore files in
 * --check, .git folders, previous --suffix outputs, the --baseline and
 * --report files): listed only.  SKIP_RISKY: a reason the user did not
 * choose that could hide text (a temporary-file name, another file
 * system): a notice even with -q, and the run exits 3. */
enum skip { SKIP_NOTE, SKIP_SILENT, SKIP_RISKY };

/* Findings of one label from one source (index: pii_source). */
typedef struct lcount {
    const char *label;
    uint64_t n[3];
} lcount;

/* One --check finding (batch_scan.c). */
typedef struct finding {
    uint64_t line, col; /* 1-based, in the file (records too); col in bytes */
    uint64_t ccol;      /* col in code points (SARIF's columnKind) */
    const char *label;
    const char *rule; /* the rule's id (rule tier, deny lists); NULL for the model */
    uint8_t source;   /* pii_source */
    uint8_t allowed;  /* its line holds the pii-redact:allow marker */
    float score;
    char fp[17]; /* fingerprint, 16 hex digits */
    char *value; /* --show-values only */
    size_t vlen;
} finding;

/* More than the documents a stream queues (PII_STREAM_QUEUE_DOCS) plus the
 * open one. */
#define BATCH_DOC_RING 512

/* A worker's view of the file in hand for --check (batch_scan.c). */
typedef struct scan_state {
    uint64_t fed; /* bytes of the file observed */
    /* --lines: the file offset of each document in flight, by its number
     * in the worker's stream (pii_stream_doc) modulo BATCH_DOC_RING: lines
     * are queued (pii_stream_put) and their spans come at the flush */
    uint64_t doc_base[BATCH_DOC_RING];
    uint64_t docs_started; /* documents begun in the worker's stream */
    uint64_t *nl;          /* offsets of the line ends seen: LF, or a CR not
                              followed by LF (issue 42 Low: a CR-only file was
                              one line, so one allow marker hid every finding) */
    int cr_pending;        /* the last block ended in CR at cr_off */
    uint64_t cr_off;
    size_t nnl, capnl;
    uint64_t *allow; /* 0-based lines holding the marker, ascending */
    size_t nallow, capallow;
    uint8_t tail[16]; /* the last bytes seen, for a marker across blocks */
    size_t ntail;
    /* SARIF's columns count code points: a bit per byte that is a UTF-8
     * continuation byte (0x80-0xBF), kept only with --report-format sarif
     * (records mode too), allocated at a file's first such byte, and
     * their number per 4096-byte block */
    uint64_t *cb;
    size_t ncb, capcb;
    uint16_t *cbn;
    size_t ncbn, capcbn;
    int oom;
} scan_state;

typedef struct bitem {
    char *path;    /* as given or as walked ("-": stdin) */
    char *blob;    /* --staged: the staged blob's id (read through git, staged.h) */
    int from_diff; /* --diff: the lines a diff adds, read from mem (diffscan.h) */
    char *mem;     /* --diff: those lines */
    size_t memlen;
    uint64_t *lmap; /* --diff: the new file's line number of mem's line k */
    size_t nlmap;
    const char *root;   /* the argument it was found under */
    int is_root;        /* named on the command line */
    uint64_t size;      /* from stat at collection, for the ETA */
    int have_id;        /* walked: dev/ino of the file and of its directory */
    dev_t dev, pdev;    /* as the walk saw them; the file is opened only if */
    ino_t ino, pino;    /* both still match (batch.c, issue 18 H1)         */
    enum status status; /* set at collection for skips/failures */
    enum skip skip;     /* skipped: what it means */
    const char *reason; /* skipped: why (static) */
    char *error;        /* failed: message */
    char *out;          /* output path, if any */
    int changed;        /* an output differs from the input */
    uint64_t bytes_in, bytes_out, findings, records;
    double seconds;
    lcount *counts;
    size_t ncounts;
    FILE *spool;  /* DEST_STDOUT with several workers: output in order */
    finding *fnd; /* --check findings, in order */
    size_t nfnd, capfnd;
    size_t reported; /* --check: findings reported (not allowed, not in the baseline) */
    int finished;
} bitem;

/* --structured: the record formats chosen by extension (batch_auto_kind) */
enum { BATCH_AUTO_JSONL, BATCH_AUTO_JSON, BATCH_AUTO_CSV, BATCH_AUTO_N };

typedef struct batch {
    const pii_opts *o;
    pii_pipeline *p;
    pii_rec_spec *spec;
    pii_rec_spec *auto_spec[BATCH_AUTO_N]; /* --structured; NULL otherwise */
    enum dest dest;
    bitem *items;
    size_t nitems, capitems;
    int walk_failed; /* collection hit errors (items carry them) */
    unsigned njobs;
    mode_t umask;
    struct pii_ignore_ctx *ign; /* the walk in progress (ignore.h); NULL: --no-ignore */
    char *root_real;            /* the argument being walked, resolved (confinement) */
    dev_t root_dev;             /* and its device (issue 18 M5, batch_walk.c) */
    int have_outdir_id;
    int have_base_id, have_report_id; /* never walked (issue 43 item 2) */
    dev_t base_dev, report_dev;
    ino_t base_ino, report_ino;
    int outdir_fd; /* the --out-dir folder, held (issue 42 H1) */
    dev_t outdir_dev;
    ino_t outdir_ino;

    atomic_size_t next;
    atomic_int stop; /* standard output was closed: take no more files */
    atomic_uint_fast64_t done, bytes_done, findings;
    uint64_t bytes_total;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t emit_next; /* DEST_STDOUT spool order */
    int stdout_err;   /* errno of a failed stdout write (0: fine) */
    size_t nfinished;

    pthread_mutex_t msgmu;
    int progress; /* 0 off, 1 terminal line, 2 plain lines */
    int progress_drawn;
    double t0;
} batch;

typedef struct tslot tslot; /* a temporary file to remove on a signal (batch.c) */

/* Packed model passes over small files (batch_pack.c): a worker gathers
 * consecutive small files, reads them whole and announces them to its
 * stream (pii_stream_put, PII_STREAM_AHEAD), so the model computes them in shared forward
 * passes; each is then redacted through the worker's stream. */
typedef struct batch_pack {
    int on;
    uint8_t *arena; /* PACK_MAX slots of PACK_FILE_MAX bytes */
} batch_pack;

typedef struct worker {
    batch *b;
    pthread_t th;
    pii_stream *st;                    /* the configured redactor */
    pii_rec_stream *rs;                /* records mode: the stream of the file in hand */
    pii_rec_stream *ars[BATCH_AUTO_N]; /* --structured: one per format, made on first use */
    pii_stream *cur;                   /* the stream of the file in hand: st */
    batch_pack pack;                   /* packed model passes (batch_pack.c) */
    uint8_t *buf;
    char *iobuf;
    pii_out *out;
    pii_sink osink;
    bitem *it;
    int dead; /* its stream could not be rebuilt after a failure */
    tslot *slot;
    pii_opts oout;   /* options for pii_out (text to files: no per-line flush) */
    char field[256]; /* records: the field of the current span */
    scan_state sc;   /* --check */
} worker;

#define CHUNK PII_DRIVE_BLOCK   /* a worker's read block: the driver's */
#define IOBUF (64u * 1024u)     /* a worker's output buffer */
#define LARGE_INPUT (16u << 20) /* one input this large shows the progress line too */

/* batch_tmp.c: the temporary-file registry that SIGINT, SIGTERM and SIGHUP
 * clean up: one slot per worker (-1: out of memory), slot i (NULL when
 * there is no registry), and its release. */
int batch_slots_init(unsigned n);
tslot *batch_slot(unsigned i);
void batch_slots_free(void);
/* Creates ".BASE.pii-redact-XXXXXX" beside `out`, registered in `slot`
 * before it exists; *tmp gets its path (malloc'd).  With dirfd >= 0 (a
 * verified folder) it is created there, whatever its path now leads to.
 * The descriptor, or -1 with errno. */
int batch_tmp_create(const char *out, tslot *slot, char **tmp, int dirfd);
/* Removes a temporary file: through dirfd when >= 0. */
void batch_tmp_drop(int dirfd, const char *tmp);
/* The slot's file is no longer ours to remove (renamed or removed). */
void batch_tmp_release(tslot *s);
/* The last name of a path. */
const char *batch_base_of(const char *path);

/* batch_output.c: mkdir -p: 0, or -1 with errno. */
int batch_mkdir_p(const char *dir);
/* batch_worker.c: the sink of the worker's streams, and (re)opening the
 * worker's stream or record stream on the run's redactor. */
pii_sink batch_sink(worker *w);
pii_err batch_open_streams(worker *w);
/* strerror_r into buf. */
const char *batch_errstr(int err, char *buf, size_t n);
int batch_ends_in(const char *s, const char *suf);
/* The format --structured reads a file in (BATCH_AUTO_*), or -1: text;
 * *tab: a *.tsv or *.tab name. */
int batch_auto_kind(const char *path, int *tab);

/* One input opened and its first block read (batch_input.c). */
typedef struct batch_input {
    int fd;           /* -1 when closed */
    int dirfd;        /* walked items: the verified parent directory, else -1 */
    const char *base; /* the name inside dirfd */
    int is_stdin;
    pid_t git; /* --staged: the git cat-file feeding fd (0: none) */
    struct stat st;
    const uint8_t *data; /* the first block */
    size_t n, cap;       /* n < cap: the input ended within it */
    double t0;
} batch_input;

/* batch_input.c: opens `it` and reads its first block into buf[0..cap).
 * Returns 1 when it is ready for batch_redact, 0 when it is finished
 * (skipped or failed, reported). */
int batch_prepare(worker *w, bitem *it, uint8_t *buf, size_t cap, batch_input *in);
/* Opens the folder of a walked item into in->dirfd (in->base: the name in
 * it), only if it is the folder the walk listed.  1, or 0 after failing
 * the item. */
int batch_open_walked_dir(worker *w, bitem *it, batch_input *in);
/* Closes the input (and reaps its git, if any).  -1 when that git failed:
 * the bytes read may not be the whole blob. */
int batch_input_close(batch_input *in);

/* An item's destination in the making (batch_output.c). */
typedef struct bdest {
    FILE *fp;     /* the redacted text: stdout, a spool or the temporary file */
    char *tmp;    /* the temporary file's path (--out-dir, --suffix, --in-place) */
    int tfd;      /* its descriptor until fp owns it, else -1 */
    int wdir;     /* the folder written through (>= 0), if any */
    int own_wdir; /* wdir is ours to close */
    int use_at;   /* the input's name is reached through in->dirfd */
} bdest;
/* The destination of `it` (d zeroed but tfd = wdir = -1): 1 when d->fp
 * (none for --check) is ready, 0 when the item is finished (failed,
 * skipped by --resume, or an empty --in-place file). */
int batch_dest_open(worker *w, bitem *it, batch_input *in, bdest *d);
/* Commits a redacted item (it->changed set): the temporary file takes the
 * input's attributes and is renamed over the output; --in-place with no
 * finding leaves the original untouched.  A failure fails the item. */
void batch_dest_commit(worker *w, bitem *it, batch_input *in, bdest *d);
/* Closes what is open; a temporary file left (the item not OK) is removed. */
void batch_dest_close(worker *w, bitem *it, bdest *d);

/* batch_redact.c: writes, redacts through st (w->st) and commits. */
void batch_redact(worker *w, bitem *it, batch_input *in, pii_stream *st);
/* Structured handling by extension (batch_worker.c): --structured, or -r
 * without --as-text, --lines, --format json or a record option. */
int batch_structured(const pii_opts *o);
/* --structured (batch_worker.c): the specs, and a worker's record streams
 * freed. */
pii_err batch_auto_specs(batch *b);
void batch_free_rec_streams(worker *w);
/* The whole of one item: batch_prepare + batch_redact through w->st. */
void batch_process(worker *w, bitem *it);
/* Marks `it` failed with a message (printed, kept for the report). */
void batch_fail(worker *w, bitem *it, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void batch_finish(batch *b, bitem *it);

/* batch_pack.c (called by batch_run.c) */
int batch_pack_init(worker *w); /* -1, or an exit status */
void batch_pack_free(worker *w);
int batch_pack_candidate(const worker *w, const bitem *it);
void batch_pack_run(worker *w, size_t first);

/* batch_walk.c: fills b->items from the arguments.  Returns -1, or an exit
 * status for a fatal problem (usage, memory). */
int batch_collect(batch *b);
/* Output path of an item for the file-writing destinations (malloc'd). */
char *batch_out_path(const batch *b, const char *path);
/* The skip reason of a file listed twice (batch_walk.c); it was read. */
#define BATCH_SAME_FILE "the same file as another name listed (a link): done once"
/* The skip reason of a walked file ending in --suffix (batch_walk.c). */
#define BATCH_PREV_OUTPUT "ends in the --suffix: taken as an output of an earlier run"
/* The skip reasons of the --baseline and --report files met in a walk. */
#define BATCH_BASELINE_FILE "the --baseline file"
#define BATCH_REPORT_FILE "the --report file"
/* batch_dest.c: refuses a run where an output would overwrite an input or
 * another output (issue 42 H3).  -1, or an exit status after a message. */
int batch_check_dests(batch *b);
/* The temporary-file name pattern's marker (".NAME.pii-redact-XXXXXX"). */
#define BATCH_TMP_MARK ".pii-redact-"
int batch_is_tmp_name(const char *name);

/* batch_scan.c: --check findings (docs/CI.md) */
void batch_scan_begin(worker *w);
void batch_scan_data(worker *w, const uint8_t *p, size_t n);
pii_err batch_scan_span(worker *w, const pii_span *s, const uint8_t *v, size_t len);
void batch_scan_free(worker *w);
void batch_scan_item_free(bitem *it);
long batch_scan_report(batch *b);

/* batch_report.c */
void batch_msg(batch *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void batch_progress(batch *b, int final);
int batch_write_report(batch *b, double wall);
void batch_summary(batch *b, double wall);
double batch_now(void);

#endif
