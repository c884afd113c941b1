/* The layout catalogue: each layout is a row of fields whose sizes follow
 * from the model's dimensions (FORMATS.md). A new layout is a row.
 *
 * A page holds one or more regions one after another; within a region each
 * token's fields sit side by side in a row, so a one-region layout is
 * token-interleaved (656, 576, 1152) and a layout of several regions is
 * page-split (the DSA indexer, DeepSeek-V4 MODEL1). */
#include "format/format.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* How many elements a field holds per token, from the model's dimensions. */
typedef enum dim {
    DIM_NOPE = 1,      /* R = kv_lora_rank */
    DIM_NOPE_128,      /* R / 128: one FP32 scale per 128 NoPE values */
    DIM_ROPE,          /* r = qk_rope_head_dim */
    DIM_INDEX,         /* index_head_dim */
    DIM_ONE,
    DIM_LATENT_NOPE,   /* R - r: MODEL1's latent holds its RoPE, so NoPE is the rest */
    DIM_LATENT_NOPE_64, /* (R - r) / 64: one UE8M0 scale per 64 of those values */
    DIM_NOPE_HALF,      /* R / 2: packed FP4 pairs */
    DIM_ROPE_HALF,      /* r / 2 */
    DIM_ROW_16          /* (R + r) / 16: one UE8M0 scale per 16 values of the row */
} dim;

#define MAX_REGIONS 2

static const struct layout_def {
    const char *name;
    /* each region's row rounded up to a multiple of this many bytes with a
     * "pad" field (0: no padding) */
    unsigned row_align[MAX_REGIONS];
    int page_whole_rows; /* the page is padded to a whole number of region 0's rows */
    struct field_def {
        const char *name;
        kvc_elem elem;
        dim count;
        unsigned region; /* regions follow one another within a page */
        int scale;       /* the values are dequantisation scales */
    } f[KVC_MAX_FIELDS];
} CATALOGUE[] = {
    {"bf16", {0, 0}, 0, {{"nope", KVC_ELEM_BF16, DIM_NOPE, 0, 0}, {"rope", KVC_ELEM_BF16, DIM_ROPE, 0, 0}}},
    {"fp16", {0, 0}, 0, {{"nope", KVC_ELEM_F16, DIM_NOPE, 0, 0}, {"rope", KVC_ELEM_F16, DIM_ROPE, 0, 0}}},
    {"fp32", {0, 0}, 0, {{"nope", KVC_ELEM_F32, DIM_NOPE, 0, 0}, {"rope", KVC_ELEM_F32, DIM_ROPE, 0, 0}}},
    {"fp8_raw", {0, 0}, 0, {{"nope", KVC_ELEM_E4M3, DIM_NOPE, 0, 0}, {"rope", KVC_ELEM_E4M3, DIM_ROPE, 0, 0}}},
    {"fp8_e5m2_raw", {0, 0}, 0, {{"nope", KVC_ELEM_E5M2, DIM_NOPE, 0, 0}, {"rope", KVC_ELEM_E5M2, DIM_ROPE, 0, 0}}},
    {"fp8_flashmla",
     {0, 0},
     0,
     {{"nope", KVC_ELEM_E4M3, DIM_NOPE, 0, 0}, {"scale", KVC_ELEM_F32, DIM_NOPE_128, 0, 1}, {"rope", KVC_ELEM_BF16, DIM_ROPE, 0, 0}}},
    {"dsa_indexer", {0, 0}, 0, {{"k", KVC_ELEM_E4M3, DIM_INDEX, 0, 0}, {"scale", KVC_ELEM_F32, DIM_ONE, 1, 1}}},
    /* DeepSeek-V4 MODEL1 (FORMATS.md): rows of NoPE + RoPE, then per token
     * its UE8M0 scales padded to 8 bytes; the page is padded to a whole row. */
    {"model1_fp8",
     {0, 8},
     1,
     {{"nope", KVC_ELEM_E4M3, DIM_LATENT_NOPE, 0, 0},
      {"rope", KVC_ELEM_BF16, DIM_ROPE, 0, 0},
      {"scale", KVC_ELEM_UE8M0, DIM_LATENT_NOPE_64, 1, 1}}},
    /* SGLang's FP4 MLA pool (MLATokenToKVPoolFP4): rows of R + r E2M1 values
     * packed two to a byte, NoPE then RoPE; their MX block-16 UE8M0 scales
     * (2^(e - 127), NoPE's then RoPE's) live in a second buffer per layer,
     * fp4_mx16_scales, which the PD transfer does not send. */
    {"fp4_mx16", {0, 0}, 0, {{"nope", KVC_ELEM_E2M1X2, DIM_NOPE_HALF, 0, 0}, {"rope", KVC_ELEM_E2M1X2, DIM_ROPE_HALF, 0, 0}}},
    {"fp4_mx16_scales", {0, 0}, 0, {{"scale", KVC_ELEM_UE8M0, DIM_ROW_16, 0, 1}}},
};

