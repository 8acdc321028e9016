/*
 * vkd3d-harness: the differential partner of test/vkd3d.test.ts. Every byte of root-signature
 * work here is done by libvkd3d-shader (Debian: libvkd3d-dev), a decoder and encoder that nobody
 * on this project wrote; this file only moves descriptions in and out of it.
 *
 * Built by test/helpers/vkd3d.ts into a temporary folder:
 *     cc -O1 $(pkg-config --cflags libvkd3d-shader) vkd3d-harness.c $(pkg-config --libs libvkd3d-shader)
 *
 * Protocol: one request per line on stdin, one answer line per request on stdout.
 *     version                      -> ok MAJOR.MINOR
 *     serialize DESC               -> ok HEX      (the container vkd3d_shader_serialize_root_signature writes)
 *     parse HEX                    -> ok DESC     (vkd3d_shader_parse_root_signature of a DXBC container)
 *     convert 1.0|1.1 HEX          -> ok DESC     (parse, then vkd3d_shader_convert_root_signature)
 * A refusal answers "error CODE MESSAGES" (vkd3d's return code and its messages on one line).
 *
 * DESC is a root signature as space-separated numbers in a fixed order (test/helpers/vkd3d.ts
 * writes and reads it); u32 fields in decimal, floats as the 8 hex digits of their bits, so
 * every value, NaN payloads included, crosses unchanged:
 *     version flags parameter_count PARAMETER... sampler_count SAMPLER...
 *     PARAMETER: type visibility then
 *         type 0 (table):      range_count (range_type count base space flags offset)...
 *         type 1 (constants):  register space value_count
 *         type 2, 3, 4:        register space flags
 *     SAMPLER: filter address_u address_v address_w mip_lod_bias max_anisotropy comparison_func
 *              border_colour min_lod max_lod register space visibility
 * Range and root-descriptor flags are read and written as 0 at version 1 (1.0 has none).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vkd3d_shader.h>

static char *cursor; /* the rest of the request line */
static int bad;      /* set when the request cannot be read */

static char *next_token(void)
{
    while (*cursor == ' ')
        ++cursor;
    if (!*cursor)
    {
        bad = 1;
        return NULL;
    }
    char *start = cursor;
    while (*cursor && *cursor != ' ')
        ++cursor;
    if (*cursor)
        *cursor++ = 0;
    return start;
}

static unsigned int read_u32(void)
{
    char *t = next_token(), *end;
    if (!t)
        return 0;
    errno = 0;
    unsigned long v = strtoul(t, &end, 10);
    if (*end || errno || v > 0xffffffffu)
        bad = 1;
    return (unsigned int)v;
}

