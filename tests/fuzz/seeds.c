/* fuzz_seeds DIR: writes the binary seed corpora (DIR/npy, DIR/safetensors,
 * DIR/detect) with the page generator: clean and damaged pages of every
 * catalogue layout at small dimensions, in each file form, each file behind
 * the FZ_SCAN_PREFIX bytes that choose its layout and options (README.md).
 * Deterministic; tests/fuzz/corpus holds its output next to the text seeds
 * copied from fixtures/. */
#include "kvgen.h"
#include "format/format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PREFIX 8

static const char *root;

static void must(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_seeds: %s\n", what);
        exit(1);
    }
}

static void make_dir(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, name);
    must(mkdir(path, 0755) == 0 || errno == EEXIST, path);
}

/* The prefix of tests/fuzz/fuzz.c's fz_scan_setup_read. */
typedef struct setup {
    unsigned layout;                   /* catalogue index */
    unsigned page_index, pages, skips; /* table indices */
    unsigned rank, rope, index;
    unsigned options; /* byte 6 */
    unsigned kind;    /* byte 7 */
} setup;

static void prefix_of(const setup *s, uint8_t p[PREFIX])
{
    p[0] = (uint8_t)s->layout;
    p[1] = (uint8_t)(s->page_index | s->pages << 3 | s->skips << 6);
    p[2] = (uint8_t)(s->rank & 0xFF);
    p[3] = (uint8_t)(s->rank >> 8);
    p[4] = (uint8_t)s->rope;
    p[5] = (uint8_t)s->index;
    p[6] = (uint8_t)s->options;
    p[7] = (uint8_t)s->kind;
}

/* Rewrites DIR/corpus/NAME (as kvgen wrote it) with the prefix in front. */
static void prepend(const char *corpus, const char *name, const setup *s)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", root, corpus, name);
    FILE *f = fopen(path, "rb");
    must(f != NULL, path);
    static uint8_t buf[1 << 20];
    prefix_of(s, buf);
    size_t n = fread(buf + PREFIX, 1, sizeof buf - PREFIX, f);
    must(feof(f) && !ferror(f), path);
    fclose(f);
    must(kvgen_write(path, buf, PREFIX + n) == 0, path);
}

static const char *at(const char *corpus, const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", root, corpus, name);
    return path;
}

