/*
 * exec-template: a starting point for `dxbin fuzz TARGET --against exec:./your-program`
 * (docs/fuzzing.md, "The framed protocol"). Build it as it is and it runs: it answers hello and
 * refuses every input. Replace answer() with calls into your implementation (a driver's root
 * signature parser, an engine's loader, DXC's deserializer) and print its answers in the lines
 * described there. Keep the framing, the guard region and the crash handler: they make a read past
 * the input fault at once and tell dxbin where.
 *
 *     cc -O1 -g -std=gnu11 -o your-program exec-template.c
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_INPUT ((size_t)16 << 20)
#define GUARD (((size_t)4 << 30) + ((size_t)1 << 20))

static unsigned char *arena; /* MAX_INPUT readable bytes, then GUARD inaccessible ones */
static char out[1 << 20];
static size_t out_len;

static void put(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out + out_len, sizeof(out) - out_len, fmt, ap);
    va_end(ap);
    if (n > 0)
        out_len += (size_t)n < sizeof(out) - out_len ? (size_t)n : sizeof(out) - out_len - 1;
}

/*
 * One input: a DXBC container (for the rts0 target, the bare part wrapped in a one-part container
 * with a correct digest), `size` bytes ending exactly where the guard region begins.
 * Print, one per line:
 *     parse ok DESC            or   parse error CODE [message]
 *     serialize ok HEX         or   serialize error CODE [message]     (optional: the container you write for DESC)
 *     convert 1.0 ok DESC      or   convert 1.0 error CODE             (optional, one line per version you convert to)
 * DESC: version flags parameter_count PARAMETER... sampler_count SAMPLER... (docs/fuzzing.md).
 */
static void answer(const unsigned char *data, size_t size)
{
    (void)data;
    put("parse error -4 exec-template: answer() is not filled in (%zu bytes)\n", size);
}

static void hello(void)
{
    put("name exec-template 0\n");
    put("semantics runtime\n");   /* the conversion rules you follow: runtime or vkd3d */
    put("versions 1.0 1.1 1.2\n"); /* the versions you parse and convert to */
    /* "known NAME" lines: the documented choices of docs/decisions.md your implementation makes */
}

static void say(const char *s)
{
    ssize_t ignored = write(2, s, strlen(s));
    (void)ignored;
}

static void on_fatal(int sig, siginfo_t *info, void *context)
{
    (void)context;
    uintptr_t at = (uintptr_t)info->si_addr, end = (uintptr_t)(arena + MAX_INPUT);
    char line[96];
    const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGABRT ? "SIGABRT" : sig == SIGFPE ? "SIGFPE" : "SIGILL";
    if ((sig == SIGSEGV || sig == SIGBUS) && at >= end && at < end + GUARD)
        snprintf(line, sizeof(line), "\ndxbin-crash %s read-past-end 0x%zx\n", name, (size_t)(at - end));
    else if (sig == SIGSEGV || sig == SIGBUS)
        snprintf(line, sizeof(line), "\ndxbin-crash %s %s 0x%zx\n", name, at < 4096 ? "null" : "address", (size_t)at);
    else
        snprintf(line, sizeof(line), "\ndxbin-crash %s\n", name);
    say(line); /* snprintf is not async-signal-safe in theory; glibc's is fine for this */
    void *frames[48];
    backtrace_symbols_fd(frames, backtrace(frames, 48), 2);
    say("dxbin-crash-end\n");
    signal(sig, SIG_DFL);
    raise(sig);
}

static int read_all(void *buf, size_t n)
{
    for (unsigned char *p = buf; n;)
    {
        ssize_t r = read(0, p, n);
        if (r <= 0)
            return 0;
        p += r;
        n -= (size_t)r;
    }
    return 1;
}

int main(void)
{
    arena = mmap(NULL, MAX_INPUT + GUARD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (arena == MAP_FAILED || mprotect(arena, MAX_INPUT, PROT_READ | PROT_WRITE))
        return 2;
    static char stack[1 << 16];
    stack_t ss = {.ss_sp = stack, .ss_size = sizeof(stack)};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    int signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
    for (unsigned int i = 0; i < 5; ++i)
        sigaction(signals[i], &sa, NULL);
    void *warm[2];
    backtrace(warm, 2);

    unsigned char len[4];
    while (read_all(len, 4))
    {
        size_t n = (size_t)len[0] | (size_t)len[1] << 8 | (size_t)len[2] << 16 | (size_t)len[3] << 24;
        unsigned char command = 0;
        out_len = 0;
        if (n == 0 || n - 1 > MAX_INPUT || !read_all(&command, 1))
            return 1;
        size_t size = n - 1;
        unsigned char *data = arena + MAX_INPUT - size;
        if (!read_all(data, size))
            return 1;
        if (command == 'h')
            hello();
        else
            answer(data, size);
        unsigned char head[4] = {out_len & 255, (out_len >> 8) & 255, (out_len >> 16) & 255, (out_len >> 24) & 255};
        fwrite(head, 1, 4, stdout);
        fwrite(out, 1, out_len, stdout);
        fflush(stdout);
    }
    return 0;
}
