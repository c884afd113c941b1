/* A small deterministic generator of KV pages for the tests and the
 * benchmark: realistic clean pages of any catalogue layout, written the way
 * SGLang's writers write them (SGLANG_RULES.md §8), damage planted at known
 * places, and the bytes a 576-byte prefill leaves in a 656-byte decode
 * buffer. Same seed, same bytes, on every machine. */
#ifndef KVGEN_H
#define KVGEN_H

#include "format/format.h" /* the layout's fields: kvgen is test code over the library's internals */

#include <stddef.h>
#include <stdint.h>

/* Fills `npages` clean pages of `l` (npages x l->page_bytes bytes). */
void kvgen_pages(const kvc_layout *l, uint64_t npages, uint64_t seed, uint8_t *out);
/* The same for large buffers, quickly: `distinct` pages generated, then repeated. */
void kvgen_pages_repeated(const kvc_layout *l, uint64_t npages, uint64_t distinct, uint64_t seed, uint8_t *out);

/* One planted bad element, as a scan must report it. */
typedef struct kvgen_plant {
    uint64_t page, slot;
    char field[KVC_NAME_LEN];
    uint32_t element;
    kvc_check check;
    uint64_t offset; /* byte offset in the buffer */
} kvgen_plant;

/* Plants damage of every kind the layout's fields can hold, spread over the
 * pages; returns how many elements were planted (at most `max`), sorted by
 * offset. */
size_t kvgen_plant_damage(const kvc_layout *l, uint8_t *buf, uint64_t npages, kvgen_plant *out, size_t max);

/* What decode's buffer of `decode_pages` pages of `decode` holds after a
 * transfer of prefill's pages written in `prefill` rows (item lengths of
 * prefill on both sides, SGLANG_RULES.md §6): prefill's pages back to back,
 * the rest of the buffer never written (zeros). */
void kvgen_transfer(const kvc_layout *prefill, const kvc_layout *decode, uint64_t decode_pages, uint64_t seed,
                    uint8_t *out);

/* File writers; return 0 on success. */
int kvgen_write(const char *path, const void *data, size_t bytes);
int kvgen_write_npy(const char *path, const char *descr, const uint64_t *shape, unsigned ndim, const void *data,
                    size_t bytes);
typedef struct kvgen_tensor {
    const char *name, *dtype;
    uint64_t shape[4];
    unsigned ndim;
    const void *data;
    size_t bytes;
} kvgen_tensor;
int kvgen_write_safetensors(const char *path, const kvgen_tensor *t, size_t n);
/* A .safetensors file of the JSON `header` as given (any size, any offsets,
 * for malformed ones) and `bytes` of data after it. */
int kvgen_write_safetensors_header(const char *path, const char *header, const void *data, size_t bytes);

#endif
