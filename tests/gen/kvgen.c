/* The deterministic KV page generator (see kvgen.h). */
#include "kvgen.h"
#include "kvc_simulate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* xorshift64*: small, fast and the same everywhere */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

static double uniform(uint64_t *s) { return (double)(next(s) >> 11) / 9007199254740992.0; }

/* Gaussian by Box-Muller; sometimes an outlier, as real latents have. */
static float latent(uint64_t *s, float spread)
{
    double u = uniform(s), v = uniform(s);
    double g = sqrt(-2.0 * log(u + 1e-300)) * cos(6.283185307179586 * v);
    if (next(s) % 1000 == 0) g *= 20;
    return (float)(g * spread);
}

static uint16_t f16(float x)
{
    /* finite inputs within range only (the generator's values are) */
    float a = fabsf(x);
    uint16_t sign = x < 0 ? 0x8000 : 0;
    if (a < 6.103515625e-05f) return sign | (uint16_t)lrintf(a / 5.9604644775390625e-08f);
    int e;
    float m = frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    long mant = lrintf((m * 2 - 1) * 1024);
    if (mant == 1024) mant = 0, e++;
    return sign | (uint16_t)((e + 14) << 10) | (uint16_t)mant;
}

/* The value of a positive e5m2 code. */
static float e5m2_value(unsigned c)
{
    unsigned e = c >> 2, m = c & 3;
    return e ? ldexpf(1 + m / 4.0f, (int)e - 15) : ldexpf(m / 4.0f, -14);
}

/* Nearest finite e5m2 code, ties to the even code, saturating: the positive
 * codes ascend with their values, so a binary search finds the neighbours.
 * (e4m3 goes through kvc_e4m3_of, the encoder simulate uses.) */
static uint8_t e5m2_of(float x)
{
    const unsigned top = 0x7B; /* largest finite code */
    float a = fabsf(x);
    unsigned lo = 0, hi = top;
    if (a >= e5m2_value(top)) lo = top;
    else {
        while (hi - lo > 1) { /* e5m2_value(lo) <= a < e5m2_value(hi) */
            unsigned mid = (lo + hi) / 2;
            if (e5m2_value(mid) <= a) lo = mid;
            else hi = mid;
        }
        float dl = a - e5m2_value(lo), dh = e5m2_value(hi) - a;
        if (dh < dl || (dh == dl && !(hi & 1))) lo = hi;
    }
    return (uint8_t)(lo | (x < 0 ? 0x80 : 0));
}

/* The E2M1 code nearest to x (magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6; ties to the lower). */
static uint8_t e2m1_of(float x)
{
    static const float MAGNITUDE[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
    float a = fabsf(x);
    uint8_t best = 0;
    for (uint8_t m = 1; m < 8; m++)
        if (fabsf(MAGNITUDE[m] - a) < fabsf(MAGNITUDE[best] - a)) best = m;
    return (uint8_t)(best | (x < 0 ? 0x8 : 0));
}

static void put(uint8_t *p, kvc_elem elem, float x)
{
    uint16_t h;
    switch (elem) {
    case KVC_ELEM_E2M1X2: p[0] = (uint8_t)(e2m1_of(x) | e2m1_of(-x) << 4); break;
    case KVC_ELEM_E4M3: p[0] = kvc_e4m3_of(x); break;
    case KVC_ELEM_E5M2: p[0] = e5m2_of(x); break;
    case KVC_ELEM_BF16: h = kvc_bf16_of(x); memcpy(p, &h, 2); break;
    case KVC_ELEM_F16: h = f16(x); memcpy(p, &h, 2); break;
    case KVC_ELEM_F32: memcpy(p, &x, 4); break;
    default: break;
    }
}

/* One token of one page: the first field is quantized in groups under the
 * layout's scales (FP32 amax/448 as SGLang writes; UE8M0 rounded up to a
 * power of two), other value fields are stored as they are. */
static void token(const kvc_layout *l, uint8_t *page, uint32_t t, const float *spread, uint64_t *s)
{
    const kvc_field *scale = kvc_layout_field(l, "scale");
    const kvc_field *quant = scale ? &l->fields[0] : NULL;
    for (unsigned i = 0; i < l->nfields; i++) {
        const kvc_field *f = &l->fields[i];
        uint8_t *at = page + f->base + (uint64_t)t * f->stride;
        unsigned size = kvc_elem_size(f->elem);
        if (f->elem == KVC_ELEM_PAD || f->scale) continue;
        if (f != quant) {
            for (uint32_t e = 0; e < f->count; e++) put(at + e * size, f->elem, latent(s, i == 0 ? spread[e % 512] : 1.0f));
            continue;
        }
        uint32_t group = f->count / scale->count;
        float values[1024];
        for (uint32_t e = 0; e < f->count && e < 1024; e++) values[e] = latent(s, spread[e % 512]);
        uint8_t *sat = page + scale->base + (uint64_t)t * scale->stride;
        for (uint32_t g = 0; g < scale->count; g++) {
            float amax = 0;
            for (uint32_t e = g * group; e < (g + 1) * group; e++) amax = fmaxf(amax, fabsf(values[e]));
            float sc = amax / 448.0f;
            if (scale->elem == KVC_ELEM_UE8M0) {
                int k = (int)ceil(log2(sc));
                sat[g] = (uint8_t)(127 + k);
                sc = ldexpf(1.0f, k);
            } else {
                memcpy(sat + 4 * g, &sc, 4);
            }
            for (uint32_t e = g * group; e < (g + 1) * group; e++) put(at + e * size, f->elem, values[e] / sc);
        }
    }
}

void kvgen_pages(const kvc_layout *l, uint64_t npages, uint64_t seed, uint8_t *out)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    float spread[512];
    for (int i = 0; i < 512; i++) spread[i] = (float)(0.05 + 2.0 * uniform(&s)); /* per channel */
    memset(out, 0, npages * l->page_bytes);
    for (uint64_t p = 0; p < npages; p++)
        for (uint32_t t = 0; t < l->page_size; t++) token(l, out + p * l->page_bytes, t, spread, &s);
}

