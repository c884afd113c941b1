/* DSA top-k sharing, release by release: a model may have layers reuse the
 * previous layer's top-k indices (GLM-5.2 and GLM-5.3 share in 57 of 78
 * layers: sglang 0.5.23: python/sglang/srt/layers/attention/dsa/
 * dsa_dcp.py:28-30), read from "index_topk_freq", "index_skip_topk_offset",
 * "index_topk_pattern", "cli_factor" (0.5.18+) and "indexer_types"
 * (0.5.20+). Two things follow: two-batch overlap is refused with sharing
 * (0.5.13+, in the DeepSeek family's model adjustments), and from 0.5.18
 * the DSA pool gives the indexer K cache no rows on a sharing layer where
 * SGLang's gate elides them. Neither changes the MLA row. rules.c calls
 * topk_check_tbo before the DSA prefill CP section and topk_index_layers
 * where it counts the indexer's entries (rules.h). */
#include "engine/sglang/rules.h"

#include <stdio.h>
#include <string.h>

/* The TBO check's spans: freq read without `or 1` (a null one is a TypeError), with it, and with indexer_types and
 * the values in the message. */
static const span TBO_RAW_FREQ = FROM_TO("0.5.13", "0.5.13.post1");
static const span TBO_FREQ = FROM_TO("0.5.14", "0.5.19");
static const span TBO_TYPES = SINCE("0.5.20");
/* From 0.5.15 the DeepSeek family's prefill CP asserts run first (sglang 0.5.19: python/sglang/srt/arg_groups/
 * model_hook.py:153, :172; 0.5.23: :233, :299) */
static const span TBO_AFTER_CP = SINCE("0.5.15");
static const char TBO_MESSAGE[] = "ValueError: --enable-two-batch-overlap is not supported with DSA index-topk sharing "
                                  "(index_topk_freq > 1 or an index_topk_pattern containing shared layers): the TBO "
                                  "op path does not propagate topk indices across layers, so shared layers would run "
                                  "sparse attention without indices.";
static const char TBO_CITE[] = "sglang 0.5.13: python/sglang/srt/server_args.py:1867-1879; 0.5.19: python/sglang/srt/"
                               "arg_groups/model_hook.py:172-183";
static const char TBO_TYPES_CITE[] = "sglang 0.5.20: python/sglang/srt/arg_groups/model_hook.py:48-69; 0.5.23: :54-75";

/* The skip rule's spans (dsa_layer_skips_topk: sglang 0.5.18: python/sglang/srt/configs/model_config.py:200-228;
 * 0.5.20: :311-345; 0.5.23: :488-522): cli_factor first from 0.5.18, indexer_types before it from 0.5.20. */
static const span SKIP_CLI = SINCE("0.5.18");
static const span SKIP_TYPES = SINCE("0.5.20");

/* The gate (_should_elide_dsa_index_k: sglang 0.5.18: python/sglang/srt/mem_cache/kv_cache_configurator.py:94-101;
 * 0.5.20: :105-113; 0.5.22: :126-145; 0.5.23: :131-145): HiSparse, HiCache and a PD mode keep every row up to
 * 0.5.21; the unified cache's external linker from 0.5.20; a draft pool never elides. */
static const span ELIDE = SINCE("0.5.18");
static const span ELIDE_KEEPS_PD = FROM_TO("0.5.18", "0.5.21");
static const span ELIDE_LINKER = SINCE("0.5.20");
/* the pools: sglang 0.5.18: python/sglang/srt/mem_cache/memory_pool.py:4368-4402; 0.5.23: :5303-5353 */
static const char ELIDE_CITE[] = "sglang 0.5.18: python/sglang/srt/mem_cache/kv_cache_configurator.py:94-101; 0.5.23: "
                                 ":131-145";

/* index_topk_freq as SGLang reads it: absent or null is 1. Pure. */
static unsigned freq_of(const model_info *m) { return m->topk_freq ? m->topk_freq : 1; }

/* 1 when layer `l` reuses the previous layer's top-k under release `rel` (0.5.18+). Pure. */
/* 0.5.10-0.5.12's model code does not read index_skip_topk_offset (topk_layers) */
static const span INLINE_NO_OFFSET = FROM_TO("0.5.10", "0.5.12.post1");