/* FORMATS.md's sizes at R = 512, r = 64, index_head_dim = 128, page 64. */
_Static_assert(512 * 1 + 512 / 128 * 4 + 64 * 2 == 656, "fp8_flashmla is 656 B/token");
_Static_assert(64 * (128 + 4) == 8448, "dsa_indexer is 8448 B/page at 64 tokens");
_Static_assert(448 + 64 * 2 + 8 == 584, "model1_fp8 is 584 B/token");
_Static_assert(512 / 2 + 64 / 2 == 288 && (512 + 64) / 16 == 36, "fp4_mx16 is 288 B/token, its scales 36");

static const kvc_layout_params DEFAULT_PARAMS = {512, 64, 128, 64};

const kvc_layout_params *layout_default_params(void) { return &DEFAULT_PARAMS; }

const char *kvc_layout_catalogue(unsigned i) { return i < COUNT_OF(CATALOGUE) ? CATALOGUE[i].name : NULL; }

static uint32_t dim_value(dim d, const kvc_layout_params *p)
{
    uint32_t latent_nope = p->kv_lora_rank > p->qk_rope_head_dim ? p->kv_lora_rank - p->qk_rope_head_dim : 0;
    switch (d) {
    case DIM_NOPE: return p->kv_lora_rank;
    case DIM_NOPE_128: return p->kv_lora_rank / 128;
    case DIM_ROPE: return p->qk_rope_head_dim;
    case DIM_INDEX: return p->index_head_dim;
    case DIM_ONE: return 1;
    case DIM_LATENT_NOPE: return latent_nope;
    case DIM_LATENT_NOPE_64: return latent_nope / 64;
    case DIM_NOPE_HALF: return p->kv_lora_rank / 2;
    case DIM_ROPE_HALF: return p->qk_rope_head_dim / 2;
    case DIM_ROW_16: return (p->kv_lora_rank + p->qk_rope_head_dim) / 16;
    }
    return 0;
}

/* The divisor a dimension must be a multiple of, and what it is called. */
static uint32_t dim_divisor(dim d, const kvc_layout_params *p, const char **what, uint32_t *value)
{
    if (d == DIM_NOPE_128) {
        *what = "kv_lora_rank";
        *value = p->kv_lora_rank;
        return 128;
    }
    if (d == DIM_LATENT_NOPE_64) {
        *what = "kv_lora_rank - qk_rope_head_dim";
        *value = dim_value(DIM_LATENT_NOPE, p);
        return 64;
    }
    if (d == DIM_NOPE_HALF || d == DIM_ROPE_HALF) {
        *what = d == DIM_NOPE_HALF ? "kv_lora_rank" : "qk_rope_head_dim";
        *value = d == DIM_NOPE_HALF ? p->kv_lora_rank : p->qk_rope_head_dim;
        return 2;
    }
    if (d == DIM_ROW_16) {
        *what = "kv_lora_rank + qk_rope_head_dim";
        *value = p->kv_lora_rank + p->qk_rope_head_dim;
        return 16;
    }
    return 0;
}

