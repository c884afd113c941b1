/* Prefill against decode: field-by-field differences, what decode will read
 * (the engine's transfer), whether the engine's own checks notice, and the
 * smallest flag sets that make the pair agree. Engine-agnostic: settings,
 * fix candidates, the bootstrap check and the transfer come through the
 * engine interface. */
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

/* 1 when both sides have draft entries and a side's draft pool has its own
 * layout (its own KV dtype); otherwise the target's comparison covers them. */
int draft_own_layout(const kvc_resolved *p, const kvc_resolved *d)
{
    return p->draft_entries && d->draft_entries &&
           (strcmp(p->draft.name, p->kv.name) != 0 || strcmp(d->draft.name, d->kv.name) != 0);
}

/* 1 when both sides' KV rows (and a draft's own rows) are the same bytes. */
int same_rows(const kvc_resolved *p, const kvc_resolved *d)
{
    return strcmp(p->kv.name, d->kv.name) == 0 && p->kv.bytes_per_token == d->kv.bytes_per_token &&
           p->kv.page_bytes == d->kv.page_bytes &&
           (!draft_own_layout(p, d) ||
            (strcmp(p->draft.name, d->draft.name) == 0 && p->draft.page_bytes == d->draft.page_bytes));
}

/* The compared settings that differ; `dtypes`: the KV dtype ones too, as
 * each side's engine resolved them. */
static unsigned cmp_settings(const kvc_resolved *p, const kvc_resolved *d, int dtypes, kvc_verdict *v)
{
    unsigned n = 0;
    for (unsigned i = 0; i < p->nsettings; i++) {
        const kvc_setting *s = &p->settings[i];
        if (!(s->flags & KVC_SETTING_COMPARED) || (!dtypes && (s->flags & KVC_SETTING_DTYPE))) continue;
        n += cmp_str(v, s->name, s->flags & KVC_SETTING_DTYPE ? resolved_dtype(p) : s->value,
                     s->flags & KVC_SETTING_DTYPE ? resolved_dtype(d) : resolved_value(d, s->name));
    }
    return n;
}

/* 1 when decode runs the DSA indexer on a layer where prefill does not ("": every layer; "?": not known), so it reads
 * index K prefill never wrote. Pure. */
static int indexer_layers_differ(const kvc_resolved *p, const kvc_resolved *d)
{
    if (!p->has_indexer || !d->has_indexer || !strcmp(p->indexer_layers, "?") || !strcmp(d->indexer_layers, "?") ||
        !p->indexer_layers[0])
        return 0;
    size_t n = strlen(p->indexer_layers);
    for (size_t l = 0; l < n; l++)
        if (p->indexer_layers[l] == 'S' && (!d->indexer_layers[0] || d->indexer_layers[l] == 'F')) return 1;
    return 0;
}

/* The fields that decide whether decode reads what prefill wrote. Records
 * each difference in `v` when given; returns how many there are. Two KV
 * dtype strings with the same rows (auto and the model's own dtype) change
 * no byte: they count where the rows differ, to name why; where only the
 * strings differ, the engine's bootstrap is what may refuse them. */
