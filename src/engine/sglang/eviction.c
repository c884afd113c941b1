/* --radix-eviction-policy tlru's check of its config (0.5.21+), in the
 * cache compatibility handler right after the decode retraction backup's
 * checks (sglang 0.5.21: python/sglang/srt/arg_groups/kv_cache_hook.py:
 * 375-391; 0.5.23 the same lines): the config's (json.loads') 'threshold'
 * and 'next_prompt_estimate', 0 when absent, must be non-negative, and the
 * threshold greater than the estimate. Both unset, a bare tlru is always
 * refused.
 *
 * kvcheck reads a config that is null or an object, whose two values are
 * ints (of up to 511 digits) or booleans (which Python compares as 1 and 0
 * and prints as True and False). Other configs are declined: a float (its
 * comparison with an int and its repr), a str, a list or null value
 * (Python's TypeError), a top value that is not an object (its
 * AttributeError, or {} where it is falsy). */
#include "engine/sglang/rules.h"

#include <stdlib.h>
#include <string.h>

enum { THRESHOLD, ESTIMATE, FIELDS };
static const char *const FIELD_NAMES[FIELDS] = {"threshold", "next_prompt_estimate"};

typedef struct tlru_config {
    pyjson_member field[FIELDS]; /* each key's last value, as a dict keeps it */
    int given[FIELDS];
} tlru_config;

static void keep_field(void *arg, const pyjson_member *m)
{
    tlru_config *t = arg;
    for (int f = 0; f < FIELDS; f++)
        if (strcmp(m->key, FIELD_NAMES[f]) == 0) t->field[f] = *m, t->given[f] = 1;
}

/* The value of field `f` as an int text into `value`, and as str() prints it into `shown`; 0 where kvcheck does not
 * read it. Pure. */
static int read_field(const tlru_config *t, int f, const char **value, const char **shown)
{
    const pyjson_member *m = &t->field[f];
    if (!t->given[f]) return *value = *shown = "0", 1;
    if (m->kind == PY_TRUE || m->kind == PY_FALSE) {
        *value = m->kind == PY_TRUE ? "1" : "0";
        *shown = m->kind == PY_TRUE ? "True" : "False";
        return 1;
    }
    *value = *shown = strcmp(m->text, "-0") == 0 ? "0" : m->text; /* json.loads' int */
    return m->kind == PY_INT && m->len < sizeof m->text;
}

static const char CITE[] = "sglang 0.5.21: python/sglang/srt/arg_groups/kv_cache_hook.py:";

kvc_status eviction_check(const ctx *c)
{
    const setting *policy = &c->set->s[SET_EVICTION], *config = &c->set->s[SET_EVICTION_CONFIG];
    if (!rel_since(c->rel, "0.5.21") || !set_to(c, SET_EVICTION, "tlru") || c->set->s[SET_PAGE_SIZE].reported)
        return KVC_OK;
    tlru_config t;
    memset(&t, 0, sizeof t);
    py_kind top = PY_NONE;
    if (config->set) {
        strbuf err = {0};
        int ok = pyjson_loads(config->value, 0, &top, keep_field, &t, &err); /* argparse's json.loads took it */
        free(err.p);
        if (!ok) top = PY_OTHER;
    }
    const char *threshold, *estimate, *shown[FIELDS];
    if ((top != PY_NONE && top != PY_DICT) || !read_field(&t, THRESHOLD, &threshold, &shown[THRESHOLD]) ||
        !read_field(&t, ESTIMATE, &estimate, &shown[ESTIMATE]))
        return diag_set(c->diag, KVC_ERR_CONFIG, &config->origin, "%s: SGLang %s compares its 'threshold' and "
                        "'next_prompt_estimate' with 0 and with each other (%s376-391); kvcheck reads an object whose "
                        "two values are ints or booleans, not this one, so it cannot judge this worker", config->flag,
                        SGLANG_VERSIONS[c->rel], CITE);
    if (int_cmp(threshold, "0") < 0 || int_cmp(estimate, "0") < 0)
        return rules_refuse(c, config->set ? config : policy, "ValueError: --radix-eviction-policy tlru requires "
                            "non-negative 'threshold' and 'next_prompt_estimate' in --radix-eviction-policy-config, "
                            "got %s and %s. (%s379-384; 0.5.23 the same)", shown[THRESHOLD], shown[ESTIMATE], CITE);
    if (int_cmp(threshold, estimate) <= 0)
        return rules_refuse(c, config->set ? config : policy, "ValueError: --radix-eviction-policy tlru needs "
                            "'threshold' greater than 'next_prompt_estimate' in --radix-eviction-policy-config, got "
                            "%s <= %s; otherwise no tokens are ever TEL-safe and T-LRU is exactly LRU. (%s385-391; "
                            "0.5.23 the same)", shown[THRESHOLD], shown[ESTIMATE], CITE);
    return KVC_OK;
}