/* Checks that the dimension divides into whole scales. */
static kvc_status check_divisible(const struct layout_def *def, const struct field_def *f,
                                  const kvc_layout_params *p, const kvc_origin *o, kvc_diag *diag)
{
    const char *what = "";
    uint32_t value = 0, div = dim_divisor(f->count, p, &what, &value);
    if (!div || value % div == 0) return KVC_OK;
    if (!f->scale)
        return diag_set(diag, KVC_ERR_CONFIG, o, "%s needs %s to be a multiple of %u (%u values packed in a byte), but "
                        "it is %u", def->name, what, div, div, value);
    char type[16];
    str_copy(type, sizeof type, kvc_elem_name(f->elem));
    for (char *c = type; *c; c++) *c = (char)toupper((unsigned char)*c);
    return diag_set(diag, KVC_ERR_CONFIG, o, "%s needs %s to be a multiple of %u (one %s scale per %u values), but it is %u",
                    def->name, what, div, type, div, value);
}

kvc_status layout_build(const char *name, const kvc_layout_params *params, kvc_layout *out, kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    const struct layout_def *def = NULL;
    for (size_t i = 0; i < COUNT_OF(CATALOGUE); i++)
        if (strcmp(CATALOGUE[i].name, name) == 0) def = &CATALOGUE[i];
    kvc_origin o;
    origin_set(&o, "", 0, 0, "layout");
    if (!def) {
        char names[256] = "";
        for (size_t i = 0; i < COUNT_OF(CATALOGUE); i++) str_join_add(names, sizeof names, ", ", CATALOGUE[i].name);
        return diag_set(diag, KVC_ERR_CONFIG, &o, "unknown layout '%s': kvcheck knows %s", name, names);
    }
    RETURN_ERROR_IF(params->page_size < 1, diag, KVC_ERR_CONFIG, &o, "page size must be at least 1");
    str_copy(out->name, sizeof out->name, def->name);
    out->page_size = params->page_size;
    out->params = *params;

    /* Lay each field in its region's row; `base` is the offset in the row for now. */
    uint64_t row[MAX_REGIONS] = {0};
    unsigned region[KVC_MAX_FIELDS];
    for (unsigned i = 0; i < KVC_MAX_FIELDS && def->f[i].name; i++) {
        const struct field_def *f = &def->f[i];
        kvc_status st = check_divisible(def, f, params, &o, diag);
        if (st) return st;
        uint32_t count = dim_value(f->count, params);
        if (count == 0) continue; /* e.g. qk_rope_head_dim 0 */
        region[out->nfields] = f->region;
        kvc_field *of = &out->fields[out->nfields++];
        str_copy(of->name, sizeof of->name, f->name);
        of->elem = f->elem;
        of->scale = f->scale;
        of->count = count;
        of->base = row[f->region];
        row[f->region] += (uint64_t)count * kvc_elem_size(f->elem);
    }
    for (unsigned r = 0; r < MAX_REGIONS; r++) {
        unsigned a = def->row_align[r];
        if (!a || !row[r] || row[r] % a == 0 || out->nfields >= KVC_MAX_FIELDS) continue;
        region[out->nfields] = r;
        kvc_field *pad = &out->fields[out->nfields++];
        str_copy(pad->name, sizeof pad->name, "pad");
        pad->elem = KVC_ELEM_PAD;
        pad->count = (uint32_t)(a - row[r] % a);
        pad->base = row[r];
        row[r] += pad->count;
    }

    /* Regions follow one another within the page. */
    uint64_t start[MAX_REGIONS], page = 0, per_token = 0;
    unsigned used = 0;
    for (unsigned r = 0; r < MAX_REGIONS; r++) {
        uint64_t bytes;
        RETURN_ERROR_IF(__builtin_mul_overflow(row[r], (uint64_t)params->page_size, &bytes) ||
                            __builtin_add_overflow(page, bytes, &page),
                        diag, KVC_ERR_CONFIG, &o, "%s: page bytes overflow at page size %u", def->name,
                        params->page_size);
        start[r] = page - bytes;
        per_token += row[r];
        used += row[r] != 0;
    }
    RETURN_ERROR_IF(per_token > UINT32_MAX, diag, KVC_ERR_CONFIG, &o, "%s: a token would take %llu bytes",
                    def->name, (unsigned long long)per_token);
    /* Every reader divides by the page's bytes (kv_lora_rank and qk_rope_head_dim 0 through the API). */
    RETURN_ERROR_IF(per_token == 0, diag, KVC_ERR_CONFIG, &o,
                    "%s: kv_lora_rank %u, qk_rope_head_dim %u and index_head_dim %u leave a token no bytes",
                    def->name, params->kv_lora_rank, params->qk_rope_head_dim, params->index_head_dim);
    for (unsigned i = 0; i < out->nfields; i++) {
        out->fields[i].stride = row[region[i]];
        out->fields[i].base += start[region[i]];
    }
    if (def->page_whole_rows && row[0] && page % row[0]) page += row[0] - page % row[0];
    out->bytes_per_token = (uint32_t)per_token;
    out->page_split = used > 1;
    out->page_bytes = page;
    return KVC_OK;
}