static int skips_topk(const model_info *m, unsigned rel, unsigned l)
{
    if (in_span(rel, SKIP_TYPES) && m->topk_types_kind == TOPK_PLAIN)
        return l < strlen(m->topk_types) && m->topk_types[l] == 'S';
    if (in_span(rel, SKIP_CLI) && m->cli_factor > 1) return l % m->cli_factor != 0;
    if (m->topk_pattern_kind == TOPK_PLAIN) return l < strlen(m->topk_pattern) && m->topk_pattern[l] == 'S';
    if (m->topk_offset && !in_span(rel, INLINE_NO_OFFSET))
        return (l + 1 > m->topk_offset ? l + 1 - m->topk_offset : 0) % freq_of(m) != 0;
    return (l > 1 ? l - 1 : 0) % freq_of(m) != 0;
}

/* Python's repr of the pattern or the list for the 0.5.20+ message ("None" where absent); 0 where kvcheck cannot
 * write it (a word other than full or shared). Pure. */
static int pattern_repr(const model_info *m, char *out, size_t size)
{
    if (m->topk_pattern_kind == TOPK_NONE) return snprintf(out, size, "None"), 1;
    return m->topk_pattern_kind == TOPK_PLAIN && snprintf(out, size, "'%s'", m->topk_pattern) > 0;
}
static int types_repr(const model_info *m, char *out, size_t size)
{
    if (m->topk_types_kind == TOPK_NONE) return snprintf(out, size, "None"), 1;
    if (m->topk_types_kind != TOPK_PLAIN || strchr(m->topk_types, 'X')) return 0;
    size_t n = (size_t)snprintf(out, size, "[");
    for (const char *t = m->topk_types; *t && n < size; t++)
        n += (size_t)snprintf(out + n, size - n, "%s'%s'", t == m->topk_types ? "" : ", ",
                              *t == 'S' ? "shared" : "full");
    if (n < size) snprintf(out + n, size - n, "]");
    return n + 1 < size;
}

kvc_status topk_check_tbo(const ctx *c, int after_cp)
{
    const model_info *m = c->model;
    const setting *tbo = &c->set->s[SET_TBO];
    if (!tbo->set || !c->dsa || !c->defaults || c->set->s[SET_PAGE_SIZE].reported) return KVC_OK;
    if (after_cp != in_span(c->rel, TBO_AFTER_CP)) return KVC_OK;
    if (in_span(c->rel, TBO_RAW_FREQ) && m->topk_freq_null)
        return rules_refuse(c, tbo, "TypeError: '>' not supported between instances of 'NoneType' and 'int' (the "
                            "config's index_topk_freq is null: %s)", TBO_CITE);
    int shared = freq_of(m) > 1 || (m->topk_pattern_kind == TOPK_PLAIN && strchr(m->topk_pattern, 'S'));
    if (in_span(c->rel, TBO_RAW_FREQ) || in_span(c->rel, TBO_FREQ)) {
        if (m->topk_pattern_kind == TOPK_OTHER)
            return diag_set(c->diag, KVC_ERR_CONFIG, &tbo->origin, "%s: SGLang %s refuses it where the config's "
                            "index_topk_pattern contains \"S\" (%s), and kvcheck reads only a pattern of letters and "
                            "digits, so it cannot judge this worker", tbo->flag, SGLANG_VERSIONS[c->rel], TBO_CITE);
        return shared ? rules_refuse(c, tbo, "%s (%s)", TBO_MESSAGE, TBO_CITE) : KVC_OK;
    }
    if (!in_span(c->rel, TBO_TYPES)) return KVC_OK;
    char pattern[KVC_TOPK_LAYERS + 8], types[12 * KVC_TOPK_LAYERS];
    int readable = pattern_repr(m, pattern, sizeof pattern) && types_repr(m, types, sizeof types);
    shared = shared || (m->topk_types_kind == TOPK_PLAIN && strchr(m->topk_types, 'S'));
    if (!readable && (shared || m->topk_pattern_kind == TOPK_OTHER || m->topk_types_kind == TOPK_OTHER))
        return diag_set(c->diag, KVC_ERR_CONFIG, &tbo->origin, "%s: SGLang %s refuses it with DSA index-topk sharing "
                        "and names the config's index_topk_pattern and indexer_types in Python's words (%s), which "
                        "kvcheck writes only for a pattern of letters and digits and a list of \"full\" and "
                        "\"shared\", so it cannot judge this worker", tbo->flag, SGLANG_VERSIONS[c->rel],
                        TBO_TYPES_CITE);
    if (!shared) return KVC_OK;
    return rules_refuse(c, tbo, "ValueError: --enable-two-batch-overlap is not supported with DSA index-topk sharing: "
                        "the TBO op path does not propagate topk indices across layers, so shared layers would run "
                        "sparse attention without indices. Got index_topk_freq=%u, index_topk_pattern=%s, and "
                        "indexer_types=%s. (%s)", freq_of(m), pattern, types, TBO_TYPES_CITE);
}

