/*
 * vkd3d-against: libvkd3d-shader (Debian: libvkd3d-dev) as the other side of
 * `dxbin fuzz TARGET --against vkd3d` (docs/fuzzing.md, "Differential fuzzing"). All the root
 * signature work is vkd3d's (vkd3d_shader_parse_root_signature, _serialize_root_signature,
 * _convert_root_signature); this file only moves bytes in and answers out.
 *
 * dxbin builds it on first use into a cache folder:
 *     cc -O1 -std=gnu11 $(pkg-config --cflags libvkd3d-shader) vkd3d-against.c $(pkg-config --libs libvkd3d-shader)
 *
 * It speaks the framed protocol of docs/fuzzing.md on stdin/stdout (exec-template.c is the same
 * protocol with the library calls left for you to fill in):
 *     request:  u32 little-endian length, then that many bytes: one command byte, then its data
 *         'h'            hello: the answer names the implementation and its documented choices
 *         'r' CONTAINER  run: parse, serialize what was parsed, convert to 1.0 and to 1.1
 *     answer:   u32 little-endian length, then that many bytes of UTF-8 text, one line per fact
 *
 * Reads past the input fault at once: every input is copied so that it ends where an
 * inaccessible (PROT_NONE) region of 4 GiB + 1 MiB begins. vkd3d 1.2 checks arrays with
 * `(size - offset) / count >= record size` in size_t, which wraps for an offset past the end, and
 * every offset is a u32 counted from inside the blob, so any such read lands in the region. The
 * signal handler says where it faulted and which frames were on the stack (stderr), then the
 * process dies of that signal; dxbin records the input and starts the harness again.
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <stdarg.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <vkd3d_shader.h>

#define MAX_INPUT ((size_t)16 << 20)
#define GUARD (((size_t)4 << 30) + ((size_t)1 << 20))

static unsigned char *arena;   /* MAX_INPUT readable bytes, then GUARD inaccessible ones */
static size_t input_size;

/* ---------------------------------------------------------------- answers */

static char *out;
static size_t out_len, out_cap;

static void put(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void put(const char *fmt, ...)
{
    for (;;)
    {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(out + out_len, out_cap - out_len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < out_cap - out_len)
        {
            out_len += (size_t)n;
            return;
        }
        out_cap = out_cap * 2 + (n > 0 ? (size_t)n : 0) + 256;
        out = realloc(out, out_cap);
        if (!out)
            _exit(3);
    }
}

static void put_float(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof(bits));
    put(" %08x", (unsigned int)bits);
}

static void put_sampler(const struct vkd3d_shader_static_sampler_desc *s)
{
    put(" %u %u %u %u", s->filter, s->address_u, s->address_v, s->address_w);
    put_float(s->mip_lod_bias);
    put(" %u %u %u", s->max_anisotropy, s->comparison_func, s->border_colour);
    put_float(s->min_lod);
    put_float(s->max_lod);
    put(" %u %u %u", s->shader_register, s->register_space, s->shader_visibility);
}