void kvgen_pages_repeated(const kvc_layout *l, uint64_t npages, uint64_t distinct, uint64_t seed, uint8_t *out)
{
    if (distinct > npages) distinct = npages;
    kvgen_pages(l, distinct, seed, out);
    for (uint64_t p = distinct; p < npages; p++) memcpy(out + p * l->page_bytes, out + (p % distinct) * l->page_bytes, l->page_bytes);
}

/* ------------------------------------------------------------- damage */

static const struct bad_value {
    kvc_elem elem;
    int scale;
    uint32_t bits;
    kvc_check check;
} BAD[] = {
    {KVC_ELEM_E4M3, 0, 0x7F, KVC_CHECK_E4M3_NAN},
    {KVC_ELEM_E4M3, 0, 0xFF, KVC_CHECK_E4M3_NAN},
    {KVC_ELEM_E5M2, 0, 0x7C, KVC_CHECK_E5M2_INF},
    {KVC_ELEM_E5M2, 0, 0xFE, KVC_CHECK_E5M2_NAN},
    {KVC_ELEM_BF16, 0, 0x7FC0, KVC_CHECK_BF16_NAN},
    {KVC_ELEM_BF16, 0, 0x7F80, KVC_CHECK_BF16_POS_INF},
    {KVC_ELEM_BF16, 0, 0xFF80, KVC_CHECK_BF16_NEG_INF},
    {KVC_ELEM_F16, 0, 0xFE01, KVC_CHECK_FP16_NAN},
    {KVC_ELEM_F16, 0, 0x7C00, KVC_CHECK_FP16_POS_INF},
    {KVC_ELEM_F16, 0, 0xFC00, KVC_CHECK_FP16_NEG_INF},
    {KVC_ELEM_F32, 0, 0x7FC00000, KVC_CHECK_FP32_NAN},
    {KVC_ELEM_F32, 0, 0x7F800000, KVC_CHECK_FP32_POS_INF},
    {KVC_ELEM_F32, 0, 0xFF800000, KVC_CHECK_FP32_NEG_INF},
    {KVC_ELEM_F32, 1, 0xFFC00001, KVC_CHECK_SCALE_NAN},
    {KVC_ELEM_F32, 1, 0x7F800000, KVC_CHECK_SCALE_POS_INF},
    {KVC_ELEM_F32, 1, 0xFF800000, KVC_CHECK_SCALE_NEG_INF},
    {KVC_ELEM_F32, 1, 0xBF800000, KVC_CHECK_SCALE_NEGATIVE}, /* -1.0 */
    {KVC_ELEM_F32, 1, 0x80000000, KVC_CHECK_SCALE_NEGATIVE}, /* -0.0 */
    {KVC_ELEM_F32, 1, 0x00000000, KVC_CHECK_SCALE_ZERO},
    {KVC_ELEM_F32, 1, 0x00000001, KVC_CHECK_SCALE_DENORMAL},
    {KVC_ELEM_F32, 1, 0x007FFFFF, KVC_CHECK_SCALE_DENORMAL},
    {KVC_ELEM_UE8M0, 1, 0xFF, KVC_CHECK_UE8M0_NAN},
};

