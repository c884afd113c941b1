/* What SGLang does with a PD pair: the flags that could fix a mismatch,
 * the bootstrap check that runs before serving (SGLANG_RULES.md §7), and
 * how the Mooncake transfer moves pages (§6). */
#include "engine/sglang/sglang.h"

#include <string.h>

const engine_transfer PD_MOONCAKE = {
    .name = "Mooncake",
    .offsets_from_sender = 1,
    .overrun_error = "Requested address not found",
};

static unsigned add(engine_fix *out, unsigned n, unsigned max, setting_key key, const char *name,
                    const char *value)
{
    if (n >= max) return n;
    engine_fix *f = &out[n];
    memset(f, 0, sizeof *f);
    f->key = (int)key;
    str_copy(f->flag, sizeof f->flag, setting_flag(key, 0));
    str_copy(f->value, sizeof f->value, value);
    str_copy(f->setting, sizeof f->setting, name);
    f->changes_dtype = key == SET_KV_CACHE_DTYPE;
    return n + 1;
}

unsigned pd_fix_candidates(const kvc_resolved *self, const kvc_resolved *other, engine_fix *out, unsigned max)
{
    unsigned n = 0;
    if (!self->model.dsa) {
        n = add(out, n, max, SET_KV_CACHE_DTYPE, "kv_cache_dtype", resolved_value(other, "kv_cache_dtype"));
        return add(out, n, max, SET_PAGE_SIZE, "page_size", resolved_value(other, "page_size"));
    }
    int rel = engine_release_index(&ENGINE_SGLANG, self->release);
    sglang_release release = rel < 0 ? REL_ACTIVE_BACKEND : (sglang_release)rel;
    n = add(out, n, max, SET_KV_CACHE_DTYPE, "kv_cache_dtype", "fp8_e4m3");
    n = add(out, n, max, SET_KV_CACHE_DTYPE, "kv_cache_dtype", "bfloat16");
    static const struct {
        setting_key key;
        const char *setting;
    } SIDES[] = {{SET_PREFILL_BACKEND, "dsa_prefill_backend"}, {SET_DECODE_BACKEND, "dsa_decode_backend"}};
    for (size_t k = 0; k < COUNT_OF(SIDES); k++)
        for (unsigned i = 0; i < rules_backend_count(); i++)
            if (rules_backend_suggestable(i, &self->gpu, release))
                n = add(out, n, max, SIDES[k].key, SIDES[k].setting, rules_backend_name(i));
    return n;
}

void pd_bootstrap(const kvc_resolved *p, const kvc_resolved *d, int *catches, char *text, size_t size)
{
    const char *pdt = resolved_value(p, "kv_cache_dtype"), *ddt = resolved_value(d, "kv_cache_dtype");
    int page = p->kv.page_size != d->kv.page_size;
    int dtype = strcmp(pdt, ddt) != 0;
    *catches = page || dtype;
    if (page)
        str_printf(text, size, "SGLang's bootstrap fails the pair: \"Page size mismatch\" (%u vs %u)",
                   p->kv.page_size, d->kv.page_size);
    else if (dtype)
        str_printf(text, size, "SGLang's bootstrap fails the pair: \"KV cache dtype mismatch\" (%s vs %s)", pdt,
                   ddt);
    else
        str_printf(text, size,
                   "SGLang's bootstrap compares page size (%u = %u) and the KV dtype string (%s = %s) only: it "
                   "passes",
                   p->kv.page_size, d->kv.page_size, pdt, ddt);
}