static unsigned mismatches(const kvc_resolved *p, const kvc_resolved *d, kvc_verdict *v)
{
    unsigned n = 0;
    n += cmp_u64(v, "kv_lora_rank", p->model.kv_lora_rank, d->model.kv_lora_rank);
    n += cmp_u64(v, "qk_rope_head_dim", p->model.qk_rope_head_dim, d->model.qk_rope_head_dim);
    n += cmp_u64(v, "num_hidden_layers", p->model.num_hidden_layers, d->model.num_hidden_layers);
    n += cmp_settings(p, d, !same_rows(p, d), v);
    if (p->state_layers || d->state_layers) {
        n += cmp_u64(v, "attn_layers", p->attn_layers, d->attn_layers);
        n += cmp_u64(v, "state_layers", p->state_layers, d->state_layers);
    }
    for (unsigned i = 0; state_sizes_compare(p, d) && i < p->nstate; i++) {
        char field[KVC_NAME_LEN + 32];
        str_printf(field, sizeof field, "state_%s_item_len", p->state[i].name);
        n += cmp_u64(v, field, p->state[i].item_len, d->state[i].item_len);
    }
    if (p->kv_entries > d->kv_entries) /* prefill's draft entries have no buffer on decode */
        n += cmp_u64(v, "kv_entries", p->kv_entries, d->kv_entries);
    n += cmp_str(v, "layout", p->kv.name, d->kv.name);
    n += cmp_u64(v, "bytes_per_token", p->kv.bytes_per_token, d->kv.bytes_per_token);
    n += cmp_u64(v, "page_size", p->kv.page_size, d->kv.page_size);
    n += cmp_u64(v, "page_bytes", p->kv.page_bytes, d->kv.page_bytes);
    n += cmp_u64(v, "indexer_page_bytes", p->has_indexer ? p->indexer.page_bytes : 0,
                 d->has_indexer ? d->indexer.page_bytes : 0);
    if (indexer_layers_differ(p, d))
        n += cmp_str(v, "indexer_layers", p->indexer_layers[0] ? p->indexer_layers : "all",
                     d->indexer_layers[0] ? d->indexer_layers : "all");
    /* a scale buffer the transfer does not send leaves decode with its own scales, whatever the layouts */
    if ((p->has_scales && p->scales_left) || (d->has_scales && d->scales_left)) {
        char a[KVC_NAME_LEN + 32], b[KVC_NAME_LEN + 32];
        str_printf(a, sizeof a, p->has_scales ? "%s, not sent" : "none", p->scales.name);
        str_printf(b, sizeof b, d->has_scales ? "%s, its own" : "none", d->scales.name);
        add_mismatch(v, "scale_buffer", a, b);
        n++;
    }
    if (draft_own_layout(p, d)) { /* the draft entries travel with their own item length */
        n += cmp_str(v, "draft_layout", p->draft.name, d->draft.name);
        n += cmp_u64(v, "draft_page_bytes", p->draft.page_bytes, d->draft.page_bytes);
    }
    if (p->draft_model_layers && d->draft_model_layers) /* a separate draft model's K and V entries: dtype, shape */
        n += cmp_str(v, "draft_model_pool", resolved_value(p, "draft_model_pool"), resolved_value(d, "draft_model_pool"));
    return n;
}

/* 1 when decode reads what prefill writes and none of the engine's own
 * checks refuses the pair. */
