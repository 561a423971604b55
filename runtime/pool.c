/* pool.c — a fixed thread pool with fork/join runs and an in-run barrier.
 *
 * Synchronisation (written down, as every kernel relies on it):
 *  - run: the caller stores fn/ctx, then increments `gen` under `mu` with
 *    release order and broadcasts `cv`.  A worker that observes a new gen
 *    (acquire) sees fn/ctx.  Workers spin briefly on gen, then sleep on cv.
 *  - join: each worker increments `done` (release) after fn returns; the
 *    caller spins (then yields) until done == nth-1 (acquire), so all the
 *    workers' writes are visible when run returns.
 *  - barrier: sense-reversing counter.  The last arriving thread resets the
 *    count and increments `bar_gen` (release); the others spin on bar_gen
 *    (acquire).  Writes before the barrier are visible after it.
 *  Spinning yields the CPU after a while, so an oversubscribed machine
 *  still makes progress. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "pii_rt.h"

#define SPIN_BEFORE_YIELD 4000
#define SPIN_BEFORE_SLEEP 20000

struct pii_rt_pool {
    int n;
    pthread_t *th;
    pthread_mutex_t run_mu; /* one run at a time */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    atomic_uint gen;
    atomic_int done;
    atomic_int stop;
    atomic_uint bar_count;
    atomic_uint bar_gen;
    pii_rt_task_fn fn;
    void *ctx;
};

typedef struct worker_arg {
    pii_rt_pool *p;
    int ith;
} worker_arg;

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

int pii_rt_ncpu(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

static void *worker(void *arg)
{
    worker_arg wa = *(worker_arg *)arg;
    free(arg);
    pii_rt_pool *p = wa.p;
    unsigned seen = 0;
    for (;;) {
        unsigned g;
        int spins = 0;
        while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen &&
               !atomic_load_explicit(&p->stop, memory_order_acquire)) {
            if (++spins < SPIN_BEFORE_SLEEP) {
                if (spins % SPIN_BEFORE_YIELD == 0)
                    sched_yield();
                else
                    cpu_relax();
                continue;
            }
            pthread_mutex_lock(&p->mu);
            while (atomic_load_explicit(&p->gen, memory_order_acquire) == seen &&
                   !atomic_load_explicit(&p->stop, memory_order_acquire))
                pthread_cond_wait(&p->cv, &p->mu);
            pthread_mutex_unlock(&p->mu);
        }
        if (atomic_load_explicit(&p->stop, memory_order_acquire))
            break;
        seen = g;
        p->fn(p->ctx, wa.ith, p->n);
        atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
    }
    return NULL;
}

pii_rt_pool *pii_rt_pool_create(int nthreads, pii_err *err)
{
    if (nthreads <= 0)
        nthreads = pii_rt_ncpu();
    if (nthreads > 1024)
        nthreads = 1024;
    pii_rt_pool *p = calloc(1, sizeof *p);
    if (!p) {
        *err = PII_ENOMEM;
        return NULL;
    }
    p->n = nthreads;
    pthread_mutex_init(&p->run_mu, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->th = calloc((size_t)nthreads, sizeof *p->th);
    if (!p->th) {
        pii_rt_pool_free(p);
        *err = PII_ENOMEM;
        return NULL;
    }
    for (int i = 1; i < nthreads; i++) {
        worker_arg *a = malloc(sizeof *a);
        if (!a || (a->p = p, a->ith = i, pthread_create(&p->th[i], NULL, worker, a) != 0)) {
            free(a);
            p->n = i; /* join only those started */
            pii_rt_pool_free(p);
            *err = PII_ENOMEM;
            return NULL;
        }
    }
    *err = PII_OK;
    return p;
}

void pii_rt_pool_free(pii_rt_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->stop, 1);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; p->th && i < p->n; i++)
        pthread_join(p->th[i], NULL);
    free(p->th);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->run_mu);
    free(p);
}

int pii_rt_pool_size(const pii_rt_pool *p)
{
    return p ? p->n : 1;
}

void pii_rt_pool_run(pii_rt_pool *p, pii_rt_task_fn fn, void *ctx)
{
    if (!p || p->n == 1) {
        fn(ctx, 0, 1);
        return;
    }
    pthread_mutex_lock(&p->run_mu);
    p->fn = fn;
    p->ctx = ctx;
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    fn(ctx, 0, p->n);
    int spins = 0;
    while (atomic_load_explicit(&p->done, memory_order_acquire) != p->n - 1) {
        if (++spins % SPIN_BEFORE_YIELD == 0)
            sched_yield();
        else
            cpu_relax();
    }
    pthread_mutex_unlock(&p->run_mu);
}

void pii_rt_pool_barrier(pii_rt_pool *p)
{
    if (!p || p->n == 1)
        return;
    unsigned g = atomic_load_explicit(&p->bar_gen, memory_order_acquire);
    if (atomic_fetch_add_explicit(&p->bar_count, 1, memory_order_acq_rel) == (unsigned)p->n - 1) {
        atomic_store_explicit(&p->bar_count, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&p->bar_gen, 1, memory_order_release);
        return;
    }
    int spins = 0;
    while (atomic_load_explicit(&p->bar_gen, memory_order_acquire) == g) {
        if (++spins % SPIN_BEFORE_YIELD == 0)
            sched_yield();
        else
            cpu_relax();
    }
}

void pii_rt_split(size_t total, size_t align, int ith, int nth, size_t *lo, size_t *hi)
{
    if (align == 0)
        align = 1;
    size_t units = (total + align - 1) / align;
    size_t a = units * (size_t)ith / (size_t)nth, b = units * (size_t)(ith + 1) / (size_t)nth;
    *lo = a * align < total ? a * align : total;
    *hi = b * align < total ? b * align : total;
}