/* Which layers the model gives their own indexer, release by release (DeepseekV2AttentionMLA: sglang 0.5.10:
 * python/sglang/srt/models/deepseek_v2.py:1203-1218, the pattern else index_topk_freq, no offset; 0.5.13: :1560-1596,
 * the offset too; 0.5.14: dsa_layer_skips_topk, :1604-1609; 0.5.16-0.5.17: cli_factor first, :1677-1686; 0.5.18:
 * :1820-1827; 0.5.23: :2110-2117). Before 0.5.10 every layer has one. */
static const span SHARING = SINCE("0.5.10");
static const span INLINE = FROM_TO("0.5.10", "0.5.13.post1");
static const span MODEL_CLI = FROM_TO("0.5.16", "0.5.17");

int topk_layers(const model_info *m, unsigned rel, char *out, size_t size)
{
    unsigned n = m->num_hidden_layers, shared = 0;
    out[0] = '\0';
    if (!in_span(rel, SHARING)) return 0;
    if (n >= size || m->topk_pattern_kind == TOPK_OTHER ||
        (in_span(rel, SKIP_TYPES) && m->topk_types_kind == TOPK_OTHER))
        return -1;
    /* the inline code: a null index_topk_freq is a TypeError, a short pattern an IndexError */
    if (in_span(rel, INLINE) && (m->topk_pattern_kind == TOPK_PLAIN ? strlen(m->topk_pattern) < n : m->topk_freq_null))
        return -1;
    for (unsigned l = 0; l < n; l++) {
        int skip = in_span(rel, MODEL_CLI) && m->cli_factor > 1 ? l % m->cli_factor != 0 : skips_topk(m, rel, l);
        out[l] = skip ? 'S' : 'F';
        shared += (unsigned)skip;
    }
    out[n] = '\0';
    if (!shared) out[0] = '\0';
    return shared > 0;
}

int topk_index_layers(const ctx *c, unsigned layers, unsigned *kept, char *why, size_t size)
{
    const model_info *m = c->model;
    *kept = layers;
    if (!in_span(c->rel, ELIDE) || !c->dsa) return 0;
    int pd = pd_worker(c);
    int keeps = c->set->s[SET_HISPARSE].set || (in_span(c->rel, ELIDE_LINKER) && c->set->s[SET_EXTERNAL_LINKER].set) ||
                (in_span(c->rel, ELIDE_KEEPS_PD) && (pd || c->set->s[SET_HICACHE].set));
    if (keeps && !c->hybrid) return 0;
    if (m->topk_pattern_kind == TOPK_OTHER || (in_span(c->rel, SKIP_TYPES) && m->topk_types_kind == TOPK_OTHER)) {
        snprintf(why, size, "SGLang %s gives the DSA indexer K cache no rows on the layers that reuse the previous "
                 "layer's top-k (%s), and kvcheck does not read this config's index_topk_pattern or indexer_types, so "
                 "its indexer figures count every layer", SGLANG_VERSIONS[c->rel], ELIDE_CITE);
        return -1;
    }
    unsigned skipped = 0;
    for (unsigned l = 0; l < m->num_hidden_layers; l++) skipped += (unsigned)skips_topk(m, c->rel, l);
    if (!skipped) return 0;
    if (c->hybrid) { /* the hybrid linear-attention pool elides past the gate (a PD mode too) */
        snprintf(why, size, "SGLang %s may give the DSA indexer K cache no rows on the layers that reuse the previous "
                 "layer's top-k (%s); kvcheck does not model the hybrid linear-attention pool's elision, so its "
                 "indexer figures count every layer", SGLANG_VERSIONS[c->rel], ELIDE_CITE);
        return -1;
    }
    *kept = layers - skipped;
    snprintf(why, size, "SGLang %s gives the DSA indexer K cache no rows on the %u of %u target layers that reuse the "
             "previous layer's top-k (the config's %s); HiSparse%s%s keeps them (%s)", SGLANG_VERSIONS[c->rel],
             skipped, m->num_hidden_layers,
             in_span(c->rel, SKIP_TYPES) && m->topk_types_kind == TOPK_PLAIN ? "indexer_types"
             : in_span(c->rel, SKIP_CLI) && m->cli_factor > 1                 ? "cli_factor"
             : m->topk_pattern_kind == TOPK_PLAIN                              ? "index_topk_pattern"
                                                                               : "index_topk_freq",
             in_span(c->rel, ELIDE_KEEPS_PD) ? ", HiCache, a PD mode" : "",
             in_span(c->rel, ELIDE_LINKER) ? " or the unified cache's external linker" : "", ELIDE_CITE);
    return 1;
}