static int by_offset(const void *a, const void *b)
{
    const kvgen_plant *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

size_t kvgen_plant_damage(const kvc_layout *l, uint8_t *buf, uint64_t npages, kvgen_plant *out, size_t max)
{
    size_t n = 0;
    unsigned k = 0;
    for (unsigned i = 0; i < l->nfields; i++) {
        const kvc_field *f = &l->fields[i];
        for (size_t b = 0; b < sizeof BAD / sizeof BAD[0] && n < max; b++) {
            if (BAD[b].elem != f->elem || BAD[b].scale != f->scale) continue;
            k++;
            kvgen_plant *p = &out[n++];
            memset(p, 0, sizeof *p);
            p->page = (k * 5 + 1) % npages;
            p->slot = (k * 7 + 3) % l->page_size;
            p->element = (k * 13 + 1) % f->count;
            snprintf(p->field, sizeof p->field, "%s", f->name);
            p->check = BAD[b].check;
            for (size_t j = 0;;) { /* one plant per element: move along until free */
                p->offset = p->page * l->page_bytes + f->base + p->slot * f->stride +
                            (uint64_t)p->element * kvc_elem_size(f->elem);
                for (j = 0; j + 1 < n && out[j].offset != p->offset; j++) continue;
                if (j + 1 >= n) break;
                p->element = (p->element + 1) % f->count;
            }
            memcpy(buf + p->offset, &BAD[b].bits, kvc_elem_size(f->elem));
        }
    }
    qsort(out, n, sizeof *out, by_offset);
    return n;
}

void kvgen_transfer(const kvc_layout *prefill, const kvc_layout *decode, uint64_t decode_pages, uint64_t seed,
                    uint8_t *out)
{
    uint64_t bytes = decode_pages * decode->page_bytes, pages = bytes / prefill->page_bytes;
    memset(out, 0, bytes);
    kvgen_pages(prefill, pages, seed, out);
}

/* -------------------------------------------------------------- files */

int kvgen_write(const char *path, const void *data, size_t bytes)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t n = bytes ? fwrite(data, 1, bytes, f) : 0;
    return (fclose(f) != 0 || n != bytes) ? -1 : 0;
}

int kvgen_write_npy(const char *path, const char *descr, const uint64_t *shape, unsigned ndim, const void *data,
                    size_t bytes)
{
    char dict[256], dims[128] = "";
    for (unsigned i = 0; i < ndim; i++) {
        size_t n = strlen(dims);
        snprintf(dims + n, sizeof dims - n, "%llu,%s", (unsigned long long)shape[i], i + 1 < ndim ? " " : "");
    }
    int len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, dims);
    size_t total = 10 + (size_t)len + 1, pad = (64 - total % 64) % 64;
    size_t hlen = (size_t)len + pad + 1;
    uint8_t *buf = malloc(10 + hlen + bytes);
    if (!buf) return -1;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (uint8_t)(hlen & 0xFF);
    buf[9] = (uint8_t)(hlen >> 8);
    memcpy(buf + 10, dict, (size_t)len);
    memset(buf + 10 + len, ' ', pad);
    buf[10 + hlen - 1] = '\n';
    memcpy(buf + 10 + hlen, data, bytes);
    int r = kvgen_write(path, buf, 10 + hlen + bytes);
    free(buf);
    return r;
}

int kvgen_write_safetensors(const char *path, const kvgen_tensor *t, size_t n)
{
    char header[8192] = "{";
    size_t off = 0, data = 0;
    for (size_t i = 0; i < n; i++) {
        size_t used = strlen(header);
        char dims[96] = "";
        for (unsigned d = 0; d < t[i].ndim; d++) {
            size_t m = strlen(dims);
            snprintf(dims + m, sizeof dims - m, "%s%llu", d ? "," : "", (unsigned long long)t[i].shape[d]);
        }
        snprintf(header + used, sizeof header - used, "%s\"%s\":{\"dtype\":\"%s\",\"shape\":[%s],\"data_offsets\":[%zu,%zu]}",
                 i ? "," : "", t[i].name, t[i].dtype, dims, off, off + t[i].bytes);
        off += t[i].bytes;
    }
    strcat(header, "}");
    size_t hlen = strlen(header);
    while (hlen % 8) header[hlen++] = ' ';
    header[hlen] = '\0';
    uint8_t *buf = malloc(8 + hlen + off);
    if (!buf) return -1;
    for (int i = 0; i < 8; i++) buf[i] = (uint8_t)((uint64_t)hlen >> (8 * i));
    memcpy(buf + 8, header, hlen);
    for (size_t i = 0; i < n; i++) memcpy(buf + 8 + hlen + data, t[i].data, t[i].bytes), data += t[i].bytes;
    int r = kvgen_write(path, buf, 8 + hlen + off);
    free(buf);
    return r;
}

int kvgen_write_safetensors_header(const char *path, const char *header, const void *data, size_t bytes)
{
    size_t len = strlen(header), hlen = (len + 7) / 8 * 8; /* padded with spaces, as the format allows */
    uint8_t *buf = malloc(8 + hlen + bytes);
    if (!buf) return -1;
    for (int i = 0; i < 8; i++) buf[i] = (uint8_t)((uint64_t)hlen >> (8 * i));
    memcpy(buf + 8, header, len);
    memset(buf + 8 + len, ' ', hlen - len);
    if (bytes) memcpy(buf + 8 + hlen, data, bytes);
    int r = kvgen_write(path, buf, 8 + hlen + bytes);
    free(buf);
    return r;
}