static float read_float_bits(void)
{
    char *t = next_token(), *end;
    float f = 0.0f;
    if (!t)
        return f;
    unsigned long v = strtoul(t, &end, 16);
    if (*end || strlen(t) != 8)
        bad = 1;
    uint32_t bits = (uint32_t)v;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static void *alloc_array(unsigned int count, size_t size)
{
    if (count > 100000)
    {
        bad = 1;
        return NULL;
    }
    return calloc(count ? count : 1, size);
}

static void read_sampler(struct vkd3d_shader_static_sampler_desc *s)
{
    s->filter = read_u32();
    s->address_u = read_u32();
    s->address_v = read_u32();
    s->address_w = read_u32();
    s->mip_lod_bias = read_float_bits();
    s->max_anisotropy = read_u32();
    s->comparison_func = read_u32();
    s->border_colour = read_u32();
    s->min_lod = read_float_bits();
    s->max_lod = read_float_bits();
    s->shader_register = read_u32();
    s->register_space = read_u32();
    s->shader_visibility = read_u32();
}

/* Reads DESC into a 1.1 description (a 1.0 one is carried in it and copied out by the caller). */
static void read_desc(struct vkd3d_shader_versioned_root_signature_desc *out)
{
    unsigned int version = read_u32();
    struct vkd3d_shader_root_signature_desc1 *d = &out->u.v_1_1;
    d->flags = read_u32();
    d->parameter_count = read_u32();
    struct vkd3d_shader_root_parameter1 *params = alloc_array(d->parameter_count, sizeof(*params));
    d->parameters = params;
    for (unsigned int i = 0; params && !bad && i < d->parameter_count; ++i)
    {
        struct vkd3d_shader_root_parameter1 *p = &params[i];
        p->parameter_type = read_u32();
        p->shader_visibility = read_u32();
        if (p->parameter_type == VKD3D_SHADER_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
        {
            unsigned int n = read_u32();
            struct vkd3d_shader_descriptor_range1 *ranges = alloc_array(n, sizeof(*ranges));
            p->u.descriptor_table.descriptor_range_count = n;
            p->u.descriptor_table.descriptor_ranges = ranges;
            for (unsigned int j = 0; ranges && !bad && j < n; ++j)
            {
                ranges[j].range_type = read_u32();
                ranges[j].descriptor_count = read_u32();
                ranges[j].base_shader_register = read_u32();
                ranges[j].register_space = read_u32();
                ranges[j].flags = read_u32();
                ranges[j].descriptor_table_offset = read_u32();
            }
        }
        else if (p->parameter_type == VKD3D_SHADER_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
        {
            p->u.constants.shader_register = read_u32();
            p->u.constants.register_space = read_u32();
            p->u.constants.value_count = read_u32();
        }
        else
        {
            p->u.descriptor.shader_register = read_u32();
            p->u.descriptor.register_space = read_u32();
            p->u.descriptor.flags = read_u32();
        }
    }
    d->static_sampler_count = read_u32();
    struct vkd3d_shader_static_sampler_desc *samplers = alloc_array(d->static_sampler_count, sizeof(*samplers));
    d->static_samplers = samplers;
    for (unsigned int i = 0; samplers && !bad && i < d->static_sampler_count; ++i)
        read_sampler(&samplers[i]);
    out->version = version;
}

/* The 1.0 form of a description read by read_desc (flags dropped). */
static void to_v10(const struct vkd3d_shader_root_signature_desc1 *d, struct vkd3d_shader_root_signature_desc *o)
{
    struct vkd3d_shader_root_parameter *params = alloc_array(d->parameter_count, sizeof(*params));
    o->parameter_count = d->parameter_count;
    o->parameters = params;
    o->static_sampler_count = d->static_sampler_count;
    o->static_samplers = d->static_samplers;
    o->flags = d->flags;
    for (unsigned int i = 0; params && i < d->parameter_count; ++i)
    {
        const struct vkd3d_shader_root_parameter1 *p = &d->parameters[i];
        params[i].parameter_type = p->parameter_type;
        params[i].shader_visibility = p->shader_visibility;
        if (p->parameter_type == VKD3D_SHADER_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
        {
            unsigned int n = p->u.descriptor_table.descriptor_range_count;
            struct vkd3d_shader_descriptor_range *ranges = alloc_array(n, sizeof(*ranges));
            params[i].u.descriptor_table.descriptor_range_count = n;
            params[i].u.descriptor_table.descriptor_ranges = ranges;
            for (unsigned int j = 0; ranges && j < n; ++j)
            {
                const struct vkd3d_shader_descriptor_range1 *r = &p->u.descriptor_table.descriptor_ranges[j];
                ranges[j].range_type = r->range_type;
                ranges[j].descriptor_count = r->descriptor_count;
                ranges[j].base_shader_register = r->base_shader_register;
                ranges[j].register_space = r->register_space;
                ranges[j].descriptor_table_offset = r->descriptor_table_offset;
            }
        }
        else if (p->parameter_type == VKD3D_SHADER_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
            params[i].u.constants = p->u.constants;
        else
        {
            params[i].u.descriptor.shader_register = p->u.descriptor.shader_register;
            params[i].u.descriptor.register_space = p->u.descriptor.register_space;
        }
    }
}

static void put_float(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof(bits));
    printf(" %08x", (unsigned int)bits);
}

static void print_sampler(const struct vkd3d_shader_static_sampler_desc *s)
{
    printf(" %u %u %u %u", s->filter, s->address_u, s->address_v, s->address_w);
    put_float(s->mip_lod_bias);
    printf(" %u %u %u", s->max_anisotropy, s->comparison_func, s->border_colour);
    put_float(s->min_lod);
    put_float(s->max_lod);
    printf(" %u %u %u", s->shader_register, s->register_space, s->shader_visibility);
}

static void print_desc(const struct vkd3d_shader_versioned_root_signature_desc *v)
{
    printf("ok %u", v->version);
    if (v->version == VKD3D_SHADER_ROOT_SIGNATURE_VERSION_1_0)
    {
        const struct vkd3d_shader_root_signature_desc *d = &v->u.v_1_0;
        printf(" %u %u", d->flags, d->parameter_count);
        for (unsigned int i = 0; i < d->parameter_count; ++i)
        {
            const struct vkd3d_shader_root_parameter *p = &d->parameters[i];
            printf(" %u %u", p->parameter_type, p->shader_visibility);
            if (p->parameter_type == VKD3D_SHADER_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            {
                printf(" %u", p->u.descriptor_table.descriptor_range_count);
                for (unsigned int j = 0; j < p->u.descriptor_table.descriptor_range_count; ++j)
                {
                    const struct vkd3d_shader_descriptor_range *r = &p->u.descriptor_table.descriptor_ranges[j];
                    printf(" %u %u %u %u 0 %u", r->range_type, r->descriptor_count, r->base_shader_register, r->register_space, r->descriptor_table_offset);
                }
            }
            else if (p->parameter_type == VKD3D_SHADER_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
                printf(" %u %u %u", p->u.constants.shader_register, p->u.constants.register_space, p->u.constants.value_count);
            else
                printf(" %u %u 0", p->u.descriptor.shader_register, p->u.descriptor.register_space);
        }
        printf(" %u", d->static_sampler_count);
        for (unsigned int i = 0; i < d->static_sampler_count; ++i)
            print_sampler(&d->static_samplers[i]);
    }
    else
    {
        const struct vkd3d_shader_root_signature_desc1 *d = &v->u.v_1_1;
        printf(" %u %u", d->flags, d->parameter_count);
        for (unsigned int i = 0; i < d->parameter_count; ++i)
        {
            const struct vkd3d_shader_root_parameter1 *p = &d->parameters[i];
            printf(" %u %u", p->parameter_type, p->shader_visibility);
            if (p->parameter_type == VKD3D_SHADER_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            {
                printf(" %u", p->u.descriptor_table.descriptor_range_count);
                for (unsigned int j = 0; j < p->u.descriptor_table.descriptor_range_count; ++j)
                {
                    const struct vkd3d_shader_descriptor_range1 *r = &p->u.descriptor_table.descriptor_ranges[j];
                    printf(" %u %u %u %u %u %u", r->range_type, r->descriptor_count, r->base_shader_register, r->register_space, r->flags, r->descriptor_table_offset);
                }
            }
            else if (p->parameter_type == VKD3D_SHADER_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
                printf(" %u %u %u", p->u.constants.shader_register, p->u.constants.register_space, p->u.constants.value_count);
            else
                printf(" %u %u %u", p->u.descriptor.shader_register, p->u.descriptor.register_space, p->u.descriptor.flags);
        }
        printf(" %u", d->static_sampler_count);
        for (unsigned int i = 0; i < d->static_sampler_count; ++i)
            print_sampler(&d->static_samplers[i]);
    }
    printf("\n");
}

/* "error CODE MESSAGES" on one line. */
static void print_error(int code, char *messages)
{
    printf("error %d", code);
    if (messages)
    {
        putchar(' ');
        for (char *c = messages; *c; ++c)
            putchar(*c == '\n' || *c == '\r' ? ' ' : *c);
        vkd3d_shader_free_messages(messages);
    }
    printf("\n");
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The bytes of a HEX token; NULL (and bad set) when it is not hex. */
static unsigned char *read_hex(size_t *size)
{
    char *t = next_token();
    if (!t)
        return NULL;
    size_t n = strlen(t);
    unsigned char *bytes = malloc(n / 2 + 1);
    if (n % 2)
        bad = 1;
    for (size_t i = 0; !bad && i < n / 2; ++i)
    {
        int hi = hex_value(t[2 * i]), lo = hex_value(t[2 * i + 1]);
        if (hi < 0 || lo < 0)
            bad = 1;
        bytes[i] = (unsigned char)(hi * 16 + lo);
    }
    *size = n / 2;
    return bytes;
}

static void handle(char *line)
{
    cursor = line;
    bad = 0;
    char *command = next_token();
    if (!command)
    {
        printf("error usage empty request\n");
        return;
    }
    if (!strcmp(command, "version"))
    {
        unsigned int major = 0, minor = 0;
        vkd3d_shader_get_version(&major, &minor);
        printf("ok %u.%u\n", major, minor);
    }
    else if (!strcmp(command, "serialize"))
    {
        struct vkd3d_shader_versioned_root_signature_desc desc, v10;
        memset(&desc, 0, sizeof(desc));
        read_desc(&desc);
        if (bad || *cursor)
        {
            printf("error usage unreadable description\n");
            return;
        }
        const struct vkd3d_shader_versioned_root_signature_desc *use = &desc;
        if (desc.version == VKD3D_SHADER_ROOT_SIGNATURE_VERSION_1_0)
        {
            memset(&v10, 0, sizeof(v10));
            v10.version = VKD3D_SHADER_ROOT_SIGNATURE_VERSION_1_0;
            to_v10(&desc.u.v_1_1, &v10.u.v_1_0);
            use = &v10;
        }
        struct vkd3d_shader_code dxbc = {0};
        char *messages = NULL;
        int rc = vkd3d_shader_serialize_root_signature(use, &dxbc, &messages);
        if (rc < 0)
        {
            print_error(rc, messages);
            return;
        }
        vkd3d_shader_free_messages(messages);
        printf("ok ");
        for (size_t i = 0; i < dxbc.size; ++i)
            printf("%02x", ((const unsigned char *)dxbc.code)[i]);
        printf("\n");
        vkd3d_shader_free_shader_code(&dxbc);
        /* the description's arrays are left to the process exit: a harness run is short */
    }
    else if (!strcmp(command, "parse") || !strcmp(command, "convert"))
    {
        enum vkd3d_shader_root_signature_version to = 0;
        if (!strcmp(command, "convert"))
        {
            char *v = next_token();
            to = v && !strcmp(v, "1.0") ? VKD3D_SHADER_ROOT_SIGNATURE_VERSION_1_0
                : v && !strcmp(v, "1.1") ? VKD3D_SHADER_ROOT_SIGNATURE_VERSION_1_1 : 0;
            if (!to)
                bad = 1;
        }
        size_t size = 0;
        unsigned char *bytes = read_hex(&size);
        if (bad || *cursor)
        {
            free(bytes);
            printf("error usage unreadable request\n");
            return;
        }
        struct vkd3d_shader_code code = {bytes, size};
        struct vkd3d_shader_versioned_root_signature_desc desc, converted;
        memset(&desc, 0, sizeof(desc));
        char *messages = NULL;
        int rc = vkd3d_shader_parse_root_signature(&code, &desc, &messages);
        free(bytes);
        if (rc < 0)
        {
            print_error(rc, messages);
            return;
        }
        vkd3d_shader_free_messages(messages);
        if (desc.version == 0)
        {
            /* vkd3d answers success with an empty description when there is no RTS0 part */
            printf("error no-rts0 vkd3d found no root signature in the container\n");
            return;
        }
        if (to)
        {
            memset(&converted, 0, sizeof(converted));
            rc = vkd3d_shader_convert_root_signature(&converted, to, &desc);
            vkd3d_shader_free_root_signature(&desc);
            if (rc < 0)
            {
                print_error(rc, NULL);
                return;
            }
            print_desc(&converted);
            vkd3d_shader_free_root_signature(&converted);
        }
        else
        {
            print_desc(&desc);
            vkd3d_shader_free_root_signature(&desc);
        }
    }
    else
        printf("error usage unknown request %s\n", command);
}

int main(void)
{
    size_t capacity = 0;
    char *line = NULL;
    ssize_t n;
    while ((n = getline(&line, &capacity, stdin)) >= 0)
    {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = 0;
        handle(line);
        fflush(stdout);
    }
    free(line);
    return 0;
}
