/* bench/alloc/count.c: counts the calls a process makes to malloc, free, realloc, calloc and posix_memalign, for
 * bench/alloc-count.sh. Loaded with LD_PRELOAD; SIGUSR2 appends the counts so far to the file ALLOC_COUNT_OUT as
 * "malloc free realloc calloc memalign bytes", bytes being what malloc, calloc and posix_memalign were asked for.
 * Counting is a relaxed atomic add per call: cheap enough that the counts, unlike timings, come out the same on a
 * busy machine. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_memalign(size_t, size_t);

static _Atomic unsigned long mallocs, frees, reallocs, callocs, memaligns, bytes;

static void count(_Atomic unsigned long *counter, unsigned long n) {
    atomic_fetch_add_explicit(counter, n, memory_order_relaxed);
}

void *malloc(size_t size) {
    count(&mallocs, 1);
    count(&bytes, size);
    return __libc_malloc(size);
}

void free(void *pointer) {
    if (pointer) count(&frees, 1);
    __libc_free(pointer);
}

void *realloc(void *pointer, size_t size) {
    count(&reallocs, 1);
    return __libc_realloc(pointer, size);
}

void *calloc(size_t n, size_t size) {
    count(&callocs, 1);
    count(&bytes, n * size);
    return __libc_calloc(n, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    count(&memaligns, 1);
    count(&bytes, size);
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return 12; /* ENOMEM */
    *out = pointer;
    return 0;
}

static void report(int signal) {
    (void)signal;
    const char *path = getenv("ALLOC_COUNT_OUT");
    if (!path) return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) return;
    char line[160];
    int n = snprintf(line, sizeof line, "%lu %lu %lu %lu %lu %lu\n", mallocs, frees, reallocs, callocs, memaligns,
                     bytes);
    if (n > 0) (void)write(fd, line, (size_t)n);
    close(fd);
}

__attribute__((constructor)) static void start(void) { signal(SIGUSR2, report); }
