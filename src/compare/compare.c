/* Prefill against decode: field-by-field differences, what decode will read
 * (SGLANG_RULES.md §6), whether SGLang's bootstrap notices (§7), and the
 * smallest flag sets that make the pair agree. */
#include "compare/compare.h"

#include <stdlib.h>
#include <string.h>

const char *kvc_side_name(kvc_side side) { return side == KVC_SIDE_DECODE ? "decode" : "prefill"; }

/* ------------------------------------------------------------ mismatches */

static void add_mismatch(kvc_verdict *v, const char *field, const char *p, const char *d)
{
    if (!v || v->nmismatches >= KVC_MAX_MISMATCHES) return;
    kvc_mismatch *m = &v->mismatches[v->nmismatches++];
    str_copy(m->field, sizeof m->field, field);
    str_copy(m->prefill, sizeof m->prefill, p);
    str_copy(m->decode, sizeof m->decode, d);
}

static unsigned cmp_str(kvc_verdict *v, const char *field, const char *p, const char *d)
{
    if (strcmp(p, d) == 0) return 0;
    add_mismatch(v, field, p, d);
    return 1;
}

static unsigned cmp_u64(kvc_verdict *v, const char *field, uint64_t p, uint64_t d)
{
    if (p == d) return 0;
    char a[32], b[32];
    str_printf(a, sizeof a, "%llu", (unsigned long long)p);
    str_printf(b, sizeof b, "%llu", (unsigned long long)d);
    add_mismatch(v, field, a, b);
    return 1;
}

/* The fields that decide whether decode reads what prefill wrote. Records
 * each difference in `v` when given; returns how many there are. */
static unsigned mismatches(const kvc_resolved *p, const kvc_resolved *d, kvc_verdict *v)
{
    unsigned n = 0;
    n += cmp_u64(v, "kv_lora_rank", p->kv_lora_rank, d->kv_lora_rank);
    n += cmp_u64(v, "qk_rope_head_dim", p->qk_rope_head_dim, d->qk_rope_head_dim);
    n += cmp_u64(v, "num_hidden_layers", p->num_hidden_layers, d->num_hidden_layers);
    n += cmp_str(v, "kv_cache_dtype", p->kv_cache_dtype.value, d->kv_cache_dtype.value);
    n += cmp_str(v, "layout", p->kv.name, d->kv.name);
    n += cmp_u64(v, "bytes_per_token", p->kv.bytes_per_token, d->kv.bytes_per_token);
    n += cmp_u64(v, "page_size", p->kv.page_size, d->kv.page_size);
    n += cmp_u64(v, "page_bytes", p->kv.page_bytes, d->kv.page_bytes);
    n += cmp_u64(v, "indexer_page_bytes", p->has_indexer ? p->indexer.page_bytes : 0,
                 d->has_indexer ? d->indexer.page_bytes : 0);
    return n;
}

/* ---------------------------------------------------------- consequences */

/* For decode's token 0, say whose bytes each decode field reads. */
static void explain_fields(const kvc_layout *p, const kvc_layout *d, kvc_verdict *v)
{
    for (unsigned i = 0; i < d->nfields; i++) {
        const kvc_field *f = &d->fields[i];
        uint64_t start = f->base; /* token 0's */
        uint64_t size = (uint64_t)f->count * kvc_elem_size(f->elem);
        uint64_t tok0 = 0, tok1 = 0;
        const kvc_field *a = layout_field_at(p, start, &tok0, NULL);
        const kvc_field *b = layout_field_at(p, start + size - 1, &tok1, NULL);
        if (!a || !b) continue;
        if (a == b && tok0 == 0 && tok1 == 0 && strcmp(a->name, f->name) == 0 && a->elem == f->elem)
            continue; /* reads exactly what it expects */
        char src[200];
        if (a == b && tok0 == tok1)
            str_printf(src, sizeof src, "prefill token %llu's %s %s bytes", (unsigned long long)tok0,
                       kvc_elem_name(a->elem), a->name);
        else
            str_printf(src, sizeof src, "prefill token %llu's %s %s to token %llu's %s %s bytes",
                       (unsigned long long)tok0, kvc_elem_name(a->elem), a->name, (unsigned long long)tok1,
                       kvc_elem_name(b->elem), b->name);
        notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                  "decode token 0's %s %s (page bytes %llu-%llu) holds %s", kvc_elem_name(f->elem), f->name,
                  (unsigned long long)start, (unsigned long long)(start + size - 1), src);
    }
}

