/* kvgen DIR: writes the scan fixtures (clean pages of each layout, planted
 * damage with its expected findings, a 576-byte prefill read as 656, .npy
 * and .safetensors forms, and malformed inputs) into DIR. Deterministic. */
#include "kvgen.h"
#include "format/format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PAGES 4

static const char *dir;

static const char *at(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static kvc_layout layout(const char *name)
{
    kvc_layout l;
    kvc_diag d;
    if (layout_build(name, layout_default_params(), &l, &d) != KVC_OK) {
        fprintf(stderr, "kvgen: %s\n", d.message);
        exit(1);
    }
    return l;
}

static void must(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "kvgen: cannot write %s\n", what);
        exit(1);
    }
}

static void write_expect(const char *name, const kvgen_plant *p, size_t n)
{
    FILE *f = fopen(at(name), "w");
    must(f != NULL, name);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%llu %llu %s %u %s %llu\n", (unsigned long long)p[i].page, (unsigned long long)p[i].slot,
                p[i].field, p[i].element, kvc_check_name(p[i].check), (unsigned long long)p[i].offset);
    must(fclose(f) == 0, name);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: kvgen DIR\n");
        return 2;
    }
    dir = argv[1];
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "kvgen: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    char name[256];
    kvc_layout raw = layout("fp8_raw"), scaled = layout("fp8_flashmla");
    /* the fewest fp8_raw pages that are whole fp8_flashmla pages too: 41 x 36864 = 36 x 41984 */
    const uint64_t both = scaled.page_bytes / gcd(raw.page_bytes, scaled.page_bytes);
    size_t largest = both * raw.page_bytes; /* the largest file below */
    for (unsigned i = 0; kvc_layout_catalogue(i); i++) {
        kvc_layout l = layout(kvc_layout_catalogue(i));
        if (PAGES * l.page_bytes > largest) largest = PAGES * l.page_bytes;
    }
    uint8_t *buf = malloc(largest);
    must(buf != NULL, "memory");
    for (unsigned i = 0; kvc_layout_catalogue(i); i++) {
        kvc_layout l = layout(kvc_layout_catalogue(i));
        size_t bytes = PAGES * l.page_bytes;
        kvgen_pages(&l, PAGES, i + 1, buf);
        snprintf(name, sizeof name, "clean-%s.bin", l.name);
        must(kvgen_write(at(name), buf, bytes) == 0, name);
        kvgen_plant plants[64];
        size_t n = kvgen_plant_damage(&l, buf, PAGES, plants, 64);
        snprintf(name, sizeof name, "planted-%s.bin", l.name);
        must(kvgen_write(at(name), buf, bytes) == 0, name);
        snprintf(name, sizeof name, "planted-%s.expect", l.name);
        write_expect(name, plants, n);
    }

    /* the GLM-5.2 failure: trtllm's 576-byte rows in flashmla_kv's 656-byte buffer */
    kvgen_transfer(&raw, &scaled, PAGES, 7, buf);
    must(kvgen_write(at("fp8_raw-into-fp8_flashmla.bin"), buf, PAGES * scaled.page_bytes) == 0, "transfer");
    kvgen_pages(&raw, both, 8, buf); /* a whole number of pages of both */
    snprintf(name, sizeof name, "fp8_raw-%llu-pages.bin", (unsigned long long)both);
    must(kvgen_write(at(name), buf, both * raw.page_bytes) == 0, "raw");

    /* .npy and .safetensors */
    uint8_t *clean = malloc(PAGES * scaled.page_bytes), *planted = malloc(PAGES * scaled.page_bytes);
    must(clean && planted, "memory");
    kvgen_pages(&scaled, PAGES, 6, clean);
    memcpy(planted, clean, PAGES * scaled.page_bytes);
    kvgen_plant plants[64];
    size_t n = kvgen_plant_damage(&scaled, planted, PAGES, plants, 64);
    write_expect("planted-layer.1.expect", plants, n);
    uint64_t shape[3] = {PAGES, scaled.page_size, scaled.bytes_per_token};
    must(kvgen_write_npy(at("clean-fp8_flashmla.npy"), "|u1", shape, 3, clean, PAGES * scaled.page_bytes) == 0, "npy");
    uint64_t rows[2] = {PAGES * scaled.page_size, scaled.bytes_per_token};
    must(kvgen_write_npy(at("planted-fp8_flashmla-2d.npy"), "|u1", rows, 2, planted, PAGES * scaled.page_bytes) == 0,
         "npy");
    uint64_t raw_rows[2] = {both * raw.page_size, raw.bytes_per_token};
    kvgen_pages(&raw, both, 8, buf);
    snprintf(name, sizeof name, "rows-%u.npy", raw.bytes_per_token);
    must(kvgen_write_npy(at(name), "|u1", raw_rows, 2, buf, both * raw.page_bytes) == 0, "npy");
    kvgen_tensor t[3] = {
        {"model.layers.0.kv", "U8", {PAGES, scaled.page_bytes}, 2, clean, PAGES * scaled.page_bytes},
        {"model.layers.1.kv", "U8", {PAGES, scaled.page_bytes}, 2, planted, PAGES * scaled.page_bytes},
        {"model.layers.2.kv", "U8", {PAGES * scaled.page_bytes}, 1, clean, PAGES * scaled.page_bytes},
    };
    must(kvgen_write_safetensors(at("layers.safetensors"), t, 3) == 0, "safetensors");

    /* malformed inputs, each for one message */
    must(kvgen_write(at("empty.bin"), "", 0) == 0, "empty");
    must(kvgen_write(at("not-whole-pages.bin"), clean, 2 * scaled.page_bytes + 1000) == 0, "size");
    must(kvgen_write(at("truncated.npy"), "\x93NUMPY\x01\x00\x76\x00{'descr'", 18) == 0, "npy");
    const char bad_header[] = "\x93NUMPY\x01\x00\x10\x00{'shape': (3,)} ";
    must(kvgen_write(at("malformed-header.npy"), bad_header, sizeof bad_header - 1) == 0, "npy");
    must(kvgen_write_npy(at("big-endian.npy"), ">u2", rows, 2, clean, PAGES * scaled.page_bytes) == 0, "npy");
    uint64_t too_many[3] = {PAGES + 1, scaled.page_size, scaled.bytes_per_token};
    must(kvgen_write_npy(at("short-data.npy"), "|u1", too_many, 3, clean, PAGES * scaled.page_bytes) == 0, "npy");
    uint8_t st_bad[16] = {0xFF, 0xFF, 0, 0, 0, 0, 0, 0, '{', '}'};
    must(kvgen_write(at("truncated.safetensors"), st_bad, sizeof st_bad) == 0, "safetensors");
    const char st_json[] = "\x10\x00\x00\x00\x00\x00\x00\x00{\"a\": {\"dtype\": ";
    must(kvgen_write(at("malformed-header.safetensors"), st_json, sizeof st_json - 1) == 0, "safetensors");
    /* a header that promises two pages, with one page of data after it */
    char head[128];
    const unsigned long long two = 2 * scaled.page_bytes;
    size_t hl = (size_t)snprintf(head, sizeof head, "{\"kv\":{\"dtype\":\"U8\",\"shape\":[%llu],\"data_offsets\":[0,%llu]}}    ",
                                 two, two);
    uint8_t *beyond = malloc(8 + hl + scaled.page_bytes);
    must(beyond != NULL && hl < sizeof head, "memory");
    for (int i = 0; i < 8; i++) beyond[i] = (uint8_t)((uint64_t)hl >> (8 * i));
    memcpy(beyond + 8, head, hl);
    memcpy(beyond + 8 + hl, clean, scaled.page_bytes);
    must(kvgen_write(at("offsets-beyond.safetensors"), beyond, 8 + hl + scaled.page_bytes) == 0, "safetensors");
    free(beyond);
    /* a shape whose size, 2^64 - 16 bytes (whole 656-byte pages), wraps past 2^64 when the header's 128 bytes
     * are added */
    uint64_t wraps[1] = {UINT64_MAX - 15};
    must(kvgen_write_npy(at("size-wraps.npy"), "|u1", wraps, 1, clean, scaled.page_bytes) == 0, "npy");
    uint64_t overflows[3] = {1ull << 32, 1ull << 32, scaled.bytes_per_token};
    must(kvgen_write_npy(at("shape-overflows.npy"), "|u1", overflows, 3, clean, scaled.page_bytes) == 0, "npy");
    /* tensors that share bytes, offsets that end before they begin, no tensors */
    const struct {
        const char *file;
        unsigned long long a[2], b[2]; /* data_offsets, in pages */
    } shared[] = {{"offsets-overlap.safetensors", {0, 2}, {1, 3}},
                  {"offsets-same.safetensors", {0, 1}, {0, 1}},
                  {"offsets-inside.safetensors", {0, 3}, {1, 2}},
                  {"offsets-reversed.safetensors", {0, 1}, {2, 1}}};
    for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) {
        char json[512];
        const unsigned long long pb = scaled.page_bytes, *a = shared[i].a, *b = shared[i].b;
        snprintf(json, sizeof json,
                 "{\"model.layers.0.kv\":{\"dtype\":\"U8\",\"shape\":[%llu],\"data_offsets\":[%llu,%llu]},"
                 "\"model.layers.1.kv\":{\"dtype\":\"U8\",\"shape\":[%llu],\"data_offsets\":[%llu,%llu]}}",
                 (a[1] - a[0]) * pb, a[0] * pb, a[1] * pb, (b[1] > b[0] ? b[1] - b[0] : 0) * pb, b[0] * pb, b[1] * pb);
        must(kvgen_write_safetensors_header(at(shared[i].file), json, clean, 3 * pb) == 0, shared[i].file);
    }
    must(kvgen_write_safetensors_header(at("no-tensors.safetensors"), "{\"__metadata__\":{\"format\":\"pt\"}}", "", 0) == 0,
         "safetensors");
    free(clean);
    free(planted);
    free(buf);
    return 0;
}
