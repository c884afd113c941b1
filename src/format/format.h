/* Element types (one table) and the layout catalogue: what bytes in a KV
 * page mean, whatever engine wrote them. */
#ifndef KVC_FORMAT_H
#define KVC_FORMAT_H

#include "common/common.h"
#include "kvc_predicates.h"

/* A byte layout: a named table of fields over pages of page_size tokens. */
struct kvc_layout {
    char name[KVC_NAME_LEN]; /* "bf16", "fp8_raw", "fp8_flashmla", "dsa_indexer" */
    uint32_t bytes_per_token; /* bytes one token occupies in one layer */
    uint32_t page_size;       /* tokens per page */
    uint64_t page_bytes;      /* bytes per page per layer (SGLang's item_len) */
    int page_split;           /* 1 when fields are stored one after another per page */
    unsigned nfields;
    kvc_field fields[KVC_MAX_FIELDS];
    kvc_layout_params params; /* the dimensions it was built from */
};

/* Builds catalogue layout `name` into `out` (kvc_layout_build's core). */
kvc_status layout_build(const char *name, const kvc_layout_params *params, kvc_layout *out, kvc_diag *diag);

/* ----------------------------------------------------------------- layout */

/* The dimensions layouts are built from when no model is named: the MLA
 * dimensions of DeepSeek-V3.2 and GLM-5 (kv_lora_rank 512, qk_rope_head_dim
 * 64, the DSA indexer's index_head_dim 128) at SGLang's DSA page size of 64
 * tokens. The one place kvcheck writes them down. Static storage. */
const kvc_layout_params *layout_default_params(void);

/* The field that holds byte `at` of a buffer of pages in layout `l`, with the
 * token (counted from the buffer's start) and element index; NULL for
 * padding between fields or at a page's end. */
const kvc_field *layout_field_at(const kvc_layout *l, uint64_t at, uint64_t *token, uint32_t *elem);

/* 1 when some value field of `l` (not scales) can fail a check: what
 * detect tells layouts apart by. FP4 values (every code a value) and a
 * buffer of scales alone leave it nothing to go on. */
int layout_values_judged(const kvc_layout *l);

/* The predicate kind (KVC_KIND_*) the scanners judge a field's elements by. */
unsigned field_kind(const kvc_field *f);
/* 1 when elements of predicate kind `kind` can fail check `c`. */
int kind_judged_by(unsigned kind, kvc_check c);
/* The value an element's bytes stand for. */
double elem_decode(kvc_elem elem, const uint8_t *p);

#endif /* KVC_FORMAT_H */