static void explain(const kvc_resolved *p, const kvc_resolved *d, kvc_verdict *v)
{
    const kvc_layout *pl = &p->kv, *dl = &d->kv;
    if (pl->bytes_per_token != dl->bytes_per_token || strcmp(pl->name, dl->name) != 0) {
        const kvc_field *scale = kvc_layout_field(dl, "scale");
        const kvc_field *src = NULL;
        uint64_t tok = 0;
        if (scale) src = layout_field_at(pl, scale->base, &tok, NULL);
        if (scale && src)
            notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                      "decode reads %u-byte records from %u-byte rows: its FP32 scales are "
                      "prefill's %s %s bytes, so scales come out negative, denormal, huge or NaN",
                      dl->bytes_per_token, pl->bytes_per_token, kvc_elem_name(src->elem), src->name);
        else
            notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                      "decode reads %u-byte %s records from %u-byte %s rows: wherever the two "
                      "layouts differ, decode reinterprets prefill's bytes",
                      dl->bytes_per_token, dl->name, pl->bytes_per_token, pl->name);
        explain_fields(pl, dl, v);
        if (pl->bytes_per_token != dl->bytes_per_token)
            notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                      "from token 1 on, each %u-byte record decode reads straddles two of "
                      "prefill's %u-byte tokens",
                      dl->bytes_per_token, pl->bytes_per_token);
    }
    if (pl->page_bytes != dl->page_bytes) {
        notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                  "the transfer computes source and destination page offsets from prefill's item "
                  "length (%llu B), but decode reads page p at p x %llu B: decode's pages from p = 1 "
                  "on start at the wrong byte",
                  (unsigned long long)pl->page_bytes, (unsigned long long)dl->page_bytes);
        if (pl->page_bytes > dl->page_bytes)
            notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                      "decode's pages are smaller: copies to its last pages run past the end of "
                      "its buffer by up to %llu B a page (Mooncake: \"Requested address not "
                      "found\")",
                      (unsigned long long)(pl->page_bytes - dl->page_bytes));
        else
            notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                      "decode's pages are larger: the tail of each of its pages (%llu B) is filled "
                      "from prefill's next page or left unwritten",
                      (unsigned long long)(dl->page_bytes - pl->page_bytes));
    }
    if (p->has_indexer && d->has_indexer && p->indexer.page_bytes != d->indexer.page_bytes)
        notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                  "the DSA indexer state is sent with prefill's state item length (%llu B) and read "
                  "at decode's (%llu B)",
                  (unsigned long long)p->indexer.page_bytes, (unsigned long long)d->indexer.page_bytes);
}

static void bootstrap(const kvc_resolved *p, const kvc_resolved *d, kvc_verdict *v)
{
    int page = p->kv.page_size != d->kv.page_size;
    int dtype = strcmp(p->kv_cache_dtype.value, d->kv_cache_dtype.value) != 0;
    v->bootstrap_catches = page || dtype;
    if (page)
        str_printf(v->bootstrap, sizeof v->bootstrap,
                   "SGLang's bootstrap fails the pair: \"Page size mismatch\" (%u vs %u)",
                   p->kv.page_size, d->kv.page_size);
    else if (dtype)
        str_printf(v->bootstrap, sizeof v->bootstrap,
                   "SGLang's bootstrap fails the pair: \"KV cache dtype mismatch\" (%s vs %s)",
                   p->kv_cache_dtype.value, d->kv_cache_dtype.value);
    else
        str_printf(v->bootstrap, sizeof v->bootstrap,
                   "SGLang's bootstrap compares page size (%u = %u) and the KV dtype string (%s = "
                   "%s) only: it passes",
                   p->kv.page_size, d->kv.page_size, p->kv_cache_dtype.value, d->kv_cache_dtype.value);
}