const kvc_field *kvc_layout_field(const kvc_layout *l, const char *name)
{
    for (unsigned i = 0; i < l->nfields; i++)
        if (strcmp(l->fields[i].name, name) == 0) return &l->fields[i];
    return NULL;
}

int layout_values_judged(const kvc_layout *l)
{
    for (unsigned i = 0; i < l->nfields; i++)
        if (!l->fields[i].scale && field_kind(&l->fields[i]) != KVC_KIND_PAD) return 1;
    return 0;
}

const kvc_field *layout_field_at(const kvc_layout *l, uint64_t at, uint64_t *token, uint32_t *elem)
{
    uint64_t page = at / l->page_bytes, in = at % l->page_bytes;
    for (unsigned i = 0; i < l->nfields; i++) {
        const kvc_field *f = &l->fields[i];
        if (in < f->base) continue;
        uint64_t rel = in - f->base, t = rel / f->stride, within = rel % f->stride;
        unsigned size = kvc_elem_size(f->elem);
        if (t < l->page_size && within < (uint64_t)f->count * size) {
            if (token) *token = page * l->page_size + t;
            if (elem) *elem = (uint32_t)(within / size);
            return f;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------ public API */

void kvc_layout_default_params(kvc_layout_params *out) { *out = *layout_default_params(); }

kvc_status kvc_layout_build(const char *name, const kvc_layout_params *params, kvc_layout **out, kvc_diag *diag)
{
    *out = NULL;
    kvc_layout *l = malloc(sizeof *l);
    RETURN_ERROR_IF(!l, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    kvc_status st = layout_build(name, params, l, diag);
    if (st) {
        free(l);
        return st;
    }
    *out = l;
    return KVC_OK;
}

void kvc_layout_free(kvc_layout *layout) { free(layout); }
const char *kvc_layout_name(const kvc_layout *l) { return l->name; }
uint32_t kvc_layout_bytes_per_token(const kvc_layout *l) { return l->bytes_per_token; }
uint32_t kvc_layout_page_size(const kvc_layout *l) { return l->page_size; }
uint64_t kvc_layout_page_bytes(const kvc_layout *l) { return l->page_bytes; }
int kvc_layout_page_split(const kvc_layout *l) { return l->page_split; }
unsigned kvc_layout_field_count(const kvc_layout *l) { return l->nfields; }
const kvc_field *kvc_layout_field_at(const kvc_layout *l, unsigned i) { return i < l->nfields ? &l->fields[i] : NULL; }
const kvc_layout_params *kvc_layout_params_of(const kvc_layout *l) { return &l->params; }
