/* Files that shrink while they are read. Reading a page of a mapping that
 * lies past the end of its file (another process truncated or rewrote it)
 * raises SIGBUS, which would kill the process: kvcheck's, or a serving
 * engine's that links the library.
 *
 * Reading every byte with pread instead (short reads, never a signal) would
 * cost a copy of each cached page, most of the in-place scan's speed. So
 * while a scan holds mappings a SIGBUS handler is installed (counted:
 * concurrent scans share one), and code that touches mapped bytes arms a
 * guard of its thread for the mapping's range: a fault inside that range
 * jumps back to the guard, which reports the change. Any other SIGBUS goes
 * to the disposition found at installation; it comes back when the last
 * scan ends, unless someone else replaced the handler meanwhile.
 *
 * The trade-off, for a process that links the library: during a scan the
 * SIGBUS disposition is ours, and a handler that another thread installs
 * meanwhile replaces ours (it is kept when the scan ends; a file that
 * shrinks in that time faults as it would without kvcheck). A thread's
 * guard is found through thread-local storage of the initial-exec model,
 * which is safe to read in a signal handler. */
#define _GNU_SOURCE /* siginfo_t's si_addr, sigaction */
#include "source/source.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned users;            /* installations in effect */
static struct sigaction previous; /* the disposition found, for faults that are not ours */
static _Thread_local map_guard *armed __attribute__((tls_model("initial-exec")));

static void on_sigbus(int sig, siginfo_t *info, void *context)
{
    const uintptr_t at = (uintptr_t)info->si_addr;
    if (info->si_code > 0) /* raised by the kernel for a fault, not sent */
        for (map_guard *g = armed; g; g = g->outer)
            if (at - g->lo < g->len) {
                armed = g->outer;
                siglongjmp(g->jump, 1);
            }
    if (previous.sa_flags & SA_SIGINFO) {
        previous.sa_sigaction(sig, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
    } else if (previous.sa_handler == SIG_DFL || info->si_code > 0) {
        /* the default action; an ignored fault would only repeat */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, NULL);
        raise(sig);
    }
}

kvc_status map_guard_install(kvc_diag *diag)
{
    pthread_mutex_lock(&lock);
    int ok = 1;
    if (users == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        ok = sigaction(SIGBUS, &sa, &previous) == 0;
    }
    users += ok;
    pthread_mutex_unlock(&lock);
    RETURN_ERROR_IF(!ok, diag, KVC_ERR_INTERNAL, NULL, "cannot install the SIGBUS handler that guards mapped files");
    return KVC_OK;
}

void map_guard_uninstall(void)
{
    pthread_mutex_lock(&lock);
    if (users && --users == 0) {
        struct sigaction now;
        if (sigaction(SIGBUS, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_sigbus)
            sigaction(SIGBUS, &previous, NULL);
    }
    pthread_mutex_unlock(&lock);
}

void map_guard_arm(map_guard *g, const void *lo, uint64_t len)
{
    g->lo = (uintptr_t)lo;
    g->len = (uintptr_t)len;
    g->outer = armed;
    atomic_signal_fence(memory_order_seq_cst); /* armed before the bytes are touched, even inlined */
    armed = g;
    atomic_signal_fence(memory_order_seq_cst);
}

void map_guard_disarm(map_guard *g)
{
    atomic_signal_fence(memory_order_seq_cst); /* and disarmed only after */
    if (armed == g) armed = g->outer;
}

kvc_status source_changed(const char *file, int fd, kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, file, 0, 0, "");
    struct stat st;
    if (fstat(fd, &st) != 0)
        return diag_set(diag, KVC_ERR_IO, &o, "%s changed while it was read (its size is unknown now)", file);
    return diag_set(diag, KVC_ERR_IO, &o, "%s changed while it was read (now %llu bytes)", file,
                    (unsigned long long)st.st_size);
}

kvc_status map_copy(void *dst, const uint8_t *src, size_t n, const char *file, int fd, kvc_diag *diag)
{
    map_guard g;
    if (sigsetjmp(g.jump, 1)) return source_changed(file, fd, diag);
    map_guard_arm(&g, src, n);
    memcpy(dst, src, n);
    map_guard_disarm(&g);
    return KVC_OK;
}