/* ----------------------------------------------------------------- fixes */

typedef struct candidate {
    setting_key key;
    char value[KVC_NAME_LEN];
} candidate;

typedef struct fix_search {
    const gpu_info *gpu;
    const model_info *model;
    const settings *base;
    const kvc_resolved *other[2]; /* the other side under [rules, other rules] */
    kvc_rules rules;
    kvc_side side;
    candidate cand[32];
    unsigned ncand;
    settings *scratch;
    kvc_resolved *res;
} fix_search;

static void add_candidate(fix_search *s, setting_key key, const char *value)
{
    if (s->ncand >= COUNT_OF(s->cand)) return;
    candidate *c = &s->cand[s->ncand++];
    c->key = key;
    str_copy(c->value, sizeof c->value, value);
}

static void collect_candidates(fix_search *s)
{
    const kvc_resolved *o = s->other[0];
    if (s->model->dsa) {
        add_candidate(s, SET_KV_CACHE_DTYPE, "fp8_e4m3");
        add_candidate(s, SET_KV_CACHE_DTYPE, "bfloat16");
        for (int k = 0; k < 2; k++)
            for (unsigned i = 0; i < rules_backend_count(); i++)
                if (rules_backend_suggestable(i, s->gpu))
                    add_candidate(s, k == 0 ? SET_PREFILL_BACKEND : SET_DECODE_BACKEND, rules_backend_name(i));
    } else {
        add_candidate(s, SET_KV_CACHE_DTYPE, o->kv_cache_dtype.value);
        add_candidate(s, SET_PAGE_SIZE, o->page_size.value);
    }
}

/* Resolves the side with `pick` applied; 1 when it matches the other side
 * under the rule given by `which` (0 selected, 1 the other). */
static int works(fix_search *s, const unsigned *pick, unsigned k, int which)
{
    memcpy(s->scratch, s->base, sizeof *s->scratch);
    for (unsigned i = 0; i < k; i++) {
        const candidate *c = &s->cand[pick[i]];
        setting *st = &s->scratch->s[c->key];
        st->set = 1;
        str_copy(st->value, sizeof st->value, c->value);
        str_copy(st->flag, sizeof st->flag, setting_flag(c->key));
        origin_set(&st->origin, "", 0, 0, "fix");
    }
    kvc_rules r = which == 0 ? s->rules
                             : (s->rules == KVC_RULES_ACTIVE_BACKEND ? KVC_RULES_EITHER_BACKEND
                                                                      : KVC_RULES_ACTIVE_BACKEND);
    if (rules_resolve(s->gpu, s->model, s->scratch, r, s->res, NULL) != KVC_OK) return 0;
    const kvc_resolved *o = s->other[which];
    return s->side == KVC_SIDE_PREFILL ? mismatches(s->res, o, NULL) == 0 : mismatches(o, s->res, NULL) == 0;
}

typedef struct fix_list {
    kvc_fix f[96];
    unsigned n;
} fix_list;

static void record_fix(fix_list *list, const fix_search *s, const unsigned *pick, unsigned k, int robust)
{
    if (list->n >= COUNT_OF(list->f)) return;
    kvc_fix *f = &list->f[list->n++];
    memset(f, 0, sizeof *f);
    f->side = s->side;
    f->nargs = k;
    f->holds_under_both_rules = robust;
    for (unsigned i = 0; i < k; i++) {
        const candidate *c = &s->cand[pick[i]];
        str_copy(f->args[i][0], KVC_NAME_LEN, setting_flag(c->key));
        str_copy(f->args[i][1], KVC_NAME_LEN, c->value);
        f->changes_dtype |= c->key == SET_KV_CACHE_DTYPE;
    }
}

