/*
 * host_threads.h - timing helpers for the host tests that run library
 * calls in threads of their own on the stubbed CUDA runtime (cuda_stub.h):
 * sleep, wait for a semaphore with a limit, a monotonic clock, a call in a
 * thread of its own.
 */
#ifndef GS_TEST_HOST_THREADS_H
#define GS_TEST_HOST_THREADS_H

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <time.h>

static inline void sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static inline double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* sem_wait for at most `ms`: 1 when posted. */
static inline int wait_ms(sem_t *sem, int ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec += 1;
        until.tv_nsec -= 1000000000L;
    }
    while (sem_timedwait(sem, &until) != 0)
        if (errno != EINTR)
            return 0;
    return 1;
}

/* A function run in a thread of its own, whose end the test waits for
 * with a limit. */
typedef struct host_call {
    void (*run)(void *);
    void *arg;
    sem_t done;
    pthread_t thread;
    int joined;
} host_call;

static inline void *host_call_main(void *arg)
{
    host_call *c = (host_call *)arg;
    c->run(c->arg);
    sem_post(&c->done);
    return NULL;
}

static inline void host_call_start(host_call *c, void (*run)(void *), void *arg)
{
    c->run = run;
    c->arg = arg;
    c->joined = 0;
    sem_init(&c->done, 0, 0);
    if (pthread_create(&c->thread, NULL, host_call_main, c) != 0)
        abort();
}

/* Whether it has returned within `ms` (then its thread is joined). */
static inline int host_call_done(host_call *c, int ms)
{
    if (!c->joined && wait_ms(&c->done, ms)) {
        pthread_join(c->thread, NULL);
        c->joined = 1;
    }
    return c->joined;
}

#endif /* GS_TEST_HOST_THREADS_H */