static int pair_ok(const engine_def *e, const kvc_resolved *p, const kvc_resolved *d)
{
    if (mismatches(p, d, NULL)) return 0;
    char stage[sizeof ((kvc_verdict *)0)->caught_at], text[sizeof ((kvc_verdict *)0)->bootstrap];
    return !e->bootstrap(p, d, stage, sizeof stage, text, sizeof text);
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

static void explain(const engine_transfer *t, const kvc_resolved *p, const kvc_resolved *d, kvc_verdict *v)
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
    if (pl->page_bytes < dl->page_bytes && !t->offsets_from_sender)
        notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                  "%s puts prefill's page p at decode's page p (p x %llu B) and copies prefill's %llu B into it: "
                  "the last %llu B of every decode page is never written",
                  t->name, (unsigned long long)dl->page_bytes, (unsigned long long)pl->page_bytes,
                  (unsigned long long)(dl->page_bytes - pl->page_bytes));
    if (pl->page_bytes != dl->page_bytes && t->offsets_from_sender) {
        notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                  "the transfer computes source and destination page offsets from prefill's item "
                  "length (%llu B), but decode reads page p at p x %llu B: decode's pages from p = 1 "
                  "on start at the wrong byte",
                  (unsigned long long)pl->page_bytes, (unsigned long long)dl->page_bytes);
        if (pl->page_bytes > dl->page_bytes)
            notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                      "decode's pages are smaller: copies to its last pages run past the end of "
                      "its buffer by up to %llu B a page (%s: \"%s\")",
                      (unsigned long long)(pl->page_bytes - dl->page_bytes), t->name, t->overrun_error);
        else
            notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                      "decode's pages are larger: the tail of each of its pages (%llu B) is filled "
                      "from prefill's next page or left unwritten",
                      (unsigned long long)(dl->page_bytes - pl->page_bytes));
    }
    if (draft_own_layout(p, d) && strcmp(p->draft.name, d->draft.name) != 0)
        notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                  "the draft (MTP) entries travel with their own item length: decode reads %u-byte %s records "
                  "from prefill's %u-byte %s rows there (%llu vs %llu B a page)",
                  d->draft.bytes_per_token, d->draft.name, p->draft.bytes_per_token, p->draft.name,
                  (unsigned long long)p->draft.page_bytes, (unsigned long long)d->draft.page_bytes);
    if (p->draft_model_layers && d->draft_model_layers &&
        strcmp(resolved_value(p, "draft_model_pool"), resolved_value(d, "draft_model_pool")) != 0)
        notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                  "the draft model's K and V entries travel with prefill's item lengths (%s) into decode's pool (%s): "
                  "decode's draft model attends over bytes that are not its KV as it reads them; the target's KV is "
                  "not touched",
                  resolved_value(p, "draft_model_pool"), resolved_value(d, "draft_model_pool"));
    for (unsigned i = 0; p->state_layers && p->nstate == d->nstate && i < p->nstate; i++) {
        const struct engine_state *ps = &p->state[i], *ds = &d->state[i];
        if (strcmp(ps->dtype, ds->dtype) == 0 && ps->item_len == ds->item_len) continue;
        if (p->state_tp != d->state_tp)
            notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                      "the %u linear layers' %s state is resliced by head from prefill's attention TP %u to decode's "
                      "%u, byte for byte: decode reads prefill's %s values as %s",
                      p->state_layers, ps->name, p->state_tp, d->state_tp, ps->dtype, ds->dtype);
        else
            notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                      "each request's %s state on the %u linear layers is prefill's %s %s (%llu B) sent into decode's "
                      "%s %s slot (%llu B)%s",
                      ps->name, p->state_layers, ps->shape, ps->dtype, (unsigned long long)ps->item_len, ds->shape,
                      ds->dtype, (unsigned long long)ds->item_len,
                      ps->item_len == ds->item_len ? ": the sizes match, so decode reads prefill's bits as another "
                                                     "dtype"
                                                   : "");
    }
    const kvc_resolved *kept = p->has_scales && p->scales_left ? p : d->has_scales && d->scales_left ? d : NULL;
    if (kept)
        notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                  "%s sends the KV buffer without the %u B/token scale buffer (%s): decode dequantizes prefill's "
                  "tokens with whatever its own scale buffer holds",
                  t->name, kept->scales.bytes_per_token, kept->scales_left);
    if (indexer_layers_differ(p, d))
        notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                  "the two sides run the DSA indexer on different layers ('F' runs it, 'S' reuses the previous "
                  "layer's top-k): on the layers where decode runs it and prefill does not, decode selects its top-k "
                  "from index K that prefill never wrote, with no error");
    if (p->has_indexer && d->has_indexer && p->indexer.page_bytes != d->indexer.page_bytes)
        notes_add(v->consequences, &v->nconsequences, KVC_MAX_NOTES,
                  "the DSA indexer state is sent with prefill's state item length (%llu B) and read "
                  "at decode's (%llu B)",
                  (unsigned long long)p->indexer.page_bytes, (unsigned long long)d->indexer.page_bytes);
}

/* ----------------------------------------------------------------- fixes */

/* One side's fix search: candidate flags, tried in sets of up to three,
 * each set resolved under the side's own release. */
typedef struct fix_search {
    const kvc_worker *worker;
    const engine_worker *prepared;
    const kvc_resolved *other; /* the other side as resolved */
    unsigned release;
    kvc_side side;
    engine_fix cand[32];
    unsigned ncand;
    kvc_resolved *res;
} fix_search;

typedef struct found_fix {
    kvc_fix fix;
    unsigned pick[3], npick;
} found_fix;

typedef struct fix_list {
    found_fix f[96];
    unsigned n;
} fix_list;

/* The flags of the candidates `pick`. */
static unsigned flag_count(const fix_search *s, const unsigned *pick, unsigned k)
{
    unsigned n = 0;
    for (unsigned i = 0; i < k; i++) n += s->cand[pick[i]].nflags;
    return n;
}