/* Visits sets of k candidates with distinct keys, in index order. */
static unsigned search_size(fix_search *s, fix_list *list, unsigned k, int need_robust)
{
    unsigned pick[3] = {0};
    unsigned found = 0;
    for (pick[0] = 0; pick[0] < s->ncand; pick[0]++)
        for (pick[1] = k > 1 ? pick[0] + 1 : 0; pick[1] < (k > 1 ? s->ncand : 1); pick[1]++)
            for (pick[2] = k > 2 ? pick[1] + 1 : 0; pick[2] < (k > 2 ? s->ncand : 1); pick[2]++) {
                int distinct = 1;
                for (unsigned a = 0; a < k; a++)
                    for (unsigned b = a + 1; b < k; b++) distinct &= s->cand[pick[a]].key != s->cand[pick[b]].key;
                if (!distinct || !works(s, pick, k, 0)) continue;
                int robust = works(s, pick, k, 1);
                if (need_robust && !robust) continue;
                record_fix(list, s, pick, k, robust);
                found++;
            }
    return found;
}

/* Holds under both rules, keeps the dtype, fewest flags. */
static int fix_score(const kvc_fix *f)
{
    return f->holds_under_both_rules * 100 - f->changes_dtype * 50 - (int)f->nargs * 10;
}

/* How many of the fix's backends match what the other side already runs. */
static int aligned_count(const kvc_fix *f, const kvc_resolved *other)
{
    int n = 0;
    for (unsigned i = 0; i < f->nargs; i++) {
        const char *val = f->args[i][1];
        if (strcmp(f->args[i][0], setting_flag(SET_PREFILL_BACKEND)) == 0) n += strcmp(val, other->dsa_prefill_backend.value) == 0;
        if (strcmp(f->args[i][0], setting_flag(SET_DECODE_BACKEND)) == 0) n += strcmp(val, other->dsa_decode_backend.value) == 0;
    }
    return n;
}

/* Finds the smallest flag sets for one side, plus the smallest that hold
 * under both row rules, and keeps the best three. */
static void search_side(fix_search *s, kvc_verdict *v)
{
    fix_list *list = calloc(1, sizeof *list);
    if (!list) return; /* fixes are advice: without memory there are none */
    unsigned k_min = 0;
    collect_candidates(s);
    for (unsigned k = 1; k <= 3 && !k_min; k++)
        if (search_size(s, list, k, 0)) k_min = k;
    int any_robust = 0;
    for (unsigned i = 0; i < list->n; i++) any_robust |= list->f[i].holds_under_both_rules;
    for (unsigned k = k_min + 1; k_min && !any_robust && k <= 3; k++)
        if (search_size(s, list, k, 1)) break;
    /* Keep the best fix, the best of the smallest size if it is another,
     * then the next best: at most three per side. */
    for (unsigned kept = 0; kept < 3 && v->nfixes < KVC_MAX_FIXES; kept++) {
        int best = -1, best_score = 0;
        for (unsigned i = 0; i < list->n; i++) {
            const kvc_fix *f = &list->f[i];
            if (f->nargs == 0) continue; /* taken */
            if (kept == 1 && f->nargs != k_min && list->n > 1) {
                int have_min = 0;
                for (unsigned j = 0; j < list->n; j++) have_min |= list->f[j].nargs == k_min;
                if (have_min) continue;
            }
            int score = fix_score(f) * 10 + aligned_count(f, s->other[0]);
            if (best < 0 || score > best_score) best = (int)i, best_score = score;
        }
        if (best < 0) break;
        v->fixes[v->nfixes++] = list->f[best];
        list->f[best].nargs = 0;
    }
    free(list);
}

/* Across both sides, best first; stable, so each side keeps its order. */
static void sort_fixes(kvc_verdict *v)
{
    for (unsigned i = 1; i < v->nfixes; i++) {
        kvc_fix f = v->fixes[i];
        unsigned j = i;
        while (j > 0 && fix_score(&v->fixes[j - 1]) < fix_score(&f)) {
            v->fixes[j] = v->fixes[j - 1];
            j--;
        }
        v->fixes[j] = f;
    }
}

