/* The layout catalogue: each layout is a row of fields whose sizes follow
 * from the model's dimensions (FORMATS.md). A new layout is a row. */
#include "internal.h"

#include <string.h>

static const struct elem_row {
    const char *name;
    unsigned size;
} ELEMS[] = {
    [KVC_ELEM_E4M3] = {"e4m3", 1}, [KVC_ELEM_E5M2] = {"e5m2", 1}, [KVC_ELEM_BF16] = {"bf16", 2},
    [KVC_ELEM_F16] = {"fp16", 2},  [KVC_ELEM_F32] = {"fp32", 4},  [KVC_ELEM_UE8M0] = {"ue8m0", 1},
    [KVC_ELEM_PAD] = {"pad", 1},
};

const char *kvc_elem_name(kvc_elem elem)
{
    return (unsigned)elem < COUNT_OF(ELEMS) ? ELEMS[elem].name : "?";
}

unsigned kvc_elem_size(kvc_elem elem) { return (unsigned)elem < COUNT_OF(ELEMS) ? ELEMS[elem].size : 0; }

/* How many elements a field holds per token, from the model's dimensions. */
typedef enum dim {
    DIM_NOPE,       /* R = kv_lora_rank */
    DIM_NOPE_128,   /* R / 128: one FP32 scale per 128 NoPE values */
    DIM_ROPE,       /* r = qk_rope_head_dim */
    DIM_INDEX,      /* index_head_dim */
    DIM_ONE
} dim;

static const struct layout_def {
    const char *name;
    int page_split; /* fields one after another per page, not per token */
    struct field_def {
        const char *name;
        kvc_elem elem;
        dim count;
    } f[KVC_MAX_FIELDS];
} CATALOGUE[] = {
    {"bf16", 0, {{"nope", KVC_ELEM_BF16, DIM_NOPE}, {"rope", KVC_ELEM_BF16, DIM_ROPE}}},
    {"fp16", 0, {{"nope", KVC_ELEM_F16, DIM_NOPE}, {"rope", KVC_ELEM_F16, DIM_ROPE}}},
    {"fp32", 0, {{"nope", KVC_ELEM_F32, DIM_NOPE}, {"rope", KVC_ELEM_F32, DIM_ROPE}}},
    {"fp8_raw", 0, {{"nope", KVC_ELEM_E4M3, DIM_NOPE}, {"rope", KVC_ELEM_E4M3, DIM_ROPE}}},
    {"fp8_e5m2_raw", 0, {{"nope", KVC_ELEM_E5M2, DIM_NOPE}, {"rope", KVC_ELEM_E5M2, DIM_ROPE}}},
    {"fp8_flashmla",
     0,
     {{"nope", KVC_ELEM_E4M3, DIM_NOPE},
      {"scale", KVC_ELEM_F32, DIM_NOPE_128},
      {"rope", KVC_ELEM_BF16, DIM_ROPE}}},
    {"dsa_indexer", 1, {{"k", KVC_ELEM_E4M3, DIM_INDEX}, {"scale", KVC_ELEM_F32, DIM_ONE}}},
};

/* FORMATS.md's sizes at R = 512, r = 64, index_head_dim = 128. */
_Static_assert(512 * 1 + 512 / 128 * 4 + 64 * 2 == 656, "fp8_flashmla is 656 B/token");
_Static_assert(64 * (128 + 4) == 8448, "dsa_indexer is 8448 B/page at 64 tokens");

const char *kvc_layout_catalogue(unsigned i) { return i < COUNT_OF(CATALOGUE) ? CATALOGUE[i].name : NULL; }

static uint32_t dim_value(dim d, const kvc_layout_params *p)
{
    switch (d) {
    case DIM_NOPE: return p->kv_lora_rank;
    case DIM_NOPE_128: return p->kv_lora_rank / 128;
    case DIM_ROPE: return p->qk_rope_head_dim;
    case DIM_INDEX: return p->index_head_dim;
    case DIM_ONE: return 1;
    }
    return 0;
}

kvc_status kvc_layout_build(const char *name, const kvc_layout_params *params, kvc_layout *out,
                            kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    const struct layout_def *def = NULL;
    for (size_t i = 0; i < COUNT_OF(CATALOGUE); i++)
        if (strcmp(CATALOGUE[i].name, name) == 0) def = &CATALOGUE[i];
    kvc_origin o;
    origin_set(&o, "", 0, 0, "layout");
    if (!def) {
        char names[256] = "";
        for (size_t i = 0; i < COUNT_OF(CATALOGUE); i++) {
            if (i) strncat(names, ", ", sizeof names - strlen(names) - 1);
            strncat(names, CATALOGUE[i].name, sizeof names - strlen(names) - 1);
        }
        return diag_set(diag, KVC_ERR_CONFIG, &o, "unknown layout '%s': kvcheck knows %s", name, names);
    }
    RETURN_ERROR_IF(params->page_size < 1, diag, KVC_ERR_CONFIG, &o, "page size must be at least 1");
    str_copy(out->name, sizeof out->name, def->name);
    out->page_split = def->page_split;
    out->page_size = params->page_size;
    uint64_t offset = 0; /* bytes per token so far */
    for (unsigned i = 0; i < KVC_MAX_FIELDS && def->f[i].name; i++) {
        const struct field_def *f = &def->f[i];
        RETURN_ERROR_IF(f->count == DIM_NOPE_128 && params->kv_lora_rank % 128 != 0, diag,
                        KVC_ERR_CONFIG, &o,
                        "%s needs kv_lora_rank to be a multiple of 128 (one FP32 scale per 128 "
                        "values), but it is %u",
                        def->name, params->kv_lora_rank);
        uint32_t count = dim_value(f->count, params);
        if (count == 0) continue; /* e.g. qk_rope_head_dim 0 */
        kvc_field *out_f = &out->fields[out->nfields++];
        str_copy(out_f->name, sizeof out_f->name, f->name);
        out_f->elem = f->elem;
        out_f->count = count;
        uint64_t bytes = (uint64_t)count * kvc_elem_size(f->elem);
        out_f->base = def->page_split ? offset * params->page_size : offset;
        out_f->stride = bytes; /* fixed below for token-interleaved rows */
        offset += bytes;
    }
    RETURN_ERROR_IF(offset > UINT32_MAX, diag, KVC_ERR_CONFIG, &o, "%s: a token would take %llu bytes",
                    def->name, (unsigned long long)offset);
    out->bytes_per_token = (uint32_t)offset;
    if (!def->page_split)
        for (unsigned i = 0; i < out->nfields; i++) out->fields[i].stride = offset;
    RETURN_ERROR_IF(__builtin_mul_overflow(offset, (uint64_t)params->page_size, &out->page_bytes), diag,
                    KVC_ERR_CONFIG, &o, "%s: page bytes overflow", def->name);
    return KVC_OK;
}