/* 1 when this side with `pick` applied matches the other side. */
static int works(fix_search *s, const unsigned *pick, unsigned k)
{
    engine_override ov[3 * KVC_MAX_FIX_ARGS];
    unsigned n = 0;
    for (unsigned i = 0; i < k; i++)
        for (unsigned j = 0; j < s->cand[pick[i]].nflags; j++)
            ov[n++] = (engine_override){s->cand[pick[i]].flags[j].key, s->cand[pick[i]].flags[j].value};
    /* a candidate the release refuses, or a layout the model cannot have, is no fix */
    if (worker_resolve(s->worker, s->prepared, s->release, ov, n, s->res, NULL) != KVC_OK) return 0;
    return s->side == KVC_SIDE_PREFILL ? pair_ok(worker_engine(s->worker), s->res, s->other)
                                       : pair_ok(worker_engine(s->worker), s->other, s->res);
}

static void record_fix(fix_list *list, const fix_search *s, const unsigned *pick, unsigned k)
{
    if (list->n >= COUNT_OF(list->f)) return;
    found_fix *ff = &list->f[list->n++];
    memset(ff, 0, sizeof *ff);
    kvc_fix *f = &ff->fix;
    f->side = s->side;
    for (unsigned i = 0; i < k; i++) {
        const engine_fix *c = &s->cand[pick[i]];
        ff->pick[i] = pick[i];
        for (unsigned j = 0; j < c->nflags; j++, f->nargs++) {
            str_copy(f->args[f->nargs][0], KVC_NAME_LEN, c->flags[j].flag);
            str_copy(f->args[f->nargs][1], KVC_NAME_LEN, c->flags[j].value);
        }
        f->changes_dtype |= c->changes_dtype;
    }
    ff->npick = k;
}

/* Visits sets of k candidates with distinct keys and at most KVC_MAX_FIX_ARGS flags in all, in index order. */
static unsigned search_size(fix_search *s, fix_list *list, unsigned k)
{
    unsigned pick[3] = {0};
    unsigned found = 0;
    for (pick[0] = 0; pick[0] < s->ncand; pick[0]++)
        for (pick[1] = k > 1 ? pick[0] + 1 : 0; pick[1] < (k > 1 ? s->ncand : 1); pick[1]++)
            for (pick[2] = k > 2 ? pick[1] + 1 : 0; pick[2] < (k > 2 ? s->ncand : 1); pick[2]++) {
                int distinct = 1;
                for (unsigned a = 0; a < k; a++)
                    for (unsigned b = a + 1; b < k; b++)
                        distinct &= s->cand[pick[a]].flags[0].key != s->cand[pick[b]].flags[0].key;
                if (!distinct || flag_count(s, pick, k) > KVC_MAX_FIX_ARGS || !works(s, pick, k)) continue;
                record_fix(list, s, pick, k);
                found++;
            }
    return found;
}

/* Keeps the dtype, fewest flags. */
static int fix_score(const kvc_fix *f) { return -f->changes_dtype * 50 - (int)f->nargs * 10; }

/* How many of the fix's flags set what the other side already has. */
static int aligned_count(const fix_search *s, const found_fix *ff)
{
    int n = 0;
    for (unsigned i = 0; i < ff->npick; i++) {
        const engine_fix *c = &s->cand[ff->pick[i]];
        n += strcmp(c->flags[0].value, resolved_value(s->other, c->setting)) == 0;
    }
    return n;
}

/* 1 when fix `a` holds every flag of `b` and more: a longer spelling of a fix already kept. */
static int extends(const kvc_fix *a, const kvc_fix *b)
{
    if (a->nargs <= b->nargs) return 0;
    for (unsigned i = 0; i < b->nargs; i++) {
        unsigned j = 0;
        while (j < a->nargs && (strcmp(a->args[j][0], b->args[i][0]) || strcmp(a->args[j][1], b->args[i][1]))) j++;
        if (j == a->nargs) return 0;
    }
    return 1;
}