/* --------------------------------------------------------------- compare */

static kvc_status label_error(kvc_status st, kvc_side side, kvc_diag *diag)
{
    if (st && diag) {
        char msg[sizeof diag->message];
        str_copy(msg, sizeof msg, diag->message);
        str_printf(diag->message, sizeof diag->message, "%s worker: %s", kvc_side_name(side), msg);
    }
    return st;
}

typedef struct side_inputs {
    gpu_info gpu;
    model_info model;
    settings set;
    kvc_resolved other_rule; /* this side under the rule not selected */
} side_inputs;

kvc_status kvc_compare(const kvc_worker *prefill, const kvc_worker *decode, kvc_rules rules,
                       kvc_verdict *out, kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    const kvc_worker *w[2] = {prefill, decode};
    kvc_resolved *res[2] = {&out->prefill, &out->decode};
    side_inputs *in = calloc(2, sizeof *in);
    settings *scratch = malloc(sizeof *scratch);
    kvc_resolved *tmp = malloc(sizeof *tmp);
    kvc_status st = KVC_OK;
    if (!in || !scratch || !tmp) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    kvc_rules other = rules == KVC_RULES_ACTIVE_BACKEND ? KVC_RULES_EITHER_BACKEND : KVC_RULES_ACTIVE_BACKEND;
    for (int i = 0; i < 2 && !st; i++) {
        st = label_error(worker_inputs(w[i], &in[i].gpu, &in[i].model, &in[i].set, diag), (kvc_side)i, diag);
        if (!st) st = label_error(rules_resolve(&in[i].gpu, &in[i].model, &in[i].set, rules, res[i], diag), (kvc_side)i, diag);
        if (!st) str_copy(res[i]->label, sizeof res[i]->label, kvc_worker_label(w[i]));
        if (!st) st = rules_resolve(&in[i].gpu, &in[i].model, &in[i].set, other, &in[i].other_rule, diag);
    }
    if (!st) {
        mismatches(res[0], res[1], out);
        out->compatible = out->nmismatches == 0;
        explain(res[0], res[1], out);
        bootstrap(res[0], res[1], out);
        if (res[0]->kv_entries > res[1]->kv_entries)
            notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                      "prefill has %u KV entries but decode only %u: prefill's draft (MTP) layers "
                      "have no buffer on decode (kvcheck has not confirmed how SGLang handles this)",
                      res[0]->kv_entries, res[1]->kv_entries);
        else if (res[0]->kv_entries < res[1]->kv_entries)
            notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                      "decode has %u more KV entries than prefill (its draft layers): they receive "
                      "nothing, which SGLang supports",
                      res[1]->kv_entries - res[0]->kv_entries);
        if (!out->compatible && mismatches(&in[0].other_rule, &in[1].other_rule, NULL) == 0)
            notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                      "under the %s rule this pair would be compatible: which rule applies depends "
                      "on the SGLang release",
                      kvc_rules_name(other));
        else if (out->compatible && mismatches(&in[0].other_rule, &in[1].other_rule, NULL) != 0)
            notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                      "under the %s rule this pair would NOT be compatible: set both DSA backend "
                      "flags explicitly on each worker to be safe with either SGLang release",
                      kvc_rules_name(other));
        if (!out->compatible) {
            for (int i = 0; i < 2; i++) {
                fix_search s = {.gpu = &in[i].gpu, .model = &in[i].model, .base = &in[i].set,
                                .other = {res[1 - i], &in[1 - i].other_rule}, .rules = rules,
                                .side = (kvc_side)i, .scratch = scratch, .res = tmp};
                search_side(&s, out);
            }
            sort_fixes(out);
        }
    }
    free(in);
    free(scratch);
    free(tmp);
    return st;
}
