/*
 * vkd3d-scan: the differential partner of test/vkd3d-scan.test.ts. libvkd3d-shader (Debian:
 * libvkd3d-dev) reads a DXBC shader and lists its descriptors through vkd3d_shader_scan with a
 * chained vkd3d_shader_scan_descriptor_info; this file only moves bytes in and numbers out.
 *
 * Built by test/helpers/vkd3d-scan.ts into a temporary folder:
 *     cc -O1 $(pkg-config --cflags libvkd3d-shader) vkd3d-scan.c $(pkg-config --libs libvkd3d-shader)
 *
 * Protocol: one request per line on stdin, one answer line per request on stdout.
 *     version      -> ok MAJOR.MINOR
 *     scan HEX     -> ok N (TYPE SPACE INDEX COUNT RESOURCE_TYPE FLAGS)...   descriptors in vkd3d's order
 * A refusal answers "error CODE". COUNT is vkd3d's (0xffffffff for unbounded arrays).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vkd3d_shader.h>

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

static void scan(const char *hex)
{
    size_t length = strlen(hex);
    if (length % 2)
    {
        printf("error odd-hex\n");
        return;
    }
    unsigned char *bytes = malloc(length / 2 + 1);
    for (size_t i = 0; i < length / 2; ++i)
    {
        int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
        {
            free(bytes);
            printf("error bad-hex\n");
            return;
        }
        bytes[i] = (unsigned char)(hi << 4 | lo);
    }

    struct vkd3d_shader_scan_descriptor_info descriptors = {0};
    descriptors.type = VKD3D_SHADER_STRUCTURE_TYPE_SCAN_DESCRIPTOR_INFO;
    struct vkd3d_shader_compile_info info = {0};
    info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info.next = &descriptors;
    info.source.code = bytes;
    info.source.size = length / 2;
    info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
    info.log_level = VKD3D_SHADER_LOG_NONE;

    char *messages = NULL;
    int rc = vkd3d_shader_scan(&info, &messages);
    vkd3d_shader_free_messages(messages);
    if (rc < 0)
    {
        printf("error %d\n", rc);
    }
    else
    {
        printf("ok %u", descriptors.descriptor_count);
        for (unsigned int i = 0; i < descriptors.descriptor_count; ++i)
        {
            const struct vkd3d_shader_descriptor_info *d = &descriptors.descriptors[i];
            printf(" %u %u %u %u %u %u", (unsigned int)d->type, d->register_space, d->register_index, d->count,
                    (unsigned int)d->resource_type, d->flags);
        }
        printf("\n");
        vkd3d_shader_free_scan_descriptor_info(&descriptors);
    }
    free(bytes);
}

int main(void)
{
    static char line[1 << 24];
    while (fgets(line, sizeof(line), stdin))
    {
        line[strcspn(line, "\r\n")] = 0;
        if (!strcmp(line, "version"))
        {
            unsigned int major, minor;
            vkd3d_shader_get_version(&major, &minor);
            printf("ok %u.%u\n", major, minor);
        }
        else if (!strncmp(line, "scan ", 5))
            scan(line + 5);
        else
            printf("error unknown-request\n");
        fflush(stdout);
    }
    return 0;
}