/* DESC (docs/fuzzing.md): version flags count PARAMETER... count SAMPLER... */
static void put_desc(const struct vkd3d_shader_versioned_root_signature_desc *v)
{
    put("%u", v->version == VKD3D_SHADER_ROOT_SIGNATURE_VERSION_1_0 ? 1u : 2u);
    if (v->version == VKD3D_SHADER_ROOT_SIGNATURE_VERSION_1_0)
    {
        const struct vkd3d_shader_root_signature_desc *d = &v->u.v_1_0;
        put(" %u %u", d->flags, d->parameter_count);
        for (unsigned int i = 0; i < d->parameter_count; ++i)
        {
            const struct vkd3d_shader_root_parameter *p = &d->parameters[i];
            put(" %u %u", p->parameter_type, p->shader_visibility);
            if (p->parameter_type == VKD3D_SHADER_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            {
                put(" %u", p->u.descriptor_table.descriptor_range_count);
                for (unsigned int j = 0; j < p->u.descriptor_table.descriptor_range_count; ++j)
                {
                    const struct vkd3d_shader_descriptor_range *r = &p->u.descriptor_table.descriptor_ranges[j];
                    put(" %u %u %u %u 0 %u", r->range_type, r->descriptor_count, r->base_shader_register, r->register_space, r->descriptor_table_offset);
                }
            }
            else if (p->parameter_type == VKD3D_SHADER_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
                put(" %u %u %u", p->u.constants.shader_register, p->u.constants.register_space, p->u.constants.value_count);
            else
                put(" %u %u 0", p->u.descriptor.shader_register, p->u.descriptor.register_space);
        }
        put(" %u", d->static_sampler_count);
        for (unsigned int i = 0; i < d->static_sampler_count; ++i)
            put_sampler(&d->static_samplers[i]);
    }
    else
    {
        const struct vkd3d_shader_root_signature_desc1 *d = &v->u.v_1_1;
        put(" %u %u", d->flags, d->parameter_count);
        for (unsigned int i = 0; i < d->parameter_count; ++i)
        {
            const struct vkd3d_shader_root_parameter1 *p = &d->parameters[i];
            put(" %u %u", p->parameter_type, p->shader_visibility);
            if (p->parameter_type == VKD3D_SHADER_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            {
                put(" %u", p->u.descriptor_table.descriptor_range_count);
                for (unsigned int j = 0; j < p->u.descriptor_table.descriptor_range_count; ++j)
                {
                    const struct vkd3d_shader_descriptor_range1 *r = &p->u.descriptor_table.descriptor_ranges[j];
                    put(" %u %u %u %u %u %u", r->range_type, r->descriptor_count, r->base_shader_register, r->register_space, r->flags, r->descriptor_table_offset);
                }
            }
            else if (p->parameter_type == VKD3D_SHADER_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
                put(" %u %u %u", p->u.constants.shader_register, p->u.constants.register_space, p->u.constants.value_count);
            else
                put(" %u %u %u", p->u.descriptor.shader_register, p->u.descriptor.register_space, p->u.descriptor.flags);
        }
        put(" %u", d->static_sampler_count);
        for (unsigned int i = 0; i < d->static_sampler_count; ++i)
            put_sampler(&d->static_samplers[i]);
    }
}

static void put_error(const char *what, int rc, char *messages)
{
    put("%s error %d", what, rc);
    if (messages)
    {
        put(" ");
        for (char *c = messages; *c; ++c)
            put("%c", *c == '\n' || *c == '\r' ? ' ' : *c);
        vkd3d_shader_free_messages(messages);
    }
    put("\n");
}

/* ---------------------------------------------------------------- the calls */

static void run(void)
{
    struct vkd3d_shader_code code = {arena + MAX_INPUT - input_size, input_size};
    struct vkd3d_shader_versioned_root_signature_desc desc;
    char *messages = NULL;
    memset(&desc, 0, sizeof(desc));
    int rc = vkd3d_shader_parse_root_signature(&code, &desc, &messages);
    if (rc < 0)
    {
        put_error("parse", rc, messages);
        return;
    }
    vkd3d_shader_free_messages(messages);
    if (desc.version == 0)
    {
        /* success with an empty description: vkd3d found no RTS0 part */
        put("parse error no-rts0\n");
        return;
    }
    put("parse ok ");
    put_desc(&desc);
    put("\n");

    struct vkd3d_shader_code dxbc = {0};
    messages = NULL;
    rc = vkd3d_shader_serialize_root_signature(&desc, &dxbc, &messages);
    if (rc < 0)
        put_error("serialize", rc, messages);
    else
    {
        vkd3d_shader_free_messages(messages);
        put("serialize ok ");
        for (size_t i = 0; i < dxbc.size; ++i)
            put("%02x", ((const unsigned char *)dxbc.code)[i]);
        put("\n");
        vkd3d_shader_free_shader_code(&dxbc);
    }

    static const struct { const char *name; enum vkd3d_shader_root_signature_version version; } targets[] =
    {
        {"convert 1.0", VKD3D_SHADER_ROOT_SIGNATURE_VERSION_1_0},
        {"convert 1.1", VKD3D_SHADER_ROOT_SIGNATURE_VERSION_1_1},
    };
    for (unsigned int t = 0; t < 2; ++t)
    {
        struct vkd3d_shader_versioned_root_signature_desc converted;
        memset(&converted, 0, sizeof(converted));
        rc = vkd3d_shader_convert_root_signature(&converted, targets[t].version, &desc);
        if (rc < 0)
            put_error(targets[t].name, rc, NULL);
        else
        {
            put("%s ok ", targets[t].name);
            put_desc(&converted);
            put("\n");
            vkd3d_shader_free_root_signature(&converted);
        }
    }
    vkd3d_shader_free_root_signature(&desc);
}

/* ---------------------------------------------------------------- crashes */

static void say(const char *s)
{
    ssize_t ignored = write(2, s, strlen(s));
    (void)ignored;
}

static void say_hex(const char *prefix, size_t v)
{
    char buf[64], *p = buf + sizeof(buf);
    *--p = 0;
    do
    {
        *--p = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    say(prefix);
    say("0x");
    say(p);
}

static void on_fatal(int sig, siginfo_t *info, void *context)
{
    (void)context;
    const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGABRT ? "SIGABRT" : sig == SIGFPE ? "SIGFPE" : "SIGILL";
    say("\ndxbin-crash ");
    say(name);
    uintptr_t at = (uintptr_t)info->si_addr, end = (uintptr_t)(arena + MAX_INPUT);
    if ((sig == SIGSEGV || sig == SIGBUS) && at >= end && at < end + GUARD)
        say_hex(" read-past-end ", at - end);
    else if (sig == SIGSEGV || sig == SIGBUS)
        say_hex(at < 4096 ? " null " : " address ", at);
    say("\n");
    void *frames[48];
    int n = backtrace(frames, 48);
    backtrace_symbols_fd(frames, n, 2);
    say("dxbin-crash-end\n");
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    static char stack[1 << 16];
    stack_t ss = {.ss_sp = stack, .ss_size = sizeof(stack)};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    int signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
    for (unsigned int i = 0; i < sizeof(signals) / sizeof(signals[0]); ++i)
        sigaction(signals[i], &sa, NULL);
    void *warm[2];
    backtrace(warm, 2); /* loads the unwinder now, not inside the handler */
}

/* ---------------------------------------------------------------- frames */

static int read_all(void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n)
    {
        ssize_t r = read(0, p, n);
        if (r <= 0)
            return 0;
        p += r;
        n -= (size_t)r;
    }
    return 1;
}

static void send_answer(void)
{
    unsigned char len[4] = {out_len & 255, (out_len >> 8) & 255, (out_len >> 16) & 255, (out_len >> 24) & 255};
    fwrite(len, 1, 4, stdout);
    fwrite(out, 1, out_len, stdout);
    fflush(stdout);
}

int main(void)
{
    setenv("VKD3D_SHADER_DEBUG", "none", 0);
    arena = mmap(NULL, MAX_INPUT + GUARD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (arena == MAP_FAILED || mprotect(arena, MAX_INPUT, PROT_READ | PROT_WRITE))
    {
        fprintf(stderr, "vkd3d-against: cannot reserve %zu bytes\n", MAX_INPUT + GUARD);
        return 2;
    }
    /* a failed allocation stays a failed allocation (vkd3d's answer to it is what is tested), not swapping */
    const char *limit = getenv("DXBIN_AGAINST_MEMORY_MIB");
    struct rlimit as = {0};
    size_t extra = ((size_t)(limit ? strtoul(limit, NULL, 10) : 1024)) << 20;
    as.rlim_cur = as.rlim_max = MAX_INPUT + GUARD + extra + ((size_t)256 << 20);
    setrlimit(RLIMIT_AS, &as);
    install_handlers();
    out_cap = 1 << 16;
    out = malloc(out_cap);

    unsigned char len[4];
    while (read_all(len, 4))
    {
        size_t n = (size_t)len[0] | (size_t)len[1] << 8 | (size_t)len[2] << 16 | (size_t)len[3] << 24;
        out_len = 0;
        if (n == 0 || n - 1 > MAX_INPUT)
        {
            /* an unreadable request: skip its bytes, answer, go on */
            for (unsigned char sink[4096]; n;)
            {
                size_t k = n < sizeof(sink) ? n : sizeof(sink);
                if (!read_all(sink, k))
                    return 0;
                n -= k;
            }
            put("usage request of no command or over %zu bytes\n", MAX_INPUT);
            send_answer();
            continue;
        }
        unsigned char command;
        if (!read_all(&command, 1))
            return 0;
        input_size = n - 1;
        if (!read_all(arena + MAX_INPUT - input_size, input_size))
            return 0;
        if (command == 'h')
        {
            unsigned int major = 0, minor = 0;
            vkd3d_shader_get_version(&major, &minor);
            put("name vkd3d-shader %u.%u\n", major, minor);
            put("semantics vkd3d\n");
            put("versions 1.0 1.1\n");
            put("known every-rts0-part\nknown no-version-1.2\nknown container-version-word\nknown empty-array-offset\nknown digest-checked\nknown lenient-layout\nknown serializer-validates\n");
        }
        else if (command == 'r')
            run();
        else
            put("usage unknown command %u\n", command);
        send_answer();
    }
    return 0;
}
