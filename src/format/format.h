/* Element types (one table) and the layout catalogue: what bytes in a KV
 * page mean, whatever engine wrote them. */
#ifndef KVC_FORMAT_H
#define KVC_FORMAT_H

#include "common/common.h"
#include "kvc_predicates.h"

/* ----------------------------------------------------------------- layout */

/* The field that holds byte `at` of a buffer of pages in layout `l`, with the
 * token (counted from the buffer's start) and element index; NULL for
 * padding between fields or at a page's end. */
const kvc_field *layout_field_at(const kvc_layout *l, uint64_t at, uint64_t *token, uint32_t *elem);

/* The predicate kind (KVC_KIND_*) the scanners judge a field's elements by. */
unsigned field_kind(const kvc_field *f);
/* 1 when elements of predicate kind `kind` can fail check `c`. */
int kind_judged_by(unsigned kind, kvc_check c);
/* The value an element's bytes stand for. */
double elem_decode(kvc_elem elem, const uint8_t *p);

#endif /* KVC_FORMAT_H */