/* Finds the smallest flag sets for one side and keeps the best three, none a longer spelling of another. */
static void search_side(fix_search *s, kvc_verdict *v)
{
    fix_list *list = calloc(1, sizeof *list);
    if (!list) return; /* fixes are advice: without memory there are none */
    const kvc_resolved *self = s->side == KVC_SIDE_PREFILL ? &v->prefill : &v->decode;
    s->ncand = worker_engine(s->worker)->fix_candidates(self, s->other, s->cand, COUNT_OF(s->cand));
    for (unsigned k = 1; k <= 3; k++)
        if (search_size(s, list, k)) break;
    for (unsigned kept = 0; kept < 3 && v->nfixes < KVC_MAX_FIXES;) {
        int best = -1, best_score = 0;
        for (unsigned i = 0; i < list->n; i++) {
            const kvc_fix *f = &list->f[i].fix;
            if (f->nargs == 0) continue; /* taken */
            int score = fix_score(f) * 10 + aligned_count(s, &list->f[i]);
            if (best < 0 || score > best_score) best = (int)i, best_score = score;
        }
        if (best < 0) break;
        int longer = 0;
        for (unsigned i = 0; i < v->nfixes; i++)
            longer |= v->fixes[i].side == s->side && extends(&list->f[best].fix, &v->fixes[i]);
        if (!longer) v->fixes[v->nfixes++] = list->f[best].fix, kept++;
        list->f[best].fix.nargs = 0;
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

/* Decode's extra entries (its draft layers) receive nothing, which every
 * release's transfers allow; prefill's extra entries are a mismatch, and the
 * engine's bootstrap text says where the engine fails them. */
static void note_entries(const engine_words *w, const kvc_resolved *p, const kvc_resolved *d, kvc_verdict *v)
{
    if (p->kv_entries < d->kv_entries && !v->bootstrap_catches)
        notes_add(v->warnings, &v->nwarnings, KVC_MAX_NOTES,
                  "decode has %u more KV entries than prefill (its draft layers): they receive "
                  "nothing, which %s supports",
                  d->kv_entries - p->kv_entries, w->name);
}

/* A pair's verdict under one release of each side. */
enum outcome { SAME_LAYOUT, MISMATCH, REFUSED };

/* When neither worker names its engine version, the verdict under every
 * release, in runs of releases that agree, oldest first. */
static void note_other_releases(const kvc_worker *const w[2], kvc_resolved *scratch, kvc_verdict *v)
{
    const engine_def *e = worker_engine(w[0]);
    static const char *const WORDS[] = {"compatible", "INCOMPATIBLE", "a side refused"};
    char runs[KVC_NOTE_LEN - 40] = "", item[160];
    int run = -1;
    unsigned first = 0;
    unsigned n = e->nreleases, prev = 0;
    for (unsigned step = 0; step <= n; step++) { /* oldest first; one step past the newest closes the last run */
        unsigned k = step < n ? n - 1 - step : 0;
        int o = -1;
        if (step < n) {
            o = REFUSED; /* each release parses the launch flags its own way */
            engine_worker *prepared[2] = {NULL, NULL};
            if (!worker_prepare_as(w[0], k, &prepared[0], NULL) && !worker_prepare_as(w[1], k, &prepared[1], NULL) &&
                !worker_resolve(w[0], prepared[0], k, NULL, 0, &scratch[0], NULL) &&
                !worker_resolve(w[1], prepared[1], k, NULL, 0, &scratch[1], NULL))
                o = pair_ok(e, &scratch[0], &scratch[1]) ? SAME_LAYOUT : MISMATCH;
            for (int i = 0; i < 2; i++)
                if (prepared[i]) e->prepared_free(prepared[i]);
        }
        if (o != run && run >= 0) {
            str_printf(item, sizeof item, "%s%s%s %s", e->releases[first], first == prev ? "" : "-",
                       first == prev ? "" : e->releases[prev], WORDS[run]);
            str_join_add(runs, sizeof runs, ", ", item);
        }
        if (o != run) first = k, run = o;
        prev = k;
    }
    notes_add(v->warnings, &v->nwarnings, KVC_MAX_NOTES,
              "no %s version given (%s, or \"%s\" in a worker file): judged under %s, the newest release kvcheck "
              "has read",
              e->words.name, e->words.release_option, e->words.release_key, e->releases[0]);
    notes_add(v->warnings, &v->nwarnings, KVC_MAX_NOTES, "the verdict by %s release: %s", e->words.name, runs);
}

typedef struct pair_state {
    engine_worker *prepared[2];
    kvc_resolved scratch[2];
} pair_state;

static kvc_status compare_into(const kvc_worker *const w[2], kvc_verdict *out, pair_state *ps, kvc_diag *diag)
{
    RETURN_IF_ERROR(worker_pair_check(w[0], w[1], diag));
    const engine_def *e = worker_engine(w[0]);
    kvc_resolved *res[2] = {&out->prefill, &out->decode};
    for (int i = 0; i < 2; i++) {
        kvc_status st = label_error(worker_prepare(w[i], &ps->prepared[i], diag), (kvc_side)i, diag);
        if (!st)
            st = label_error(worker_resolve(w[i], ps->prepared[i], worker_release(w[i]), NULL, 0, res[i], diag),
                             (kvc_side)i, diag);
        if (st) return st;
    }
    if (worker_release(w[0]) != worker_release(w[1]))
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                  "prefill runs %s %s and decode %s %s: each side is judged under its own release's rules",
                  e->words.name, res[0]->release, e->words.name, res[1]->release);
    mismatches(res[0], res[1], out);
    out->compatible = out->nmismatches == 0;
    explain(e->transfer(res[0], res[1]), res[0], res[1], out);
    out->bootstrap_catches =
        e->bootstrap(res[0], res[1], out->caught_at, sizeof out->caught_at, out->bootstrap, sizeof out->bootstrap);
    if (out->bootstrap_catches && out->compatible) { /* refused with equal layouts: name the difference */
        if (!cmp_u64(out, "kv_entries", res[0]->kv_entries, res[1]->kv_entries) &&
            !cmp_settings(res[0], res[1], 1, out))
            add_mismatch(out, "engine_check", out->caught_at, out->caught_at); /* the report names the check */
        out->compatible = 0;
    }
    note_entries(&e->words, res[0], res[1], out);
    if (!worker_release_given(w[0]) && !worker_release_given(w[1])) note_other_releases(w, ps->scratch, out);
    if (out->compatible) return KVC_OK;
    for (int i = 0; i < 2; i++) {
        fix_search s = {.worker = w[i], .prepared = ps->prepared[i], .other = res[1 - i],
                        .release = worker_release(w[i]), .side = (kvc_side)i, .res = &ps->scratch[0]};
        search_side(&s, out);
    }
    sort_fixes(out);
    return KVC_OK;
}

kvc_status kvc_compare(const kvc_worker *prefill, const kvc_worker *decode, kvc_verdict **out, kvc_diag *diag)
{
    *out = NULL;
    const kvc_worker *const w[2] = {prefill, decode};
    kvc_verdict *v = calloc(1, sizeof *v);
    pair_state *ps = calloc(1, sizeof *ps);
    kvc_status st = v && ps ? compare_into(w, v, ps, diag) : diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    for (int i = 0; ps && i < 2; i++) {
        if (ps->prepared[i]) worker_engine(w[i])->prepared_free(ps->prepared[i]);
    }
    free(ps);
    if (st) {
        free(v);
        return st;
    }
    *out = v;
    return KVC_OK;
}

/* -------------------------------------------------------------- accessors */

void kvc_verdict_free(kvc_verdict *verdict) { free(verdict); }
int kvc_verdict_compatible(const kvc_verdict *v) { return v->compatible; }
const kvc_resolved *kvc_verdict_side(const kvc_verdict *v, kvc_side side)
{
    return side == KVC_SIDE_DECODE ? &v->decode : &v->prefill;
}
unsigned kvc_verdict_mismatch_count(const kvc_verdict *v) { return v->nmismatches; }
const kvc_mismatch *kvc_verdict_mismatch(const kvc_verdict *v, unsigned i)
{
    return i < v->nmismatches ? &v->mismatches[i] : NULL;
}
unsigned kvc_verdict_consequence_count(const kvc_verdict *v) { return v->nconsequences; }
const char *kvc_verdict_consequence(const kvc_verdict *v, unsigned i)
{
    return i < v->nconsequences ? v->consequences[i] : NULL;
}
int kvc_verdict_bootstrap_catches(const kvc_verdict *v) { return v->bootstrap_catches; }
const char *kvc_verdict_caught_at(const kvc_verdict *v) { return v->caught_at; }
const char *kvc_verdict_bootstrap(const kvc_verdict *v) { return v->bootstrap; }
unsigned kvc_verdict_fix_count(const kvc_verdict *v) { return v->nfixes; }
const kvc_fix *kvc_verdict_fix(const kvc_verdict *v, unsigned i) { return i < v->nfixes ? &v->fixes[i] : NULL; }
unsigned kvc_verdict_warning_count(const kvc_verdict *v) { return v->nwarnings; }
const char *kvc_verdict_warning(const kvc_verdict *v, unsigned i) { return i < v->nwarnings ? v->warnings[i] : NULL; }