static kvc_layout layout(unsigned i, const setup *s, uint32_t page_size)
{
    kvc_layout_params p = {s->rank, s->rope, s->index, page_size};
    kvc_layout l;
    kvc_diag d;
    must(layout_build(kvc_layout_catalogue(i), &p, &l, &d) == KVC_OK, d.message);
    return l;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_seeds DIR\n");
        return 2;
    }
    root = argv[1];
    must(mkdir(root, 0755) == 0 || errno == EEXIST, root);
    make_dir("npy");
    make_dir("safetensors");
    make_dir("detect");
    enum { PAGES = 3 };
    static uint8_t clean[1 << 16], planted[1 << 16];
    char name[256];
    /* small dimensions: R 80, r 16 (MODEL1: R - r = 64), indexer 16, and R 128 where a layout needs a
     * multiple of 128; page size 4 (index 2), so kvgen's plants find a free element even for one scale
     * per token */
    for (unsigned i = 0; kvc_layout_catalogue(i); i++) {
        int by_128 = strcmp(kvc_layout_catalogue(i), "fp8_flashmla") == 0;
        setup s = {.layout = i, .page_index = 2, .rank = by_128 ? 128 : 80, .rope = 16, .index = 16};
        kvc_layout l = layout(i, &s, 4);
        size_t bytes = PAGES * l.page_bytes;
        must(bytes <= sizeof clean, "pages too large");
        kvgen_pages(&l, PAGES, i + 1, clean);
        memcpy(planted, clean, bytes);
        kvgen_plant plants[64];
        kvgen_plant_damage(&l, planted, PAGES, plants, 64);
        const char *lname = kvc_layout_catalogue(i);

        /* .npy: pages x page bytes, clean; tokens x token bytes, damaged (every finding listed) */
        uint64_t shape3[3] = {PAGES, l.page_size, l.bytes_per_token}, rows[2] = {PAGES * l.page_size, l.bytes_per_token};
        snprintf(name, sizeof name, "clean-%s", lname);
        must(kvgen_write_npy(at("npy", name), "|u1", shape3, 3, clean, bytes) == 0, name);
        prepend("npy", name, &s);
        snprintf(name, sizeof name, "planted-%s", lname);
        must(kvgen_write_npy(at("npy", name), "<u1", rows, 2, planted, bytes) == 0, name);
        setup all = s;
        all.options = 3u << 5 | 3; /* 1000 findings, both scale policies */
        prepend("npy", name, &all);

        /* .safetensors: two layers, the second damaged, plus metadata */
        kvgen_tensor t[2] = {
            {"model.layers.0.kv", "U8", {PAGES, l.page_bytes}, 2, clean, bytes},
            {"model.layers.1.kv", "U8", {PAGES * l.page_bytes}, 1, planted, bytes},
        };
        snprintf(name, sizeof name, "layers-%s", lname);
        must(kvgen_write_safetensors(at("safetensors", name), t, 2) == 0, name);
        setup filtered = s;
        filtered.options = (i % 8) << 2; /* each tensor filter once */
        prepend("safetensors", name, &filtered);

        /* detect: the damaged pages raw, and the clean ones as host memory */
        setup raw = s;
        raw.kind = 0;
        snprintf(name, sizeof name, "raw-%s", lname);
        must(kvgen_write(at("detect", name), planted, bytes) == 0, name);
        prepend("detect", name, &raw);
        setup host = s;
        host.kind = 3;
        snprintf(name, sizeof name, "host-%s", lname);
        must(kvgen_write(at("detect", name), clean, bytes) == 0, name);
        prepend("detect", name, &host);
    }

    /* page selections and a layer given twice */
    setup sel = {.layout = 3, .page_index = 1, .pages = 3, .skips = 2, .rank = 128, .rope = 64, .index = 32};
    sel.options = 1u << 7;
    kvc_layout raw = layout(3, &sel, 2);
    kvgen_pages(&raw, 4, 9, clean);
    uint64_t flat[1] = {4 * raw.page_bytes};
    must(kvgen_write_npy(at("npy", "pages-twice-fp8_raw"), "|u1", flat, 1, clean, 4 * raw.page_bytes) == 0, "npy");
    prepend("npy", "pages-twice-fp8_raw", &sel);

    /* other dtypes and forms of the header: 2-byte elements, version 2, Fortran order, big-endian */
    setup bf = {.layout = 0, .page_index = 0, .rank = 128, .rope = 64, .index = 32};
    kvc_layout bf16 = layout(0, &bf, 1);
    kvgen_pages(&bf16, 2, 3, clean);
    uint64_t halves[2] = {2, bf16.bytes_per_token / 2};
    must(kvgen_write_npy(at("npy", "bf16-as-f2"), "<f2", halves, 2, clean, 2 * bf16.page_bytes) == 0, "npy");
    prepend("npy", "bf16-as-f2", &bf);
    must(kvgen_write_npy(at("npy", "big-endian"), ">u2", halves, 2, clean, 2 * bf16.page_bytes) == 0, "npy");
    prepend("npy", "big-endian", &bf);
    {
        uint8_t v2[12 + 64 + 768];
        const char dict[] = "{'descr': '<u1', 'fortran_order': False, 'shape': (768,), }";
        memset(v2, ' ', sizeof v2);
        memcpy(v2, "\x93NUMPY\x02\x00\x40\x00\x00\x00", 12);
        memcpy(v2 + 12, dict, sizeof dict - 1);
        v2[12 + 63] = '\n';
        memcpy(v2 + 12 + 64, clean, 768);
        must(kvgen_write(at("npy", "version-2"), v2, sizeof v2) == 0, "npy");
        prepend("npy", "version-2", &bf);
        char fortran[] = "\x93NUMPY\x01\x00\x39\x00{'descr': '<u1', 'fortran_order': True, 'shape': (4,), }\n0123";
        must(kvgen_write(at("npy", "fortran"), fortran, sizeof fortran - 1) == 0, "npy");
        prepend("npy", "fortran", &bf);
    }
    /* the default dimensions (R 512, r 64), one fp8_flashmla page of one token */
    setup full = {.layout = 5, .page_index = 0, .rank = 512, .rope = 64, .index = 128};
    kvc_layout scaled = layout(5, &full, 1);
    kvgen_pages(&scaled, 2, 4, clean);
    uint64_t tokens[2] = {2, scaled.bytes_per_token};
    must(kvgen_write_npy(at("npy", "fp8_flashmla-656"), "|u1", tokens, 2, clean, 2 * scaled.page_bytes) == 0, "npy");
    prepend("npy", "fp8_flashmla-656", &full);

    /* detect: pages of 64 tokens, the page size left to detect (index 6: 0) */
    setup autop = {.layout = 0, .page_index = 6, .rank = 128, .rope = 0, .index = 32, .kind = 0};
    kvc_layout idx = layout(6, &autop, 64);
    kvgen_pages(&idx, 2, 5, clean);
    must(kvgen_write(at("detect", "auto-page-dsa_indexer"), clean, 2 * idx.page_bytes) == 0, "detect");
    prepend("detect", "auto-page-dsa_indexer", &autop);
    setup as_npy = {.layout = 0, .page_index = 1, .rank = 128, .rope = 64, .index = 32, .kind = 1};
    kvc_layout r2 = layout(3, &as_npy, 2);
    kvgen_pages(&r2, 3, 6, clean);
    uint64_t r2shape[2] = {3, r2.page_bytes};
    must(kvgen_write_npy(at("detect", "npy-fp8_raw"), "|u1", r2shape, 2, clean, 3 * r2.page_bytes) == 0, "detect");
    prepend("detect", "npy-fp8_raw", &as_npy);
    setup as_st = as_npy;
    as_st.kind = 2;
    kvgen_tensor one[1] = {{"kv", "F8_E4M3", {3 * r2.page_size, r2.bytes_per_token}, 2, clean, 3 * r2.page_bytes}};
    must(kvgen_write_safetensors(at("detect", "safetensors-fp8_raw"), one, 1) == 0, "detect");
    prepend("detect", "safetensors-fp8_raw", &as_st);
    return 0;
}
