/* SGLang's rules for a worker's MLA KV layout, release by release, as read
 * from each release's own code (tools/sglang-oracle/ERAS.md) and checked by
 * replaying the oracle's tables (tests/conformance/sglang/).
 *
 * Every table row names the releases it holds for as a span of versions
 * (both ends included) and cites the code. A resolution walks the steps in
 * SGLang's own order: DSA or not, KV dtype, DSA backends (the first default
 * row that matches), the checks that refuse at start-up, HiSparse, page
 * size, the row width. */
#include "engine/sglang/rules.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------- architectures */

/* Which architectures[0] a release takes as DSA (is_deepseek_nsa /
 * is_deepseek_dsa: the architecture and "index_topk" in the config), and
 * which of them get the DSA defaults (the DeepSeek-family guard around
 * dtype, backend and page-size defaults). */
static const struct arch_row {
    const char *arch;
    span dsa;
    span defaults;
    const char *cite;
} ARCHS[] = {
    /* sglang 0.5.3: python/sglang/srt/configs/model_config.py:52; guard
     * sglang 0.5.9: python/sglang/srt/server_args.py:1196-1205; sglang 0.5.23:
     * python/sglang/srt/arg_groups/overrides.py:744-759 */
    {"DeepseekV3ForCausalLM", EVER, EVER, "model_config.py is_deepseek_nsa"},
    /* Up to 0.5.11 SGLang loads a deepseek_v32 config as DeepseekV3ForCausalLM, since the transformers it
     * pins (4.57.1, 5.3.0, 5.6.0) has no deepseek_v32 (sglang 0.5.9: python/sglang/srt/utils/
     * hf_transformers_utils.py:177-205, :315-321); from 0.5.12 the family guard names it (sglang 0.5.12:
     * python/sglang/srt/server_args.py:1787-1795). Either way it gets the DSA defaults. */
    {"DeepseekV32ForCausalLM", EVER, EVER, "hf_transformers_utils.py _load_deepseek_v32_model; 0.5.12 guard"},
    /* the DSA defaults take every is_deepseek_nsa architecture to 0.5.5.post3; from 0.5.6 they are under the guard
     * (sglang 0.5.5.post3: python/sglang/srt/server_args.py:1097; 0.5.6: :939-940) */
    {"DeepseekV3ForCausalLMNextN", SINCE("0.5.4"), UNTIL("0.5.5.post3"), "sglang 0.5.4: model_config.py"},
    /* sglang 0.5.6.post1: python/sglang/srt/configs/model_config.py:53-65; guard python/sglang/srt/server_args.py:959-963 */
    {"MistralLarge3ForCausalLM", SINCE("0.5.6.post1"), SINCE("0.5.6.post1"), "sglang 0.5.6.post1: model_config.py"},
    {"PixtralForConditionalGeneration", SINCE("0.5.6.post1"), SINCE("0.5.6.post1"), "sglang 0.5.6.post1: model_config.py"},
    {"GlmMoeDsaForCausalLM", SINCE("0.5.9"), SINCE("0.5.9"), "sglang 0.5.9: model_config.py"},
    /* never DSA, in the family guard (trtllm_mla on SM100): sglang 0.5.9: python/sglang/srt/server_args.py:1197-1203;
     * 0.5.23: python/sglang/srt/arg_groups/overrides.py:744-759 */
    {"KimiK25ForConditionalGeneration", NEVER, SINCE("0.5.9"), "sglang 0.5.9: server_args.py; guard only"},
    {"GlmMoeDsaForCausalLMNextN", SINCE("0.5.16"), NEVER, "sglang 0.5.16: model_config.py; not in the guard"},
    {"LongcatFlashForCausalLM", SINCE("0.5.16"), SINCE("0.5.16"), "sglang 0.5.16: model_config.py"},
    {"LongcatFlashForCausalLMNextN", SINCE("0.5.16"), SINCE("0.5.16"), "sglang 0.5.16: model_config.py"},
    {"Dots3NoteForCausalLM", SINCE("0.5.19"), SINCE("0.5.19"), "sglang 0.5.19: model_config.py"},
    {"Dots3NoteForCausalLMNextN", SINCE("0.5.19"), NEVER, "sglang 0.5.19: model_config.py; not in the guard"},
    {"Glm5NextForConditionalGeneration", SINCE("0.5.20"), SINCE("0.5.20"), "sglang 0.5.20: model_config.py"},
    {"Glm5NextForConditionalGenerationNextN", SINCE("0.5.20"), NEVER, "sglang 0.5.20: model_config.py; not in the guard"},
    {"HYV4ForCausalLM", SINCE("0.5.20"), SINCE("0.5.20"), "sglang 0.5.20: model_config.py"},
    {"HYV4ForCausalLMNextN", SINCE("0.5.20"), SINCE("0.5.20"), "sglang 0.5.20: model_config.py"},
};

/* The architectures SGLang runs as MLA models (ModelConfig._derive_model_shapes'
 * first MLA branch, the release that first lists each; sglang 0.5.3rc2:
 * python/sglang/srt/configs/model_config.py:296-305; 0.5.23: :1367-1396).
 * SGLang reads the names anywhere in "architectures", kvcheck reads the first.
 * A config with MLA fields under another name SGLang runs with another
 * attention, or its other MLA branches (MiniCPM3, DeepSeek-VL2, Kimi-VL,
 * Kimi Linear, Bailing, Sarvam), which kvcheck does not model, or refuses at
 * model load. */
static const struct mla_arch_row {
    const char *arch;
    const char *since; /* NULL: every release */
} MLA_ARCHS[] = {
    {"DeepseekV2ForCausalLM", NULL}, {"DeepseekV32ForCausalLM", NULL}, {"DeepseekV3ForCausalLM", NULL},
    {"DeepseekV3ForCausalLMNextN", NULL}, {"LongcatFlashForCausalLM", NULL}, {"LongcatFlashForCausalLMNextN", NULL},
    {"DotsVLMForCausalLM", NULL},
    /* sglang 0.5.6.post1: python/sglang/srt/configs/model_config.py:339-341 */
    {"MistralLarge3ForCausalLM", "0.5.6.post1"}, {"PixtralForConditionalGeneration", "0.5.6.post1"},
    {"MistralLarge3ForCausalLMEagle", "0.5.6.post1"},
    {"Glm4MoeLiteForCausalLM", "0.5.8"},           /* 0.5.8: :387 */
    {"GlmMoeDsaForCausalLM", "0.5.9"},             /* 0.5.9: :423 */
    {"KimiK25ForConditionalGeneration", "0.5.9"},  /* 0.5.9: :430 */
    {"Eagle3DeepseekV2ForCausalLM", "0.5.12"},     /* 0.5.12: :616 */
    {"Glm4MoeLiteForCausalLMNextN", "0.5.13"},     /* 0.5.13: :620 */
    {"GlmMoeDsaForCausalLMNextN", "0.5.16"},       /* 0.5.16: :796 */
    {"Dots3NoteForCausalLM", "0.5.19"},            /* 0.5.19: :936-937 */
    {"Dots3NoteForCausalLMNextN", "0.5.19"},
    {"Glm5NextForConditionalGeneration", "0.5.20"}, /* 0.5.20: :1102-1107 */
    {"Glm5NextForConditionalGenerationNextN", "0.5.20"}, {"HYV4ForCausalLM", "0.5.20"},
    {"HYV4ForCausalLMNextN", "0.5.20"},
    {"GigaChat35ForCausalLM", "0.5.21"}, /* 0.5.21: :1205-1206 */
    {"GigaChat35ForCausalLMNextN", "0.5.21"},
};
static const char MLA_ARCHS_CITE[] =
    "sglang 0.5.3rc2: python/sglang/srt/configs/model_config.py:296-305; 0.5.23: :1367-1396";

static int mla_arch(const char *arch, unsigned rel)
{
    for (size_t i = 0; i < COUNT_OF(MLA_ARCHS); i++)
        if (strcmp(MLA_ARCHS[i].arch, arch) == 0) return sglang_release_in(rel, MLA_ARCHS[i].since, NULL);
    return 0;
}

/* Architectures a release has no model class for (none of its models/ modules
 * lists one as EntryClass) before `since`. Its model loader then looks in
 * transformers, where none of the versions the releases pin has them
 * either, and refuses at model load, after the argument checks
 * (MODEL_CLASS_MESSAGE). */
static const struct served_row {
    const char *arch;
    const char *since;
    const char *cite; /* the first class */
} SERVED[] = {
    {"MistralLarge3ForCausalLM", "0.5.6.post1", "sglang 0.5.6.post1: python/sglang/srt/models/mistral_large_3.py:78"},
    /* before, pixtral.py's EntryClass is PixtralVisionModel alone (sglang 0.5.6: python/sglang/srt/models/pixtral.py:459) */
    {"PixtralForConditionalGeneration", "0.5.6.post1", "sglang 0.5.6.post1: python/sglang/srt/models/pixtral.py:1023"},
    {"GlmMoeDsaForCausalLM", "0.5.9", "sglang 0.5.9: python/sglang/srt/models/glm4_moe.py:1288"},
    {"GlmMoeDsaForCausalLMNextN", "0.5.16", "sglang 0.5.16: python/sglang/srt/models/glm4_moe.py:1539"},
    {"Glm5NextForConditionalGeneration", "0.5.20", "sglang 0.5.20: python/sglang/srt/models/glm5_next.py:1649"},
};

/* resolve_transformers_arch's refusal, the same in every release ({arch}). */
static const char MODEL_CLASS_MESSAGE[] =
    "Cannot find model module. '{arch}' is not a registered model in the Transformers library (only relevant if the "
    "model is meant to be in Transformers) and 'AutoModel' is not present in the model config's 'auto_map' (relevant "
    "if the model is custom).";
static const char MODEL_CLASS_CITE[] =
    "sglang 0.5.5: python/sglang/srt/model_loader/utils.py:48-57; sglang 0.5.15.post1: :149-159";

/* Architectures SGLang serves with KV pools kvcheck does not model: refused,
 * never judged as plain MLA. */
static const struct unmodelled_row {
    const char *arch;
    const char *why;
} UNMODELLED[] = {
    /* modelled for 0.5.12-0.5.23 (DSV4_ARCHES); not before (no model class read) */
    {"DeepseekV4ForCausalLM", "DeepSeek-V4's own pools under this release (kvcheck models them for SGLang "
                              "0.5.12-0.5.23 on CUDA: tools/sglang-oracle/DSV4.md)"},
    /* a stand-alone NextN worker does not get the DeepSeek-V4 hook (sglang 0.5.12: server_args.py:1777-1784) */
    {"DeepseekV4ForCausalLMNextN", "DeepSeek-V4's own pools, without the DeepSeek-V4 start-up hook for a stand-alone "
                                   "NextN worker"},
    {"DeepseekV4ForCausalLMDSpark", "DeepSeek-V4's own pools"},
    {"DeepseekV41ForCausalLM", "DeepSeek-V4.1's own pools (from 0.5.21 loaded as DeepseekV4ForCausalLM with model_type "
                               "deepseek_v41, sglang 0.5.21: python/sglang/srt/configs/deepseek_v41.py:23-45)"},
    {"Dots3NoteForCausalLM", "a hybrid pool of DSA layers and sliding-window MLA layers with their own kv_lora_rank "
                             "(SWAKVPool, sglang 0.5.23: python/sglang/srt/mem_cache/kv_cache_configurator.py:"
                             "2401-2454)"},
    {"Glm5NextForConditionalGenerationNextN",
     "a pool not confirmed for a stand-alone server of its MTP layer (as a target its model_type glm5_next makes it "
     "a DSA + linear-attention hybrid, sglang 0.5.23: python/sglang/srt/configs/hybrid_arch.py:126-133; SGLang "
     "builds it as Glm5NextForConditionalGeneration's draft)"},
    {"MiniMaxM3SparseForCausalLM", "MiniMax M3's sparse-attention pools"},
    {"MiniMaxM3SparseForConditionalGeneration", "MiniMax M3's sparse-attention pools"},
};

/* The SERVED row saying this release has no model class for the
 * architecture (it takes the model for an MHA model), or NULL. */
static const struct served_row *unserved(const char *arch, unsigned rel)
{
    for (size_t i = 0; i < COUNT_OF(SERVED); i++)
        if (strcmp(SERVED[i].arch, arch) == 0 && !sglang_release_in(rel, SERVED[i].since, NULL)) return &SERVED[i];
    return NULL;
}

static int arch_dsa(const char *arch, unsigned rel)
{
    for (size_t i = 0; i < COUNT_OF(ARCHS); i++)
        if (strcmp(ARCHS[i].arch, arch) == 0 && in_span(rel, ARCHS[i].dsa)) return 1;
    return 0;
}

int rules_arch_defaults(const char *arch, unsigned rel)
{
    for (size_t i = 0; i < COUNT_OF(ARCHS); i++)
        if (strcmp(ARCHS[i].arch, arch) == 0 && in_span(rel, ARCHS[i].defaults))
            return 1;
    return 0;
}

/* The architecture SGLang gives an MTP draft worker's model config (its
 * NextN rewrite); others keep the target's. The draft pool is DSA only when
 * that architecture is (0.5.3rc2-0.5.3.post3 do not take
 * DeepseekV3ForCausalLMNextN as DSA: plain MLA draft rows). */
static const struct draft_arch_row {
    const char *target;
    span when;
    const char *draft;
    const char *cite;
} DRAFT_ARCHS[] = {
    {"DeepseekV3ForCausalLM", EVER, "DeepseekV3ForCausalLMNextN", "sglang 0.5.3: python/sglang/srt/configs/model_config.py:220-224"},
    {"DeepseekV32ForCausalLM", EVER, "DeepseekV3ForCausalLMNextN", "sglang 0.5.23: python/sglang/srt/configs/model_config.py:1032-1036"},
    {"GlmMoeDsaForCausalLM", FROM_TO("0.5.9", "0.5.15.post1"), "DeepseekV3ForCausalLMNextN",
     "sglang 0.5.9: python/sglang/srt/configs/model_config.py:275-279"},
    {"GlmMoeDsaForCausalLM", SINCE("0.5.16"), "GlmMoeDsaForCausalLMNextN", "sglang 0.5.23: python/sglang/srt/configs/model_config.py:1038-1039"},
    {"LongcatFlashForCausalLM", EVER, "LongcatFlashForCausalLMNextN", "sglang 0.5.23: python/sglang/srt/configs/model_config.py:1085-1089"},
    /* the rewrite also drops linear_attn_config: the draft is one DSA layer, no linear layers */
    {"Glm5NextForConditionalGeneration", SINCE("0.5.20"), "Glm5NextForConditionalGenerationNextN",
     "sglang 0.5.20: python/sglang/srt/configs/model_config.py:822-829; sglang 0.5.23: :1071-1078"},
    /* an MHA draft there (not in MLA_ARCHS): declined (check_mtp_draft) */
    {"Glm4MoeLiteForCausalLM", FROM_TO("0.5.8", "0.5.12.post1"), "Glm4MoeForCausalLMNextN",
     "sglang 0.5.8: python/sglang/srt/configs/model_config.py:275-279; 0.5.12.post1: :430-434"},
    {"Glm4MoeLiteForCausalLM", SINCE("0.5.13"), "Glm4MoeLiteForCausalLMNextN",
     "sglang 0.5.13: python/sglang/srt/configs/model_config.py:431-435; 0.5.23: :1065-1069"},
    {"GigaChat35ForCausalLM", SINCE("0.5.21"), "GigaChat35ForCausalLMNextN",
     "sglang 0.5.21: python/sglang/srt/configs/model_config.py:932-936; 0.5.23: :1110-1114"},
    {"HYV4ForCausalLM", SINCE("0.5.20"), "HYV4ForCausalLMNextN",
     "sglang 0.5.20: python/sglang/srt/configs/model_config.py:946-948; 0.5.23: :1209-1211"},
};

/* Draft architectures whose num_nextn_predict_layers (the draft's KV
 * entries) SGLang's rewrite sets over the config's. */
static const struct draft_layers_row {
    const char *draft;
    span when;
    unsigned layers;
    const char *cite;
} DRAFT_LAYERS[] = {
    {"HYV4ForCausalLMNextN", SINCE("0.5.20"), 1,
     "sglang 0.5.20: python/sglang/srt/configs/model_config.py:946-948; 0.5.23: :1209-1211"},
    {"Glm5NextForConditionalGenerationNextN", SINCE("0.5.20"), 1,
     "sglang 0.5.20: python/sglang/srt/configs/model_config.py:822-829; 0.5.23: :1071-1078"},
};

/* Hybrid architectures: their full-attention layers are DSA layers in a
 * HybridLinearKVPool (the same MLA rows and indexer K cache as a plain DSA
 * pool, on those layers only), their other layers Kimi Delta Attention
 * linear layers with no KV, whose per-request recurrent state lives in a
 * MambaPool (sglang 0.5.20: python/sglang/srt/mem_cache/
 * kv_cache_configurator.py:1254-1291, :1826-1917; sglang 0.5.23: :1858-1905,
 * :2605-2712). The config class picks the linear layers:
 * linear_attn_config["kda_layers"], else layer_types "linear_attention",
 * else every layer i with i % 4 != 3; the state's sizes come from
 * linear_attn_config, else linear_num_heads, linear_head_dim,
 * linear_conv_kernel_dim (defaults below). */
static const struct hybrid_row {
    const char *arch;
    span when;
    uint32_t heads, head_dim, conv_kernel; /* the config class's defaults */
    const char *cite;
} HYBRID[] = {
    {"Glm5NextForConditionalGeneration", SINCE("0.5.20"), 64, 128, 4,
     "sglang 0.5.23: python/sglang/srt/configs/glm5_next.py:128-131, :198-225, :243-268"},
};

static const struct hybrid_row *hybrid_row(const char *arch, unsigned rel)
{
    for (size_t i = 0; i < COUNT_OF(HYBRID); i++)
        if (strcmp(HYBRID[i].arch, arch) == 0 && in_span(rel, HYBRID[i].when)) return &HYBRID[i];
    return NULL;
}

static const struct draft_arch_row *draft_arch_row(const char *target, unsigned rel)
{
    for (size_t i = 0; i < COUNT_OF(DRAFT_ARCHS); i++)
        if (strcmp(DRAFT_ARCHS[i].target, target) == 0 && in_span(rel, DRAFT_ARCHS[i].when)) return &DRAFT_ARCHS[i];
    return NULL;
}

static const char *draft_arch(const char *target, unsigned rel)
{
    const struct draft_arch_row *r = draft_arch_row(target, rel);
    return r ? r->draft : target;
}

/* The MTP draft's layers (its draft KV entries): the config's
 * num_nextn_predict_layers unless SGLang's rewrite sets it (DRAFT_LAYERS,
 * its row in `row`). Pure. */
static unsigned draft_layers(const model_info *m, unsigned rel, const struct draft_layers_row **row)
{
    const char *draft = draft_arch(m->architecture, rel);
    *row = NULL;
    for (size_t i = 0; i < COUNT_OF(DRAFT_LAYERS); i++)
        if (strcmp(DRAFT_LAYERS[i].draft, draft) == 0 && in_span(rel, DRAFT_LAYERS[i].when)) *row = &DRAFT_LAYERS[i];
    return *row ? (*row)->layers : m->num_nextn_predict_layers;
}

/* 1 when the release takes a draft of config `m` as DSA: its draft config's
 * architecture (draft_arch) is. Pure. */
static int draft_dsa(const model_info *m, unsigned rel)
{
    return m->index_topk && arch_dsa(draft_arch(m->architecture, rel), rel);
}

/* ------------------------------------------------------------- contexts */

static const char *const SIDE[2] = {"prefill", "decode"};

/* Room in `c` for one more attention backend's page rule: its `why`. Each
 * of the three attention flags names one backend with a page rule, plus
 * the trtllm_mha side KV4 sets: MAX_ATTN is never passed. */
static char *add_attn(ctx *c, const struct attn_rule *r)
{
    unsigned i = c->nattn < MAX_ATTN ? c->nattn++ : MAX_ATTN - 1;
    c->attn[i] = r;
    return c->attn_why[i];
}

void rules_from_text(const setting *s, char *out, size_t size)
{
    char where[600];
    origin_format(&s->origin, where, sizeof where);
    int path = s->origin.where[0] && strcmp(s->origin.where, s->flag) != 0;
    if (where[0] && path) snprintf(out, size, "%s (%s) at %s", s->flag, s->origin.where, where);
    else if (where[0]) snprintf(out, size, "%s at %s", s->flag, where);
    else snprintf(out, size, "%s", s->flag);
}

kvc_setting *rules_get(kvc_resolved *r, const char *name)
{
    for (unsigned i = 0; i < r->nsettings; i++)
        if (strcmp(r->settings[i].name, name) == 0) return &r->settings[i];
    return NULL;
}

/* --dcp-size, 1 when not given; signed, for the values below one SGLang refuses. */
static long dcp_size(const ctx *c)
{
    const setting *s = &c->set->s[SET_DCP];
    return s->set ? strtol(s->value, NULL, 10) : 1;
}
/* --dcp-comm-backend as given, else "ag_rs": its default up to 0.5.19, and from 0.5.20 what SGLang resolves it to
 * with a DCP size of one or less (sglang 0.5.17: python/sglang/srt/server_args.py:1076-1087; 0.5.20:
 * python/sglang/srt/arg_groups/overrides.py:1430-1434; 0.5.23: :1374-1378). Above one, 0.5.20+ resolves it to a2a or
 * fi_a2a on every GPU kvcheck knows (ag_rs only off CUDA, ROCm and XPU; :1379-1396), which no DCP check refuses. */
static const char *dcp_comm(const ctx *c)
{
    const setting *s = &c->set->s[SET_DCP_COMM];
    return s->set ? s->value : "ag_rs";
}

kvc_status rules_refuse(const ctx *c, const setting *s, const char *fmt, ...)
{
    char msg[sizeof c->diag->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap); /* diag_set marks a message it cuts */
    va_end(ap);
    return diag_set(c->diag, KVC_ERR_CONFIG, s ? &s->origin : NULL, "SGLang %s refuses to start: %s",
                    SGLANG_VERSIONS[c->rel], msg);
}

void rule_field(rule_fields *f, const char *name, const char *fmt, ...)
{
    if (f->n >= COUNT_OF(f->name)) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text[f->n], sizeof f->text[f->n], fmt, ap);
    va_end(ap);
    f->name[f->n++] = name;
}

kvc_status rules_table(const ctx *c, const flag_rule *rows, size_t n, int stage, const rule_hooks *hooks)
{
    if (c->set->s[SET_PAGE_SIZE].reported) return KVC_OK;
    static const rule_hooks none = {0};
    if (!hooks) hooks = &none;
    for (size_t i = 0; i < n; i++) {
        const flag_rule *r = &rows[i];
        if (r->stage != stage || !in_span(c->rel, r->when) || !r->refused(c)) continue;
        const setting *s = hooks->blamed ? hooks->blamed(c, r) : &c->set->s[r->blame];
        if (!r->message)
            return diag_set(c->diag, KVC_ERR_CONFIG, s->set ? &s->origin : NULL, "%s%s%s: SGLang %s then checks %s "
                            "(%s), which kvcheck does not model, so it cannot judge this worker", s->flag,
                            s->value[0] ? " " : "", s->value, SGLANG_VERSIONS[c->rel], hooks->unmodelled, r->cite);
        rule_fields f;
        f.n = 0;
        rule_field(&f, "value", "%s", s->value);
        if (hooks->fields) hooks->fields(c, r, &f);
        const char *pairs[COUNT_OF(f.name)][2];
        for (size_t k = 0; k < f.n; k++) pairs[k][0] = f.name[k], pairs[k][1] = f.text[k];
        char msg[sizeof c->diag->message];
        sglang_expand(r->message, (const char *const(*)[2])pairs, f.n, msg, sizeof msg);
        return rules_refuse(c, s->set ? s : NULL, "%s (%s)", msg, r->cite);
    }
    return KVC_OK;
}

/* --------------------------------------------------------------- dtypes */

/* The torch dtype a --kv-cache-dtype string gives the pool, and its
 * layout when rows are plain (one element type for NoPE and RoPE). */
static const struct dtype_row {
    const char *name;
    const char *plain_layout; /* NULL: rows are not R + r elements of one type */
    int fp4;                  /* torch.float4_e2m1fn_x2 (two E2M1 values a byte): fp4_pool() decides */
} DTYPES[] = {
    {"bfloat16", "bf16", 0}, {"bf16", "bf16", 0}, {"float16", "fp16", 0}, {"float32", "fp32", 0},
    {"fp8_e4m3", "fp8_raw", 0}, {"fp8_e5m2", "fp8_e5m2_raw", 0},
    /* sglang 0.5.5: python/sglang/srt/model_executor/model_runner.py:1534-1536; sglang 0.5.23:
     * python/sglang/srt/mem_cache/kv_cache_dtype.py:76-78 */
    {"fp4_e2m1", NULL, 1}, {"nvfp4", NULL, 1}, {"fp4_mx_block16", NULL, 1},
    {"mxfp8", NULL, 0}, /* on CUDA the pool stores it as fp8_e4m3 (DTYPE_ALIASES); ROCm refuses it first */
};

static const struct dtype_row *find_dtype(const char *name)
{
    for (size_t i = 0; i < COUNT_OF(DTYPES); i++)
        if (strcmp(DTYPES[i].name, name) == 0) return &DTYPES[i];
    return NULL;
}

/* SGLang's model dtype strings, for --dtype and the config's dtype
 * (_STR_DTYPE_TO_TORCH_DTYPE: sglang 0.5.3rc2: python/sglang/srt/configs/
 * model_config.py:685-691; 0.5.23: :2274-2280), as DTYPES names. */
static const struct { const char *name, *dtype; } MODEL_DTYPES[] = {
    {"half", "float16"}, {"float16", "float16"}, {"float", "float32"}, {"float32", "float32"}, {"bfloat16", "bfloat16"},
};
static const char MODEL_DTYPE_CITE[] =
    "_get_and_verify_dtype, sglang 0.5.3rc2: python/sglang/srt/configs/model_config.py:695-751; 0.5.23: :2284-2344";

/* Architectures (of the target) whose model dtype SGLang sets over --dtype:
 * the process's dtype, so a separate draft's too. */
static const struct model_dtype_override {
    span when;
    const char *archs; /* space-separated */
    const char *dtype;
    const char *cite;
} MODEL_DTYPE_OVERRIDES[] = {
    {SINCE("0.5.6.post1"), "MistralLarge3ForCausalLM PixtralForConditionalGeneration", "bfloat16",
     "sglang 0.5.6.post1: python/sglang/srt/server_args.py:953-957; 0.5.15: python/sglang/srt/arg_groups/"
     "overrides.py:62-67; 0.5.23: python/sglang/srt/arg_groups/model_override_base.py:18-22"},
};

static const char *model_dtype_name(const char *s)
{
    for (size_t i = 0; i < COUNT_OF(MODEL_DTYPES); i++)
        if (strcmp(MODEL_DTYPES[i].name, s) == 0) return MODEL_DTYPES[i].dtype;
    return NULL;
}

/* The dtype SGLang runs model `m` in (ModelConfig.dtype), which a KV dtype
 * of auto takes: the target architecture's override, else --dtype unless
 * auto, else the config's dtype, float32 or none as float16 (bfloat16 for
 * a gemma model type). NULL where the config names a dtype outside SGLang's
 * table (transformers makes it that torch dtype, which kvcheck does not
 * follow). `why` says how, without the dtype. Pure. */
static const char *model_dtype(unsigned rel, const char *target_arch, const setting *flag, const model_info *m,
                               char *why, size_t size)
{
    for (size_t i = 0; i < COUNT_OF(MODEL_DTYPE_OVERRIDES); i++) {
        const struct model_dtype_override *o = &MODEL_DTYPE_OVERRIDES[i];
        if (!in_span(rel, o->when) || !word_in(target_arch, o->archs)) continue;
        str_printf(why, size, "SGLang %s runs %s in %s whatever --dtype says: %s", SGLANG_VERSIONS[rel],
                   target_arch, o->dtype, o->cite);
        return o->dtype;
    }
    if (flag->set && strcmp(flag->value, "auto") != 0) {
        const char *d = model_dtype_name(flag->value);
        str_printf(why, size, "given by %s %s", flag->flag, flag->value);
        return d;
    }
    const char *given = m->torch_dtype[0] ? model_dtype_name(m->torch_dtype) : "float32";
    if (!given) {
        str_printf(why, size, "the config's dtype %s, which SGLang's table does not name (%s)", m->torch_dtype,
                   MODEL_DTYPE_CITE);
        return NULL;
    }
    const char *d = strcmp(given, "float32") != 0               ? given
                    : strncmp(m->model_type, "gemma", 5) == 0 ? "bfloat16"
                                                              : "float16";
    if (d == given)
        str_printf(why, size, "the config's dtype");
    else if (m->torch_dtype[0])
        str_printf(why, size, "the config's dtype is %s, which SGLang runs as %s: %s", m->torch_dtype, d,
                   MODEL_DTYPE_CITE);
    else
        str_printf(why, size, "the config gives no dtype, which SGLang takes as float32 and runs as %s: %s", d,
                   MODEL_DTYPE_CITE);
    return d;
}

/* How a release turns the DSA KV dtype (inside the family guard). */
static const struct dsa_dtype_rule {
    span when;
    int sm10_forces_fp8;  /* compute capability >= 10 sets fp8_e4m3 over any value */
    int auto_by_major;    /* auto -> fp8_e4m3 on >= 10, else bfloat16 */
    int learnable_sink;   /* learnable sinks need bfloat16 (auto -> bfloat16) */
    const char *assertion; /* the dtype assertion's text, NULL: none */
    const char *cite;
} DSA_DTYPE[] = {
    {UNTIL("0.5.4.post1"), 1, 0, 0, NULL, "sglang 0.5.3: python/sglang/srt/server_args.py:831-836"},
    {FROM_TO("0.5.4.post2", "0.5.7"), 0, 1, 0, "DeepSeek NSA only supports bf16/bfloat16 or fp8_e4m3 kv_cache_dtype",
     "sglang 0.5.5: python/sglang/srt/server_args.py:1081-1092"},
    {FROM_TO("0.5.8", "0.5.19"), 0, 1, 0, "DeepSeek DSA only supports bf16/bfloat16 or fp8_e4m3 kv_cache_dtype",
     "sglang 0.5.9: python/sglang/srt/server_args.py:1129-1152"},
    {SINCE("0.5.20"), 0, 1, 1, "DeepSeek DSA only supports bf16/bfloat16 or fp8_e4m3 kv_cache_dtype",
     "sglang 0.5.23: python/sglang/srt/arg_groups/overrides.py:491-547"},
};

static const struct dsa_dtype_rule *dsa_dtype_rule(unsigned rel)
{
    for (size_t i = 0; i < COUNT_OF(DSA_DTYPE); i++)
        if (in_span(rel, DSA_DTYPE[i].when)) return &DSA_DTYPE[i];
    return &DSA_DTYPE[0];
}

/* The torch dtype name of SGLang's KV pool for `dtype` on this GPU:
 * fp8_e4m3 is e4m3fnuz on every ROCm GPU up to 0.5.6.post1 (sglang 0.5.3:
 * python/sglang/srt/model_executor/model_runner.py:1417) and on gfx94x
 * (MI300X, MI325X) after (sglang 0.5.9:
 * python/sglang/srt/layers/quantization/fp8_kernel.py:90-98). */
static int fp8_is_fnuz(const ctx *c)
{
    if (!c->gpu->hip) return 0;
    if (rel_until(c->rel, "0.5.6.post1")) return 1;
    return c->gpu->major == 9 && c->gpu->minor == 4;
}

/* The name of FP8 dtype `d` ("fp8_e4m3", "fp8_e5m2") as this GPU stores
 * it: e4m3fnuz where fp8_is_fnuz; e5m2fnuz on ROCm up to 0.5.6.post1,
 * where later releases store fp8_e5m2 as the platform's fp8_e4m3
 * (DTYPE_ALIASES; sglang 0.5.5: python/sglang/srt/model_executor/
 * model_runner.py:1522-1526); else `d`. Pure. */
static const char *fp8_stored_name(const ctx *c, const char *d)
{
    if (strcmp(d, "fp8_e4m3") == 0 && fp8_is_fnuz(c)) return "fp8_e4m3fnuz";
    if (strcmp(d, "fp8_e5m2") == 0 && c->gpu->hip && rel_until(c->rel, "0.5.6.post1")) return "fp8_e5m2fnuz";
    return d;
}

static const char KV_DTYPE_STR_CITE[] = "sglang 0.5.18: python/sglang/srt/mem_cache/kv_cache_dtype.py:37-45, "
                                        "python/sglang/srt/model_executor/model_runner.py:1335-1339; 0.5.23: "
                                        "python/sglang/srt/mem_cache/kv_cache_dtype.py:49-57, "
                                        "python/sglang/srt/model_executor/model_runner.py:1572-1576";
const char KV_QUANT_CITE[] = "sglang 0.5.3rc2: python/sglang/srt/model_executor/model_runner.py:1397-1408; "
                                    "0.5.23: python/sglang/srt/mem_cache/kv_cache_dtype.py:49-59";

/* A KV dtype `flag` of auto (`from`) where the model's quantization config
 * asks for a KV dtype: refused as unjudged. */
static kvc_status kv_quant_unjudged(const ctx *c, const char *flag, const char *from)
{
    kvc_origin o;
    origin_set(&o, "", 0, 0, "model");
    return diag_set(c->diag, KVC_ERR_CONFIG, &o,
                    "%s auto (%s) with the model's quantization config naming %s: SGLang takes the KV dtype from the "
                    "quantization method's config then (FP8 where its kv_cache_quant_algo is FP8: %s), which kvcheck "
                    "does not model for this method and config; pass %s",
                    flag, from, c->model->kv_quant, KV_QUANT_CITE, flag);
}

/* --kv-cache-dtype auto: what the pool takes then (c->auto_dtype), or
 * refused as unjudged where kvcheck cannot tell it: a quantization config
 * that asks for a KV dtype of a method kvcheck does not follow, a config
 * dtype outside SGLang's table. */
static kvc_status model_dtype_auto(const ctx *c, kvc_setting *v, const char *from)
{
    kvc_origin o;
    origin_set(&o, "", 0, 0, "model");
    if (c->model->kv_quant[0] && !c->auto_dtype) return kv_quant_unjudged(c, "--kv-cache-dtype", from);
    if (!c->mdtype) {
        return diag_set(c->diag, KVC_ERR_CONFIG, &o, "--kv-cache-dtype auto (%s) takes the model's dtype, and %s: "
                        "kvcheck cannot tell the KV dtype; pass --dtype or --kv-cache-dtype", from, c->mdtype_why);
    }
    if (c->model->kv_quant[0])
        setting_set(v, "auto", "auto (%s): %s", from, c->auto_why);
    if (c->model->kv_quant[0] && c->auto_dtype != c->mdtype)
        setting_set(rules_get(c->out, "kv_cache_dtype_str"), c->auto_dtype, "the model runner's kv_cache_dtype_str, "
                    "which PD registers and its bootstrap compares: the dtype it resolves auto to (%s)",
                    KV_DTYPE_STR_CITE);
    if (!c->model->kv_quant[0])
        setting_set(v, "auto", "auto (%s): the model's dtype, %s (%s)", from, c->mdtype, c->mdtype_why);
    const setting *flag = &c->set->s[SET_MODEL_DTYPE];
    kvc_setting *d = rules_get(c->out, "dtype");
    setting_set(d, c->mdtype, "%s", c->mdtype_why);
    if (flag->set) setting_origin(d, &flag->origin);
    return KVC_OK;
}

static kvc_status resolve_dtype(ctx *c)
{
    const setting *s = &c->set->s[SET_KV_CACHE_DTYPE];
    kvc_setting *v = rules_get(c->out, "kv_cache_dtype");
    const char *given = s->set ? s->value : "auto";
    char from[900] = "default";
    if (s->set) rules_from_text(s, from, sizeof from);
    c->dtype = given;
    if (!c->defaults) {
        setting_origin(v, s->set ? &s->origin : NULL);
        if (strcmp(given, "auto") == 0) return model_dtype_auto(c, v, from);
        setting_set(v, given, "set by %s", from);
        return KVC_OK;
    }
    const struct dsa_dtype_rule *r = dsa_dtype_rule(c->rel);
    unsigned major = c->gpu->hip ? 9 : c->gpu->major;
    if (r->learnable_sink && c->model->learnable_sink && strcmp(given, "auto") && strcmp(given, "bf16") &&
        strcmp(given, "bfloat16"))
        return rules_refuse(c, s, "Learnable DSA attention sinks require a bfloat16 KV cache; got kv_cache_dtype=%s.",
                      given);
    if (r->sm10_forces_fp8 && major >= 10) {
        c->dtype = "fp8_e4m3";
        setting_set(v, c->dtype, "forced to fp8_e4m3 on compute capability %u.%u (%s ignored): \"Setting KV cache "
                    "dtype to fp8.\" (%s)", c->gpu->major, c->gpu->minor, from, r->cite);
    } else if (r->auto_by_major && strcmp(given, "auto") == 0) {
        c->dtype = major >= 10 && !(r->learnable_sink && c->model->learnable_sink) ? "fp8_e4m3" : "bfloat16";
        setting_set(v, c->dtype, "auto: SGLang picks %s for DSA models on compute capability %u.%u%s (%s)", c->dtype,
                    c->gpu->major, c->gpu->minor,
                    r->learnable_sink && c->model->learnable_sink ? " with learnable attention sinks" : "", r->cite);
    } else if (r->auto_by_major && strcmp(given, "bf16") == 0) {
        c->dtype = "bfloat16";
        setting_set(v, c->dtype, "bf16 is SGLang's alias of bfloat16 (%s)", from);
    } else if (strcmp(given, "auto") == 0) {
        kvc_status st = model_dtype_auto(c, v, from);
        if (st) return st;
    } else {
        setting_set(v, given, "set by %s", from);
        setting_origin(v, &s->origin);
    }
    if (r->assertion && strcmp(c->dtype, "bfloat16") && strcmp(c->dtype, "fp8_e4m3"))
        return rules_refuse(c, s, "%s (%s %s)", r->assertion, s->set ? s->flag : "--kv-cache-dtype", given);
    return KVC_OK;
}

/* KV dtype strings a platform stores as another one's torch dtype: on ROCm
 * fp8_e5m2 is the platform's native fp8 (fp8_kernel.fp8_dtype) from
 * 0.5.6.post2, the same as fp8_e4m3's; mxfp8 is torch.float8_e4m3fn, and
 * an MLA or DSA pool of it is built as for fp8_e4m3 (no MXFP8 variant of
 * those pools exists, unlike the MHA one: MHATokenToKVPoolMXFP8). */
static const struct dtype_alias {
    span when;
    int hip; /* 1: ROCm, 0: CUDA */
    const char *given, *stored;
    const char *cite;
} DTYPE_ALIASES[] = {
    {SINCE("0.5.6.post2"), 1, "fp8_e5m2", "fp8_e4m3",
     "sglang 0.5.6.post2: python/sglang/srt/model_executor/model_runner.py:1640-1644; sglang 0.5.16: "
     "python/sglang/srt/mem_cache/kv_cache_dtype.py:43-47"},
    {SINCE("0.5.16"), 0, "mxfp8", "fp8_e4m3",
     "sglang 0.5.16: python/sglang/srt/mem_cache/kv_cache_dtype.py:53-54; sglang 0.5.23: "
     "python/sglang/srt/mem_cache/kv_cache_configurator.py:1866-1881"},
};

/* The alias row that stores KV dtype string `d` as another on this
 * release and platform, or NULL. Pure. */
static const struct dtype_alias *dtype_alias(const ctx *c, const char *d)
{
    for (size_t i = 0; i < COUNT_OF(DTYPE_ALIASES); i++)
        if (in_span(c->rel, DTYPE_ALIASES[i].when) && DTYPE_ALIASES[i].hip == c->gpu->hip &&
            strcmp(DTYPE_ALIASES[i].given, d) == 0)
            return &DTYPE_ALIASES[i];
    return NULL;
}

/* The --kv-cache-dtype string whose torch dtype the pool has: "auto" is the
 * model's dtype. Pure. */
static const char *stored_dtype(const ctx *c, const char *dtype)
{
    const char *d = strcmp(dtype, "auto") != 0 ? dtype : c->auto_dtype ? c->auto_dtype : "auto";
    const struct dtype_alias *a = dtype_alias(c, d);
    return a ? a->stored : d;
}

/* The torch dtype's row layout facts for the resolved dtype string. */
static const struct dtype_row *torch_row(const ctx *c, const char *dtype)
{
    return find_dtype(stored_dtype(c, dtype));
}

/* ------------------------------------------------------------- backends */

/* The dataclass defaults of the backend flags, used when neither the user
 * nor a default row sets them (sglang 0.5.3: server_args.py:290-291; 0.5.5:
 * :367-368; from 0.5.9 None, sglang 0.5.9: server_args.py:457-462). */
static const struct field_default {
    span when;
    const char *prefill, *decode;
} FIELD_DEFAULTS[] = {
    {UNTIL("0.5.3.post3"), "flashmla_prefill", "fa3"},
    {FROM_TO("0.5.4", "0.5.8.post1"), "flashmla_sparse", "fa3"},
};

/* What a default row asks of the worker. */
enum cond {
    C_ANY,
    C_FP8,            /* dtype fp8_e4m3 */
    C_NOT_FP8,        /* any other dtype */
    C_HISPARSE,       /* --enable-hisparse */
    C_HIP_BOTH_UNSET, /* ROCm, both backend flags unset */
    C_HIP,            /* ROCm */
    C_GLM_SM12_FP8,   /* GlmMoeDsaForCausalLM, CUDA compute capability 12.x, fp8_e4m3 */
    C_LEARNABLE_SINK, /* the config has learnable_sink */
};

/* What the row sets. */
enum pick {
    P_FIXED,            /* prefill, decode as written */
    P_HISPARSE_BY_DTYPE /* fp8_e4m3: flashmla_kv, else flashmla_sparse; on ROCm `hip_value` */
};

/* SGLang's backend defaults, first match wins (an if/elif chain in every
 * release). `min_major`/`max_major` bound the compute capability (ROCm
 * GPUs count as major 9). `force`: the row overrides the user's flags.
 * `checked`: SGLang's backend checks run after this row. */
static const struct default_row {
    span when;
    enum cond cond;
    unsigned min_major, max_major;
    enum pick pick;
    const char *prefill, *decode;
    const char *hip_value;
    int force, checked;
    const char *why;
    const char *cite;
} DEFAULTS[] = {
    /* 0.5.3-0.5.8.post1: fixed overrides, user flags ignored */
    {UNTIL("0.5.3.post3"), C_FP8, 0, 99, P_FIXED, "flashmla_decode", "flashmla_decode", NULL, 1, 0,
     "with fp8_e4m3 (user flags ignored)", "sglang 0.5.3: python/sglang/srt/server_args.py:838-843"},
    {FROM_TO("0.5.4", "0.5.4.post1"), C_FP8, 0, 99, P_FIXED, "flashmla_kv", "flashmla_kv", NULL, 1, 0,
     "with fp8_e4m3 (user flags ignored)", "sglang 0.5.4: python/sglang/srt/server_args.py:1034-1039"},
    {FROM_TO("0.5.4.post2", "0.5.8.post1"), C_FP8, 0, 99, P_FIXED, "flashmla_auto", "flashmla_kv", NULL, 1, 0,
     "with fp8_e4m3 (user flags ignored)", "sglang 0.5.5: python/sglang/srt/server_args.py:1094-1100"},
    {FROM_TO("0.5.4.post2", "0.5.8.post1"), C_NOT_FP8, 10, 99, P_FIXED, "flashmla_sparse", "flashmla_sparse", NULL,
     1, 0, "with bfloat16 on compute capability >= 10 (user flags ignored)", "sglang 0.5.5: python/sglang/srt/server_args.py:1101-1105"},
    /* 0.5.9 on: unset sides only, except where noted */
    {SINCE("0.5.20"), C_LEARNABLE_SINK, 0, 99, P_FIXED, "flashmla_sparse", "flashmla_sparse", NULL, 0, 0,
     "for learnable attention sinks", "sglang 0.5.23: python/sglang/srt/arg_groups/overrides.py:643-660"},
    {SINCE("0.5.17"), C_GLM_SM12_FP8, 12, 12, P_FIXED, "flashinfer_sparse_mla", "flashinfer_sparse_mla", NULL, 0, 0,
     "for GLM with fp8_e4m3 on SM120/SM121", "sglang 0.5.17: python/sglang/srt/arg_groups/overrides.py:1578-1600"},
    {FROM_TO("0.5.10", "0.5.11"), C_HISPARSE, 0, 99, P_FIXED, "flashmla_sparse", "flashmla_sparse", NULL, 0, 0,
     "with --enable-hisparse", "sglang 0.5.10: python/sglang/srt/server_args.py:1448-1458"},
    {FROM_TO("0.5.12", "0.5.13.post1"), C_HISPARSE, 0, 99, P_HISPARSE_BY_DTYPE, NULL, NULL, NULL, 0, 0,
     "with --enable-hisparse", "sglang 0.5.12: python/sglang/srt/arg_groups/hisparse_hook.py:19-46"},
    {FROM_TO("0.5.14", "0.5.19"), C_HISPARSE, 0, 99, P_HISPARSE_BY_DTYPE, NULL, NULL, "tilelang", 0, 0,
     "with --enable-hisparse", "sglang 0.5.14: python/sglang/srt/arg_groups/hisparse_hook.py:25-28"},
    {SINCE("0.5.20"), C_HISPARSE, 0, 99, P_HISPARSE_BY_DTYPE, NULL, NULL, "tilelang", 0, 1,
     "with --enable-hisparse", "sglang 0.5.23: python/sglang/srt/arg_groups/overrides.py:664-700"},
    {FROM_TO("0.5.10", "0.5.19"), C_HIP_BOTH_UNSET, 0, 99, P_FIXED, "tilelang", "tilelang", NULL, 0, 1,
     "on ROCm/HIP with both DSA backends unset", "sglang 0.5.10: python/sglang/srt/server_args.py:1460-1462"},
    {SINCE("0.5.20"), C_HIP, 0, 99, P_FIXED, "triton", "triton", NULL, 0, 1, "on ROCm/HIP",
     "sglang 0.5.23: python/sglang/srt/arg_groups/overrides.py:702-706"},
    {FROM_TO("0.5.9", "0.5.9"), C_FP8, 0, 99, P_FIXED, "flashmla_auto", "flashmla_kv", NULL, 0, 1, "with fp8_e4m3",
     "sglang 0.5.9: python/sglang/srt/server_args.py:1157-1163"},
    {FROM_TO("0.5.10", "0.5.10.post1"), C_FP8, 10, 99, P_FIXED, "trtllm", "trtllm", NULL, 1, 1,
     "with fp8_e4m3 on compute capability >= 10 (user flags ignored)", "sglang 0.5.10: python/sglang/srt/server_args.py:1463-1466"},
    {SINCE("0.5.11"), C_FP8, 10, 99, P_FIXED, "trtllm", "trtllm", NULL, 0, 1, "with fp8_e4m3 on compute capability >= 10",
     "sglang 0.5.11: python/sglang/srt/server_args.py:1623-1628"},
    {FROM_TO("0.5.10", "0.5.10.post1"), C_FP8, 0, 9, P_FIXED, "flashmla_auto", "flashmla_kv", NULL, 0, 1,
     "with fp8_e4m3 on compute capability < 10", "sglang 0.5.10: python/sglang/srt/server_args.py:1467-1471"},
    {SINCE("0.5.11"), C_FP8, 0, 9, P_FIXED, "flashmla_kv", "flashmla_kv", NULL, 0, 1, "with fp8_e4m3 on compute capability < 10",
     "sglang 0.5.11: python/sglang/srt/server_args.py:1629-1634"},
    {SINCE("0.5.9"), C_NOT_FP8, 10, 99, P_FIXED, "flashmla_sparse", "trtllm", NULL, 0, 1,
     "with bfloat16 on compute capability >= 10", "sglang 0.5.9: python/sglang/srt/server_args.py:1166-1171"},
    {SINCE("0.5.9"), C_NOT_FP8, 0, 9, P_FIXED, "flashmla_sparse", "fa3", NULL, 0, 1, "with bfloat16 on compute capability < 10",
     "sglang 0.5.9: python/sglang/srt/server_args.py:1172-1177"},
};

static int cond_holds(const ctx *c, enum cond cond)
{
    switch (cond) {
    case C_ANY: return 1;
    case C_FP8: return c->fp8;
    case C_NOT_FP8: return !c->fp8;
    case C_HISPARSE: return c->set->s[SET_HISPARSE].set;
    case C_HIP_BOTH_UNSET: return c->gpu->hip && !c->user_set[PREFILL] && !c->user_set[DECODE];
    case C_HIP: return c->gpu->hip;
    case C_GLM_SM12_FP8:
        return !c->gpu->hip && c->fp8 && strcmp(c->model->architecture, "GlmMoeDsaForCausalLM") == 0;
    case C_LEARNABLE_SINK: return c->model->learnable_sink;
    }
    return 0;
}

static const char *row_value(const ctx *c, const struct default_row *d, int side)
{
    if (d->pick == P_HISPARSE_BY_DTYPE)
        return c->gpu->hip && d->hip_value ? d->hip_value : c->fp8 ? "flashmla_kv" : "flashmla_sparse";
    return side == PREFILL ? d->prefill : d->decode;
}

/* A backend check SGLang runs after the defaults: refuses when `backend`
 * is on either side (or, `both`, not on both) under its conditions. */
static const struct backend_check {
    span when;
    const char *backend;
    int cuda_only;   /* only on CUDA (on ROCm the backend is fine) */
    int fp8_only;    /* only with fp8_e4m3 */
    int unless_both; /* refused unless both sides use it */
    int hisparse;    /* only with --enable-hisparse */
    int dcp;         /* only with --dcp-size above 1 */
    const char *message;
    const char *cite;
} CHECKS[] = {
    /* HiSparse's arm checks TileLang before the shared backend checks */
    {SINCE("0.5.22"), "tilelang", 1, 1, 0, 1, 0, "CUDA TileLang FP8 KV does not support HiSparse.",
     "sglang 0.5.23: python/sglang/srt/arg_groups/overrides.py:686-692"},
    {FROM_TO("0.5.17", "0.5.19"), "tilelang", 1, 1, 0, 0, 0,
     "The tilelang DSA prefill/decode kernels only support an fp8_e4m3 KV cache on ROCm/HIP; on CUDA they require a "
     "bfloat16 KV cache. Use --kv-cache-dtype bfloat16 with the tilelang backend, or keep --kv-cache-dtype fp8_e4m3 and "
     "pick an fp8-capable DSA backend (flashmla_kv on Hopper, trtllm on Blackwell).",
     "sglang 0.5.17: python/sglang/srt/arg_groups/overrides.py:1554-1575"},
    {SINCE("0.5.20"), "triton", 1, 0, 0, 0, 0,
     "The triton DSA backend is only supported on ROCm/HIP. Pick an alternative DSA backend for CUDA (flashmla_kv on "
     "Hopper, trtllm on Blackwell).",
     "sglang 0.5.20: python/sglang/srt/arg_groups/overrides.py:621-635"},
    {FROM_TO("0.5.20", "0.5.21"), "tilelang", 1, 1, 0, 0, 0,
     "The tilelang DSA prefill/decode kernels only support an fp8_e4m3 KV cache on ROCm/HIP; on CUDA they require a "
     "bfloat16 KV cache. Use --kv-cache-dtype bfloat16, or keep --kv-cache-dtype fp8_e4m3 and pick an fp8-capable DSA "
     "backend (flashmla_kv on Hopper, trtllm on Blackwell).",
     "sglang 0.5.20: python/sglang/srt/arg_groups/overrides.py:637-647"},
    {SINCE("0.5.22"), "tilelang", 1, 1, 1, 0, 0,
     "CUDA TileLang FP8 KV requires both DSA backends to be tilelang; raw and scaled FP8 KV layouts cannot be mixed.",
     "sglang 0.5.23: python/sglang/srt/arg_groups/overrides.py:560-567"},
    {SINCE("0.5.22"), "tilelang", 1, 1, 0, 0, 1, "CUDA TileLang FP8 KV does not support --dcp-size > 1.",
     "sglang 0.5.22: python/sglang/srt/arg_groups/overrides.py:552-553; 0.5.23: :576-577"},
};

static kvc_status run_checks(const ctx *c, int hisparse_arm)
{
    for (size_t i = 0; i < COUNT_OF(CHECKS); i++) {
        const struct backend_check *k = &CHECKS[i];
        if (!in_span(c->rel, k->when) || (k->cuda_only && c->gpu->hip) || (k->fp8_only && !c->fp8)) continue;
        if ((k->hisparse && !hisparse_arm) || (k->dcp && dcp_size(c) <= 1)) continue;
        int p = strcmp(c->backend[PREFILL], k->backend) == 0, d = strcmp(c->backend[DECODE], k->backend) == 0;
        if (k->unless_both ? (p || d) && !(p && d) : (p || d)) {
            int side = p ? PREFILL : DECODE;
            const setting *s = &c->set->s[side == PREFILL ? SET_PREFILL_BACKEND : SET_DECODE_BACKEND];
            return rules_refuse(c, s->set ? s : NULL, "%s (%s)", k->message, k->cite);
        }
    }
    return KVC_OK;
}

static void set_side(ctx *c, int side, const char *value, const char *fmt, ...) KVC_PRINTF(4, 5);
static void set_side(ctx *c, int side, const char *value, const char *fmt, ...)
{
    c->backend[side] = value;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->backend_why[side], sizeof c->backend_why[side], fmt, ap);
    va_end(ap);
    c->backend_from[side] = NULL;
}

/* Decode context parallelism in the DeepSeek family's overrides, in
 * order: HYV4 refuses it (0.5.20+); from 0.5.22 a DSA model refuses it
 * with HiSparse or HiCache, PD and an EAGLE top-k other than 1, makes each
 * unset DSA backend trtllm, as if given, on every platform
 * (resolve_backends), and refuses it with a pooled indexer (index_kpool
 * above 1) where its page is 64 x index_kpool. */
static const char DSA_DCP_CITE[] = "sglang 0.5.22: python/sglang/srt/arg_groups/model_overrides/deepseek_v2.py:18-33, "
                                   "called at :99-100, before the family's other defaults; 0.5.23: the same lines";
static int dsa_dcp(const ctx *c) { return c->defaults && rel_since(c->rel, "0.5.22") && dcp_size(c) > 1; }
static int dcp_hyv4(const ctx *c)
{
    return dcp_size(c) > 1 && strncmp(c->model->architecture, "HYV4ForCausalLM", 15) == 0;
}
/* HYV4ForCausalLM and its NextN with --enable-prefill-cp. */
static int cp_hyv4(const ctx *c)
{
    return c->cp.enabled && strncmp(c->model->architecture, "HYV4ForCausalLM", 15) == 0;
}
static int dcp_cache(const ctx *c) { return dsa_dcp(c) && (c->set->s[SET_HISPARSE].set || c->set->s[SET_HICACHE].set); }
static int dcp_pd(const ctx *c)
{
    return dsa_dcp(c) && pd_worker(c);
}
static int dcp_topk(const ctx *c)
{
    const setting *k = &c->set->s[SET_SPEC_EAGLE_TOPK];
    return dsa_dcp(c) && k->set && strtol(k->value, NULL, 10) != 1;
}
static int dcp_kpool(const ctx *c) { return dsa_dcp(c) && c->model->index_kpool > 1; }
/* A refusal of SGLang's about decode context parallelism (DSA_DCP,
 * DCP_VALIDATION), checked in table order by run_dcp_rules. */
struct dcp_rule {
    span when;
    int (*refused)(const ctx *c);
    setting_key flag;    /* the setting the refusal points at */
    const char *message; /* SGLang's, {arch} {dcp} {kpool} filled in */
    const char *cite;
};

static kvc_status run_dcp_rules(const ctx *c, const struct dcp_rule *rules, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct dcp_rule *r = &rules[i];
        if (!in_span(c->rel, r->when) || !r->refused(c)) continue;
        char dcp[24], kpool[16], msg[400];
        str_printf(dcp, sizeof dcp, "%ld", dcp_size(c));
        str_printf(kpool, sizeof kpool, "%u", c->model->index_kpool);
        const char *const f[][2] = {
            {"arch", c->model->architecture}, {"dcp", dcp}, {"kpool", kpool}, {"backend", dcp_comm(c)}};
        sglang_expand(r->message, f, COUNT_OF(f), msg, sizeof msg);
        return rules_refuse(c, &c->set->s[r->flag], "%s (%s)", msg, r->cite);
    }
    return KVC_OK;
}

static const struct dcp_rule DSA_DCP[] = {
    {SINCE("0.5.20"), cp_hyv4, SET_PREFILL_CP,
     "--enable-prefill-cp is not supported for HYV4 because its attention path does not implement DSA "
     "context-parallel metadata and sharding. Got architecture='{arch}' and enable_prefill_cp=True.",
     "sglang 0.5.20: python/sglang/srt/arg_groups/model_overrides/deepseek_v2.py:47-54; 0.5.21: :40-47; 0.5.23: "
     ":61-68"},
    {SINCE("0.5.20"), dcp_hyv4, SET_DCP,
     "--dcp-size > 1 is not supported for HYV4 because decode context parallelism gathers query heads across DCP "
     "ranks but does not provide single-owner semantics for learnable attention sinks. Got architecture='{arch}' and "
     "dcp_size={dcp}.",
     "sglang 0.5.20: python/sglang/srt/arg_groups/model_overrides/deepseek_v2.py:55-62; 0.5.21: :48-55; 0.5.23: "
     ":69-76"},
    {SINCE("0.5.22"), dcp_cache, SET_DCP, "DSA DCP does not support HiSparse or HiCache.", DSA_DCP_CITE},
    {SINCE("0.5.22"), dcp_pd, SET_DISAGG_MODE, "DSA DCP does not support PD disaggregation.", DSA_DCP_CITE},
    {SINCE("0.5.22"), dcp_topk, SET_SPEC_EAGLE_TOPK, "DSA DCP requires --speculative-eagle-topk 1.", DSA_DCP_CITE},
    {SINCE("0.5.22"), dcp_kpool, SET_DCP,
     "--dcp-size > 1 is not supported for DSA with index_kpool={kpool}: a pooled index key spans positions owned by "
     "different DCP ranks.",
     "sglang 0.5.22: python/sglang/srt/arg_groups/model_overrides/deepseek_v2.py:164-169; 0.5.23: :163-168, where "
     "the page is 64 x index_kpool (on ROCm with aiter's preshuffle paged-MQA path)"},
};

static kvc_status resolve_backends(ctx *c)
{
    const setting *flag[2] = {&c->set->s[SET_PREFILL_BACKEND], &c->set->s[SET_DECODE_BACKEND]};
    const setting *dcp = &c->set->s[SET_DCP];
    for (int i = 0; i < 2; i++) {
        c->user_set[i] = flag[i]->set;
        char from[900];
        if (flag[i]->set) {
            rules_from_text(flag[i], from, sizeof from);
            set_side(c, i, flag[i]->value, "set by %s", from);
            c->backend_from[i] = &flag[i]->origin;
        } else if (dsa_dcp(c)) {
            /* as if given: the defaults below leave it, the learnable-sink check refuses it */
            rules_from_text(dcp, from, sizeof from);
            set_side(c, i, "trtllm", "set by %s: DSA with decode context parallelism makes an unset DSA backend "
                     "trtllm (%s)", from, DSA_DCP_CITE);
            c->user_set[i] = 1;
            flag[i] = dcp;
            c->backend_from[i] = &dcp->origin;
        } else {
            set_side(c, i, "", "not set");
            for (size_t k = 0; k < COUNT_OF(FIELD_DEFAULTS); k++)
                if (in_span(c->rel, FIELD_DEFAULTS[k].when))
                    set_side(c, i, i == PREFILL ? FIELD_DEFAULTS[k].prefill : FIELD_DEFAULTS[k].decode,
                             "SGLang's default for the flag");
        }
    }
    if (!c->defaults) return KVC_OK;
    unsigned major = c->gpu->hip ? 9 : c->gpu->major;
    const struct default_row *hit = NULL;
    for (size_t r = 0; r < COUNT_OF(DEFAULTS) && !hit; r++) {
        const struct default_row *d = &DEFAULTS[r];
        if (in_span(c->rel, d->when) && cond_holds(c, d->cond) && major >= d->min_major && major <= d->max_major)
            hit = d;
    }
    if (hit && hit->cond == C_LEARNABLE_SINK)
        for (int i = 0; i < 2; i++)
            if (c->user_set[i] && strcmp(c->backend[i], "flashmla_sparse") != 0)
                return rules_refuse(c, flag[i],
                              "%s uses learnable attention sinks and requires --dsa-%s-backend 'flashmla_sparse'; "
                              "got '%s' (%s)",
                              c->model->architecture, SIDE[i], c->backend[i], hit->cite);
    for (int i = 0; hit && i < 2; i++) {
        if (c->user_set[i] && !hit->force) continue;
        const char *value = row_value(c, hit, i);
        if (c->user_set[i])
            set_side(c, i, value, "forced to %s %s, over %s %s (%s, compute capability %u.%u; %s)", value, hit->why,
                     flag[i]->flag, flag[i]->value, c->gpu->name, c->gpu->major, c->gpu->minor, hit->cite);
        else
            set_side(c, i, value, "default for an unset %s backend %s (%s, compute capability %u.%u; %s)", SIDE[i],
                     hit->why, c->gpu->name, c->gpu->major, c->gpu->minor, hit->cite);
    }
    return hit && hit->checked ? run_checks(c, hit->cond == C_HISPARSE) : KVC_OK;
}

/* ------------------------------------------------------------- HiSparse */

/* How a release validates --enable-hisparse (check_server_args), after the
 * defaults. Messages are SGLang's f-strings with {label} {backend} {dtype}
 * {allowed} (Python's sorted list) {default} {flag} (--nsa or --dsa). */
static const struct hisparse_rule {
    span when;
    const char *dtypes;        /* accepted KV dtypes, space-separated; NULL: any */
    const char *dtype_message;
    const char *backend_message;
    const char *hip_allowed;   /* space-separated; NULL: as CUDA */
    int fp8_flashinfer;        /* flashinfer_sparse_mla allowed with fp8 on CUDA */
    int dtype_last;            /* the dtype is checked after the backends */
    int by_dtype;              /* CUDA allowed set depends on the dtype (else flashmla_sparse) */
    const char *cite;
} HISPARSE[] = {
    {FROM_TO("0.5.10", "0.5.10.post1"), NULL, NULL,
     "HiSparse requires flashmla_sparse NSA {label} backend, but got {flag}-{label}-backend={backend}. Please use "
     "{flag}-{label}-backend=flashmla_sparse or omit it.",
     NULL, 0, 0, 0, "sglang 0.5.10: python/sglang/srt/server_args.py:6179-6202"},
    {FROM_TO("0.5.11", "0.5.11"), "bfloat16",
     "HiSparse requires bfloat16 KV cache, but got --kv-cache-dtype={dtype}. Please use "
     "--kv-cache-dtype=bfloat16.",
     "HiSparse requires flashmla_sparse NSA {label} backend, but got {flag}-{label}-backend={backend}. Please use "
     "{flag}-{label}-backend=flashmla_sparse or omit it.",
     NULL, 0, 1, 0, "sglang 0.5.11: python/sglang/srt/server_args.py:6883-6913"},
    {FROM_TO("0.5.12", "0.5.13.post1"), "bfloat16 fp8_e4m3",
     "HiSparse requires bfloat16 or fp8_e4m3 KV cache, but got --kv-cache-dtype={dtype}.",
     "HiSparse with --kv-cache-dtype={dtype} requires {flag}-{label}-backend in {allowed}, but got {backend}.", NULL, 0,
     0, 1, "sglang 0.5.12: python/sglang/srt/arg_groups/hisparse_hook.py:49-95"},
    {FROM_TO("0.5.14", "0.5.17"), "bfloat16 fp8_e4m3",
     "HiSparse requires one of ('bfloat16', 'fp8_e4m3') KV cache dtypes, but got --kv-cache-dtype={dtype}. Please use "
     "--kv-cache-dtype=bfloat16 or --kv-cache-dtype=fp8_e4m3.",
     "HiSparse supports DSA {label} backend(s) {allowed} on this platform with --kv-cache-dtype={dtype}, but got "
     "--dsa-{label}-backend={backend}. Please use --dsa-{label}-backend={default} or omit it.",
     "aiter tilelang", 0, 0, 1, "sglang 0.5.14: python/sglang/srt/arg_groups/hisparse_hook.py:65-91"},
    {FROM_TO("0.5.18", "0.5.19"), "bfloat16 fp8_e4m3",
     "HiSparse requires one of ('bfloat16', 'fp8_e4m3') KV cache dtypes, but got --kv-cache-dtype={dtype}. Please use "
     "--kv-cache-dtype=bfloat16 or --kv-cache-dtype=fp8_e4m3.",
     "HiSparse supports DSA {label} backend(s) {allowed} on this platform with --kv-cache-dtype={dtype}, but got "
     "--dsa-{label}-backend={backend}. Please use one of {allowed}, or omit the option to let SGLang pick a backend "
     "for this platform.",
     "aiter tilelang", 1, 0, 1, "sglang 0.5.18: python/sglang/srt/arg_groups/hisparse_hook.py:47-63"},
    {SINCE("0.5.20"), "bfloat16 fp8_e4m3",
     "HiSparse requires one of ('bfloat16', 'fp8_e4m3') KV cache dtypes, but got --kv-cache-dtype={dtype}. Please use "
     "--kv-cache-dtype=bfloat16 or --kv-cache-dtype=fp8_e4m3.",
     "HiSparse supports DSA {label} backend(s) {allowed} on this platform with --kv-cache-dtype={dtype}, but got "
     "--dsa-{label}-backend={backend}. Please use one of {allowed}, or omit the option to let SGLang pick a backend "
     "for this platform.",
     "aiter tilelang triton", 1, 0, 1, "sglang 0.5.23: python/sglang/srt/arg_groups/hisparse_hook.py:44-165"},
};

/* Which models --enable-hisparse takes: DSA ones; SGLang's refusal for any
 * other. */
static const struct hisparse_model_rule {
    span when;
    const char *message;
    const char *cite;
} HISPARSE_MODEL[] = {
    {FROM_TO("0.5.10", "0.5.11"),
     "--enable-hisparse is only supported for DSA (DeepSeek Sparse Attention) models now(e.g., DeepSeek V3.2, GLM-5). ",
     "sglang 0.5.10: python/sglang/srt/server_args.py:6183-6187"},
    {FROM_TO("0.5.12", "0.5.20"),
     "--enable-hisparse is only supported for DSA (DeepSeek Sparse Attention) models (e.g., DeepSeek V3.2, GLM-5) and "
     "DeepSeek V4 now. ",
     "sglang 0.5.12: python/sglang/srt/arg_groups/hisparse_hook.py:60-64; sglang 0.5.20: "
     "python/sglang/srt/arg_groups/hisparse_hook.py:93-97"},
    {SINCE("0.5.21"),
     "--enable-hisparse is only supported for DSA (DeepSeek Sparse Attention) models (e.g., DeepSeek V3.2, GLM-5), "
     "DeepSeek V4, and MiniMax M3 now. ",
     "sglang 0.5.21: python/sglang/srt/arg_groups/hisparse_hook.py:95-99"},
};

/* The PD step's refusals on a decode worker, in its order: decode context
 * parallelism (DCP) above one with a transfer backend that cannot relayout
 * its KV (0.5.17+) or with a radix cache or HiCache (0.5.17-0.5.20); then
 * the decode radix cache, which a decode worker runs only when
 * --disaggregation-decode-enable-radix-cache (0.5.11+) keeps it (over
 * --disable-radix-cache too; a chunk cache otherwise), with HiSparse, with
 * the transfer backends it does not take, and with speculative decoding
 * (in 0.5.23 the speculative hook checks that, once NEXTN is EAGLE). */
enum pd_test {
    PD_DCP_TRANSFER,     /* DCP above one and a transfer backend not in `names` */
    PD_DCP_RADIX,        /* DCP above one and the decode radix cache */
    PD_DCP_HICACHE,      /* DCP above one and HiCache */
    PD_RADIX_HISPARSE,   /* the decode radix cache and HiSparse */
    PD_RADIX_TRANSFER,   /* the decode radix cache and a transfer backend not in `names` */
    PD_RADIX_NO_TRANSFER, /* the decode radix cache and a transfer backend in `names` */
    PD_RADIX_SPEC,       /* the decode radix cache and an algorithm, as given, not in `names` */
    PD_RADIX_SPEC_RESOLVED, /* the same, of the algorithm upper-cased and NEXTN made EAGLE */
};
static const char RADIX_SPEC_MESSAGE[] = "--disaggregation-decode-enable-radix-cache is incompatible with speculative "
                                         "decoding (--speculative-algorithm {algorithm})";
static const struct pd_decode_rule {
    span when;
    enum pd_test test;
    const char *names;   /* space-separated transfer backends or algorithms */
    setting_key flag;    /* the setting the refusal points at, when given */
    const char *message; /* SGLang's, {backend} and {algorithm} filled in */
    const char *cite;
} PD_DECODE[] = {
    {FROM_TO("0.5.17", "0.5.18"), PD_DCP_TRANSFER, "mooncake nixl", SET_TRANSFER_BACKEND,
     "PD decode DCP requires --disaggregation-transfer-backend mooncake or nixl, got '{backend}'.",
     "sglang 0.5.17: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:37-43; 0.5.18: :37-43"},
    {FROM_TO("0.5.19", "0.5.21"), PD_DCP_TRANSFER, "mooncake nixl fake", SET_TRANSFER_BACKEND,
     "PD decode DCP requires --disaggregation-transfer-backend mooncake, nixl, or fake for synthetic benchmarking, "
     "got '{backend}'.",
     "sglang 0.5.19: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:53-65; 0.5.21: :71-83"},
    {SINCE("0.5.22"), PD_DCP_TRANSFER, "mooncake nixl mori ascend fake", SET_TRANSFER_BACKEND,
     "PD decode DCP requires --disaggregation-transfer-backend mooncake, nixl, mori, ascend, or fake for synthetic "
     "benchmarking, got '{backend}'.",
     "sglang 0.5.22: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:82-96; 0.5.23: :82-96"},
    {FROM_TO("0.5.17", "0.5.20"), PD_DCP_RADIX, NULL, SET_DECODE_RADIX,
     "PD decode DCP currently requires chunk cache; --disaggregation-decode-enable-radix-cache is not supported.",
     "sglang 0.5.17: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:44-48; 0.5.20: :66-70"},
    {FROM_TO("0.5.17", "0.5.20"), PD_DCP_HICACHE, NULL, SET_HICACHE,
     "PD decode DCP currently requires chunk cache; --enable-hierarchical-cache is not supported.",
     "sglang 0.5.17: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:49-53; 0.5.20: :71-75"},
    {SINCE("0.5.11"), PD_RADIX_HISPARSE, NULL, SET_DECODE_RADIX,
     "--disaggregation-decode-enable-radix-cache is incompatible with --enable-hisparse",
     "sglang 0.5.11: python/sglang/srt/server_args.py:3738-3762; 0.5.12: :4044-4072; sglang 0.5.23: "
     "python/sglang/srt/arg_groups/pd_disaggregation_hook.py:98-127"},
    {FROM_TO("0.5.11", "0.5.11"), PD_RADIX_TRANSFER, "nixl", SET_TRANSFER_BACKEND,
     "--disaggregation-decode-enable-radix-cache currently requires --disaggregation-transfer-backend nixl",
     "sglang 0.5.11: python/sglang/srt/server_args.py:3746-3750"},
    {FROM_TO("0.5.12", "0.5.13.post1"), PD_RADIX_TRANSFER, "nixl mooncake", SET_TRANSFER_BACKEND,
     "--disaggregation-decode-enable-radix-cache currently requires --disaggregation-transfer-backend in ('nixl', "
     "'mooncake'), but got '{backend}'",
     "sglang 0.5.12: python/sglang/srt/server_args.py:4051-4057; 0.5.13: "
     "python/sglang/srt/arg_groups/pd_disaggregation_hook.py:34-40"},
    {SINCE("0.5.14"), PD_RADIX_NO_TRANSFER, "fake", SET_TRANSFER_BACKEND,
     "--disaggregation-decode-enable-radix-cache is incompatible with --disaggregation-transfer-backend fake",
     "sglang 0.5.14: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:36-40; 0.5.23: :105-109"},
    {FROM_TO("0.5.11", "0.5.20"), PD_RADIX_SPEC, "", SET_SPEC_ALGO,
     RADIX_SPEC_MESSAGE,
     "sglang 0.5.11: python/sglang/srt/server_args.py:3751-3756; 0.5.14: "
     "python/sglang/srt/arg_groups/pd_disaggregation_hook.py:41-46; 0.5.20: :89-94"},
    {FROM_TO("0.5.21", "0.5.22"), PD_RADIX_SPEC, "DSPARK", SET_SPEC_ALGO,
     RADIX_SPEC_MESSAGE,
     "sglang 0.5.21: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:97-102; 0.5.22: :110-115"},
    {SINCE("0.5.23"), PD_RADIX_SPEC_RESOLVED, "DSPARK EAGLE EAGLE3", SET_SPEC_ALGO,
     RADIX_SPEC_MESSAGE,
     "sglang 0.5.23: python/sglang/srt/arg_groups/speculative_hook.py:162-173, once the algorithm is upper-cased "
     "(:138-143) and NEXTN made EAGLE (:151-160, :109-116)"},
};

static const struct hisparse_rule *hisparse_rule(unsigned rel)
{
    for (size_t i = 0; i < COUNT_OF(HISPARSE); i++)
        if (in_span(rel, HISPARSE[i].when)) return &HISPARSE[i];
    return NULL;
}

static void append(char *out, size_t size, const char *s)
{
    size_t n = strlen(out);
    if (n < size) str_copy(out + n, size - n, s);
}

/* "['flashmla_kv', 'flashinfer_sparse_mla']" sorted, as Python prints it, of
 * the space-separated names in `list`. */
static void python_sorted(const char *list, char *out, size_t size)
{
    char copy[200];
    str_copy(copy, sizeof copy, list);
    const char *names[8];
    size_t n = 0;
    for (char *t = strtok(copy, " "); t && n < COUNT_OF(names); t = strtok(NULL, " ")) names[n++] = t;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *x = names[j];
            names[j] = names[j - 1];
            names[j - 1] = x;
        }
    str_copy(out, size, "[");
    for (size_t i = 0; i < n; i++) {
        char q[KVC_NAME_LEN + 4];
        str_printf(q, sizeof q, "%s'%s'", i ? ", " : "", names[i]);
        append(out, size, q);
    }
    append(out, size, "]");
}

void sglang_expand(const char *tmpl, const char *const fields[][2], size_t nfields, char *out, size_t size)
{
    out[0] = '\0';
    for (const char *p = tmpl; *p;) {
        size_t k = 0;
        if (*p == '{')
            for (; k < nfields; k++)
                if (strncmp(p + 1, fields[k][0], strlen(fields[k][0])) == 0 && p[1 + strlen(fields[k][0])] == '}')
                    break;
        if (*p == '{' && k < nfields) {
            append(out, size, fields[k][1]);
            p += strlen(fields[k][0]) + 2;
        } else {
            char one[2] = {*p++, '\0'};
            append(out, size, one);
        }
    }
}

static kvc_status hisparse_dtype(const ctx *c, const struct hisparse_rule *r)
{
    const char *dtype = c->dtype;
    if (r->dtypes && !word_in(dtype, r->dtypes) && strcmp(dtype, "auto") != 0) {
        char msg[600];
        const char *const f[][2] = {{"dtype", dtype}};
        sglang_expand(r->dtype_message, f, COUNT_OF(f), msg, sizeof msg);
        return rules_refuse(c, &c->set->s[SET_KV_CACHE_DTYPE], "%s (%s)", msg, r->cite);
    }
    return KVC_OK;
}

/* The transfer backend the PD step compares: mooncake when unset, and
 * mooncake_tcp is mooncake by then (resolve_transfer). */
static const char *transfer_of(const ctx *c)
{
    const setting *s = &c->set->s[SET_TRANSFER_BACKEND];
    return !s->set || strcmp(s->value, "mooncake_tcp") == 0 ? "mooncake" : s->value;
}

const char *rules_spec_resolved(const ctx *c, char *out, size_t size)
{
    const setting *a = &c->set->s[SET_SPEC_ALGO];
    str_copy(out, size, a->set ? a->value : "");
    ascii_upper(out);
    if (strcmp(out, "NEXTN") == 0) str_copy(out, size, "EAGLE");
    return out;
}

/* 1 when a decode worker meets the rule's test. Pure. */
static int pd_fails(const ctx *c, const struct pd_decode_rule *r, const char *algorithm)
{
    int radix = c->set->s[SET_DECODE_RADIX].set, dcp = dcp_size(c) > 1;
    switch (r->test) {
    case PD_DCP_TRANSFER: return dcp && !word_in(transfer_of(c), r->names);
    case PD_DCP_RADIX: return dcp && radix;
    case PD_DCP_HICACHE: return dcp && c->set->s[SET_HICACHE].set;
    case PD_RADIX_HISPARSE: return radix && c->set->s[SET_HISPARSE].set;
    case PD_RADIX_TRANSFER: return radix && !word_in(transfer_of(c), r->names);
    case PD_RADIX_NO_TRANSFER: return radix && word_in(transfer_of(c), r->names);
    case PD_RADIX_SPEC:
    case PD_RADIX_SPEC_RESOLVED: return radix && c->set->s[SET_SPEC_ALGO].set && !word_in(algorithm, r->names);
    }
    return 0;
}

/* SGLang's validation of --dcp-size, after the PD step and before the
 * model's own adjustments (DCP_VALIDATION). */
static int dcp_below_one(const ctx *c) { return dcp_size(c) < 1; }
static int dcp_prefill_cp(const ctx *c) { return dcp_size(c) > 1 && c->cp.enabled; }
static int dcp_cuda_spec(const ctx *c) { return dcp_size(c) > 1 && !c->gpu->hip && c->set->s[SET_SPEC_ALGO].set; }
static int dcp_a2a(const ctx *c) { return word_in(dcp_comm(c), "a2a fi_a2a"); }
static int dcp_a2a_alone(const ctx *c) { return dcp_a2a(c) && dcp_size(c) <= 1; }
static int dcp_fi_a2a_off_cuda(const ctx *c) { return strcmp(dcp_comm(c), "fi_a2a") == 0 && c->gpu->hip; }
/* --dcp-replicate-q-proj as True: given without --no- (BooleanOptionalAction); the model overrides that set it run
 * after these checks */
static int dcp_replicate_alone(const ctx *c) { return c->set->s[SET_DCP_REPLICATE_Q].set && dcp_size(c) <= 1; }
/* above one, only an ag_rs as given (up to 0.5.19 also as defaulted) */
static int dcp_replicate_ag_rs(const ctx *c)
{
    int resolved = rel_since(c->rel, "0.5.20") && !c->set->s[SET_DCP_COMM].set;
    return c->set->s[SET_DCP_REPLICATE_Q].set && dcp_size(c) > 1 && !resolved && !dcp_a2a(c);
}
#define DCP_CHECKS(a, b, c, d) "sglang 0.5.17: python/sglang/srt/server_args.py:" a "; 0.5.18: :" b "; 0.5.19: "       \
    "python/sglang/srt/arg_groups/parallel_hook.py:" c "; 0.5.23: :" d
static const struct dcp_rule DCP_VALIDATION[] = {
    {SINCE("0.5.15"), dcp_below_one, SET_DCP,
     "Decode context parallel size (--dcp-size / --decode-context-parallel-size) must be >= 1, but got "
     "dcp_size={dcp}.",
     "sglang 0.5.15: python/sglang/srt/server_args.py:2839-2844; 0.5.19: "
     "python/sglang/srt/arg_groups/parallel_hook.py:130-135; 0.5.23: :243-248"},
    {SINCE("0.5.22"), dcp_prefill_cp, SET_DCP, "--dcp-size > 1 does not support --enable-prefill-cp.",
     "sglang 0.5.22: python/sglang/srt/arg_groups/parallel_hook.py:243-244; 0.5.23: :249-250"},
    {FROM_TO("0.5.15", "0.5.16"), dcp_cuda_spec, SET_DCP,
     "Decode context parallel (--dcp-size / --decode-context-parallel-size > 1) on CUDA platform does not support "
     "any speculative algorithm, but got dcp_size={dcp} on a CUDA platform with speculative decoding enabled.",
     "sglang 0.5.15: python/sglang/srt/server_args.py:2845-2857; 0.5.16: :3159-3171"},
    {SINCE("0.5.17"), dcp_a2a_alone, SET_DCP_COMM,
     "--dcp-comm-backend {backend} only affects the decode context-parallel attention reduction and "
     "therefore requires --dcp-size / --decode-context-parallel-size > 1, but got dcp_size={dcp}.",
     DCP_CHECKS("3824-3830", "3990-3996", "136-142", "251-257")},
    {FROM_TO("0.5.17", "0.5.19"), dcp_fi_a2a_off_cuda, SET_DCP_COMM,
     "--dcp-comm-backend fi_a2a delegates the exchange to FlashInfer's MNNVL All-to-All kernel, which "
     "requires an NVIDIA CUDA platform with SM90+ and MNNVL fabric memory (e.g. GB200 NVL72). The authoritative "
     "fabric probe runs at model-runner init; use 'a2a' or 'ag_rs' on clusters without MNNVL.",
     "sglang 0.5.17: python/sglang/srt/server_args.py:3831-3838; 0.5.18: :3997-4004; 0.5.19: "
     "python/sglang/srt/arg_groups/parallel_hook.py:143-150"},
    {SINCE("0.5.20"), dcp_fi_a2a_off_cuda, SET_DCP_COMM,
     "--dcp-comm-backend fi_a2a delegates the exchange to FlashInfer's MNNVL All-to-All kernel, which "
     "requires Blackwell and a DCP group within one MNNVL domain. Use 'a2a' or 'ag_rs' elsewhere, or leave the flag "
     "unset to resolve it.",
     "sglang 0.5.20: python/sglang/srt/arg_groups/parallel_hook.py:140-146; 0.5.23: :258-264"},
    {SINCE("0.5.17"), dcp_replicate_alone, SET_DCP_REPLICATE_Q,
     "--dcp-replicate-q-proj requires --dcp-size > 1.", DCP_CHECKS("3839-3841", "4005-4007", "151-153",
     "265-267")},
    {SINCE("0.5.17"), dcp_replicate_ag_rs, SET_DCP_REPLICATE_Q,
     "--dcp-replicate-q-proj only applies to the a2a/fi_a2a DCP communication backend (it removes the "
     "head-dim Q all-gather); got --dcp-comm-backend={backend}.",
     DCP_CHECKS("3842-3847", "4008-4013", "154-159", "268-273")},
};

/* Decode context parallelism above one, past SGLang's start-up checks:
 * its allocator's page is page_size x dcp tokens spread over the DCP ranks
 * (sglang 0.5.23: python/sglang/srt/mem_cache/allocation_sizing.py:22-25),
 * and PD moves KV between DCP layouts token by token, refusing at transfer
 * time all but the same DCP size on both sides or a prefill without DCP
 * feeding an MLA decode with it (sglang 0.5.17:
 * python/sglang/srt/disaggregation/common/conn.py:276-294; 0.5.23:
 * :531-548; before 0.5.17 PD has no DCP code). kvcheck models none of it:
 * a PD worker is declined, a unified worker warned. */
static kvc_status decline_dcp(const ctx *c)
{
    static const char WHAT[] = "kvcheck does not model decode context parallelism's pages: SGLang's allocator page "
                               "is page_size x dcp_size tokens spread over the DCP ranks (sglang 0.5.23: python/sglang/"
                               "srt/mem_cache/allocation_sizing.py:22-25), and SGLang's DCP checks beyond the PD "
                               "step's, its validation's and the DeepSeek family's are not run";
    const setting *dcp = &c->set->s[SET_DCP];
    if (dcp_size(c) <= 1) return KVC_OK;
    if (set_to(c, SET_DISAGG_MODE, "prefill") || set_to(c, SET_DISAGG_MODE, "decode"))
        return diag_set(c->diag, KVC_ERR_CONFIG, &dcp->origin,
                        "%s %s: %s; PD moves KV between DCP layouts token by token and refuses, when the first "
                        "request is sent, all but the same DCP size on both sides or a prefill without DCP feeding an "
                        "MLA decode with it (sglang 0.5.23: python/sglang/srt/disaggregation/common/conn.py:531-548; "
                        "before 0.5.17 PD has no DCP code), so kvcheck cannot judge this PD worker",
                        dcp->flag, dcp->value, WHAT);
    notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES, "%s %s: %s; the row per token is SGLang's, not "
              "which tokens each rank's pages hold", dcp->flag, dcp->value, WHAT);
    return KVC_OK;
}

/* --dcp-comm-backend fi_a2a as given with DCP above one: SGLang's model runner probes, when it warms up, for a
 * Blackwell (SM100) system whose DCP group shares one MNNVL domain (up to 0.5.19: MNNVL fabric memory) and refuses the
 * worker otherwise (sglang 0.5.17: python/sglang/srt/layers/dcp/comm.py:418-423; 0.5.23: :435-448, python/sglang/srt/
 * utils/common.py:1056-1064); kvcheck does not know the fabric, so it declines the worker there. */
static kvc_status decline_fi_a2a(const ctx *c)
{
    const setting *s = &c->set->s[SET_DCP_COMM];
    if (dcp_size(c) <= 1 || !set_to(c, SET_DCP_COMM, "fi_a2a")) return KVC_OK;
    return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin, "%s fi_a2a: SGLang %s's model runner checks, when it warms "
                    "up, that the DCP group shares one MNNVL domain on a Blackwell system and refuses the worker "
                    "otherwise (sglang 0.5.17: python/sglang/srt/layers/dcp/comm.py:418-423; 0.5.23: :435-448); "
                    "kvcheck does not model that probe, so it cannot judge this worker", s->flag,
                    SGLANG_VERSIONS[c->rel]);
}

/* PD_DECODE's rules, those of the PD step (`spec_hook` 0) or the one the
 * speculative hook runs (1). */
static kvc_status check_pd_decode(const ctx *c, int spec_hook)
{
    if (!set_to(c, SET_DISAGG_MODE, "decode")) return KVC_OK;
    const setting *algo = &c->set->s[SET_SPEC_ALGO];
    char resolved[KVC_NAME_LEN];
    rules_spec_resolved(c, resolved, sizeof resolved);
    for (size_t i = 0; i < COUNT_OF(PD_DECODE); i++) {
        const struct pd_decode_rule *r = &PD_DECODE[i];
        int resolves = r->test == PD_RADIX_SPEC_RESOLVED;
        const char *algorithm = resolves ? resolved : algo->value;
        if (!in_span(c->rel, r->when) || resolves != spec_hook || !pd_fails(c, r, algorithm)) continue;
        const setting *at = &c->set->s[r->flag];
        if (!at->set) at = &c->set->s[r->test <= PD_DCP_HICACHE ? SET_DCP : SET_DECODE_RADIX];
        char msg[400];
        const char *const f[][2] = {{"backend", transfer_of(c)}, {"algorithm", algorithm}};
        sglang_expand(r->message, f, COUNT_OF(f), msg, sizeof msg);
        return rules_refuse(c, at, "%s (%s)", msg, r->cite);
    }
    return KVC_OK;
}


/* The feature combinations HiSparse refuses right after its radix cache check (0.5.22+; a speculative algorithm does
 * not turn mixed chunked prefill off before it). Its speculative checks come next (0.5.22+: a top-k other than 1,
 * which the DSA page of 64 has SGLang refuse before, and adaptive EAGLE, which kvcheck declines before). */
static int mixed_chunk(const ctx *c) { return c->set->s[SET_MIXED_CHUNK].set; }
static const flag_rule HISPARSE_COMBOS[] = {
    {SINCE("0.5.22"), 0, mixed_chunk, SET_MIXED_CHUNK, "ValueError: --enable-hisparse does not support "
     "--enable-mixed-chunk yet.", "sglang 0.5.22: python/sglang/srt/arg_groups/hisparse_hook.py:79-84, :112; 0.5.23: "
     ":79-84, :112"},
};

/* HiSparse's radix cache check, after its model check (which DeepSeek-V4 passes): a decode worker without the decode
 * radix cache runs a chunk cache (the decode radix cache with HiSparse check_pd_decode has refused); then its feature
 * combinations. */
static kvc_status hisparse_radix(const ctx *c, const struct hisparse_rule *r)
{
    int chunk = set_to(c, SET_DISAGG_MODE, "decode") && !c->set->s[SET_DECODE_RADIX].set;
    if (!rules_radix_off(c) && !chunk)
        return rules_refuse(c, &c->set->s[SET_HISPARSE], "Hierarchical sparse attention currently requires "
                            "--disable-radix-cache. (%s): add that flag", r->cite);
    return rules_table(c, HISPARSE_COMBOS, COUNT_OF(HISPARSE_COMBOS), 0, NULL);
}

static kvc_status check_hisparse(const ctx *c)
{
    const setting *h = &c->set->s[SET_HISPARSE];
    if (!h->set) return KVC_OK;
    const struct hisparse_rule *r = hisparse_rule(c->rel);
    if (!r) return KVC_OK; /* the release's parser has no such flag */
    for (size_t i = 0; !c->dsa && i < COUNT_OF(HISPARSE_MODEL); i++)
        if (in_span(c->rel, HISPARSE_MODEL[i].when))
            return rules_refuse(c, h, "%s (%s)", HISPARSE_MODEL[i].message, HISPARSE_MODEL[i].cite);
    kvc_status st = hisparse_radix(c, r);
    if (st) return st;
    const char *flag = rel_since(c->rel, "0.5.13") ? "--dsa" : "--nsa";
    const char *dtype = c->dtype;
    if (!r->dtype_last && (st = hisparse_dtype(c, r))) return st;
    const char *allowed = "flashmla_sparse";
    if (c->gpu->hip && r->hip_allowed) allowed = r->hip_allowed;
    else if (r->by_dtype && c->fp8) allowed = r->fp8_flashinfer ? "flashmla_kv flashinfer_sparse_mla" : "flashmla_kv";
    else if (r->by_dtype && strcmp(dtype, "bfloat16") != 0) allowed = "flashmla_sparse flashmla_kv flashinfer_sparse_mla";
    const char *def = c->gpu->hip && r->hip_allowed ? "tilelang" : c->fp8 && r->by_dtype ? "flashmla_kv" : "flashmla_sparse";
    for (int i = 0; i < 2; i++) {
        if (!c->backend[i][0] || word_in(c->backend[i], allowed)) continue;
        char sorted[200], msg[900];
        python_sorted(allowed, sorted, sizeof sorted);
        const char *const f[][2] = {{"label", SIDE[i]}, {"backend", c->backend[i]}, {"dtype", dtype},
                                    {"allowed", sorted}, {"default", def},     {"flag", flag}};
        sglang_expand(r->backend_message, f, COUNT_OF(f), msg, sizeof msg);
        const setting *s = &c->set->s[i == PREFILL ? SET_PREFILL_BACKEND : SET_DECODE_BACKEND];
        return rules_refuse(c, s->set ? s : h, "%s (%s)", msg, r->cite);
    }
    return r->dtype_last ? hisparse_dtype(c, r) : KVC_OK;
}

/* ---------------------------------------------------- attention backend */

/* The MLA attention backend SGLang picks for a model it does not take as
 * DSA, when no attention backend flag (--attention-backend,
 * --prefill-attention-backend, --decode-attention-backend) is given: the
 * DeepSeek V3/R1 branch of the family guard on SM100 (CUDA compute
 * capability 10.x). */
static const struct attn_default {
    span when;
    const char *arch; /* NULL: any architecture of the DeepSeek family guard */
    unsigned major;
    const char *backend;
    const char *cite;
} ATTN_DEFAULTS[] = {
    {FROM_TO("0.5.3.post2", "0.5.6"), "DeepseekV3ForCausalLM", 10, "trtllm_mla",
     "sglang 0.5.3.post2: python/sglang/srt/server_args.py:815-825"},
    {SINCE("0.5.6.post1"), NULL, 10, "trtllm_mla",
     "sglang 0.5.6.post1: python/sglang/srt/server_args.py:1040-1049; 0.5.15: python/sglang/srt/arg_groups/"
     "overrides.py:389-398; 0.5.23: python/sglang/srt/arg_groups/model_overrides/deepseek_v2.py:178-189"},
};

/* What an attention backend asks of the worker once chosen (by
 * --attention-backend, --decode-attention-backend or a default), in
 * SGLang's order, each check skipped where its field is NULL: the GPUs it
 * runs on (CUDA compute capability majors), the page sizes it keeps (any
 * other becomes `page`), the --kv-cache-dtype strings it accepts. The rows
 * are in the order of SGLang's page constraints: each that applies takes
 * the page size the one before left. A row holds for the KV dtypes
 * `only_dtypes` (NULL: any) but `not_dtypes`. */
/* trtllm_mha's side checks' messages (from 0.5.19: sglang 0.5.23: python/sglang/srt/arg_groups/attention_hook.py:200-227), and the
 * KV dtypes whose trtllm_mha sides KV4's rules resolve from 0.5.21 (check_kv4) */
static const char TRTLLM_MHA_PREFILL[] = "TRTLLM MHA backend for prefill requires Hopper (SM90), Blackwell (SM100), or "
                                         "SM120 GPUs. Please use a different prefill backend.";
static const char TRTLLM_MHA_DECODE[] = "TRTLLM MHA backend for decode is only supported on Hopper (SM90), Blackwell "
                                        "(SM100) and (SM120) GPUs. Please use a different decode backend.";
static const char KV4_FP4[] = "nvfp4 fp4_mx_block16";
enum attn_sides {
    ON_ATTENTION = 1,    /* the settled attention backend (attention_flag), or the model's default */
    ON_DECODE = 2,       /* --decode-attention-backend */
    ON_PREFILL = 4,      /* --prefill-attention-backend */
    ON_PREFILL_SIDE = 8, /* the backend prefill runs: --prefill-attention-backend, else the attention backend */
    ON_DECODE_SIDE = 16, /* the backend decode runs: --decode-attention-backend, else the attention backend */
    ON_DRAFT = 32,       /* --speculative-draft-attention-backend */
};
static const struct attn_rule {
    span when;
    const char *backend;
    unsigned sides;     /* enum attn_sides: the flags (or the default) that bring the row in */
    const char *majors; /* space-separated; "": SGLang refuses it on every GPU */
    const char *platform_message;
    const char *pages; /* space-separated */
    unsigned page;
    const char *dtypes;        /* space-separated */
    const char *dtype_message; /* {dtype}: the KV dtype */
    const char *cite;
    const char *only_dtypes, *not_dtypes; /* space-separated; NULL: none */
} ATTN_RULES[] = {
    {SINCE("0.5.3rc2"), "flashmla", ON_ATTENTION | ON_DECODE, NULL, NULL, "64", 64, NULL, NULL,
     "sglang 0.5.3rc2: python/sglang/srt/server_args.py:876-884; 0.5.14: :4523-4531; 0.5.15: "
     "python/sglang/srt/arg_groups/overrides.py:1526-1533; 0.5.23: :1147-1154", NULL, NULL},
    {UNTIL("0.5.19"), "cutlass_mla", ON_ATTENTION | ON_DECODE, NULL, NULL, "128", 128, NULL, NULL,
     "sglang 0.5.3rc2: python/sglang/srt/server_args.py:885-893; 0.5.14: :4532-4540; 0.5.15: "
     "python/sglang/srt/arg_groups/overrides.py:1534-1541; 0.5.19: :1142-1149", NULL, NULL},
    {UNTIL("0.5.4.post1"), "trtllm_mla", ON_ATTENTION | ON_DECODE, "10",
     "TRTLLM MLA backend is only supported on Blackwell GPUs (SM100). Please use a different backend.", "32 64", 64,
     "fp8_e4m3 auto", "TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3 or auto.",
     "sglang 0.5.3: python/sglang/srt/server_args.py:894-912", NULL, NULL},
    {FROM_TO("0.5.4.post2", "0.5.4.post2"), "trtllm_mla", ON_ATTENTION | ON_DECODE, "10 12",
     "TRTLLM MLA backend is only supported on Blackwell GPUs (SM100). Please use a different backend.", "32 64", 64,
     "fp8_e4m3 auto", "TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3 or auto.",
     "sglang 0.5.4.post2: python/sglang/srt/server_args.py:1192-1210 (is_blackwell_supported)", NULL, NULL},
    {FROM_TO("0.5.4.post3", "0.5.6.post2"), "trtllm_mla", ON_ATTENTION | ON_DECODE, "10 12",
     "TRTLLM MLA backend is only supported on Blackwell GPUs (SM100). Please use a different backend.", "32 64", 64,
     "fp8_e4m3 fp4_e2m1 auto", "TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3, fp4_e2m1, or auto.",
     "sglang 0.5.5: python/sglang/srt/server_args.py:1216-1234", NULL, NULL},
    {FROM_TO("0.5.7", "0.5.8.post1"), "trtllm_mla", ON_ATTENTION | ON_DECODE, "10 12",
     "TRTLLM MLA backend is only supported on Blackwell GPUs (SM100). Please use a different backend.", "32 64", 64,
     "fp8_e4m3 fp4_e2m1 bf16 auto",
     "TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3, fp4_e2m1, bf16, or auto.",
     "sglang 0.5.8: python/sglang/srt/server_args.py:1736-1754", NULL, NULL},
    {FROM_TO("0.5.9", "0.5.20"), "trtllm_mla", ON_ATTENTION | ON_DECODE, "10 12",
     "TRTLLM MLA backend is only supported on Blackwell GPUs (SM100/SM12x). Please use a different backend.", "32 64",
     64, "fp8_e4m3 fp4_e2m1 bf16 auto",
     "TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3, fp4_e2m1, bf16, or auto.",
     "sglang 0.5.9: python/sglang/srt/server_args.py:1874-1892; sglang 0.5.20: "
     "python/sglang/srt/arg_groups/overrides.py:1189-1263", NULL, NULL},
    {SINCE("0.5.21"), "trtllm_mla", ON_ATTENTION | ON_DECODE, "10 12",
     "TRTLLM MLA backend is only supported on Blackwell GPUs (SM100/SM12x). Please use a different backend.", "32 64",
     64, "fp8_e4m3 bf16 auto", "TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3, bf16, or auto.",
     "sglang 0.5.23: python/sglang/srt/arg_groups/overrides.py:1155-1218", NULL, NULL},
    {FROM_TO("0.5.12", "0.5.22"), "tokenspeed_mla", ON_ATTENTION | ON_DECODE, "10 12",
     "tokenspeed_mla backend is only supported on Blackwell GPUs (SM100/SM12x).", "32 64", 64, "fp8_e4m3",
     "tokenspeed_mla backend requires kv-cache-dtype=fp8_e4m3, got {dtype}.",
     "sglang 0.5.12: python/sglang/srt/server_args.py:2733-2752; 0.5.14: :4561-4580; 0.5.15: "
     "python/sglang/srt/arg_groups/overrides.py:1603-1617; 0.5.22: :1168-1182", NULL, NULL},
    /* the assertion comes first: a prefill side naming it is refused whatever the GPU */
    {SINCE("0.5.13"), "cutedsl_mla", ON_PREFILL, "", "CuteDSL MLA only supports decoding for now", NULL,
     0, NULL, NULL,
     "sglang 0.5.13: python/sglang/srt/server_args.py:2941-2943; 0.5.15: "
     "python/sglang/srt/arg_groups/overrides.py:1642-1644; 0.5.23: :1241-1243", NULL, NULL},
    {SINCE("0.5.13"), "cutedsl_mla", ON_ATTENTION | ON_DECODE, "10",
     "CuteDSL MLA backend is only supported on Blackwell GPUs (SM100). Please use a different backend.",
     "32 64", 64, "fp8_e4m3 bf16 bfloat16 auto",
     "CuteDSL MLA backend only supports kv-cache-dtype of fp8_e4m3, bf16, or auto.",
     "sglang 0.5.13: python/sglang/srt/server_args.py:2936-2963; 0.5.15: "
     "python/sglang/srt/arg_groups/overrides.py:1560-1569, :1636-1659; 0.5.23: :1164-1173, :1235-1258", NULL, NULL},
    /* trtllm_mha's pages, read on the attention backend even where both sides are set to others (no side builds it
     * then), and from 0.5.17 on the draft's flag; a side that builds it is refused for an MLA model by SGLang's
     * model runner later (FACTORY_RULES), after the checks this page size reaches */
    {UNTIL("0.5.16"), "trtllm_mha", ON_ATTENTION | ON_DECODE | ON_PREFILL, NULL, NULL, "16 32 64", 64, NULL, NULL,
     "sglang 0.5.3rc2: python/sglang/srt/server_args.py:914-928; 0.5.14: :4609-4642; 0.5.15: "
     "python/sglang/srt/arg_groups/overrides.py:1570-1579; 0.5.16: :1732-1741", NULL, NULL},
    {SINCE("0.5.17"), "trtllm_mha", ON_ATTENTION | ON_DECODE | ON_PREFILL | ON_DRAFT, NULL, NULL, "16 32 64 128", 64,
     NULL, NULL, "sglang 0.5.17: python/sglang/srt/arg_groups/overrides.py:2081-2093; 0.5.23: :1174-1187", NULL, NULL},
    /* trtllm_mha's platform checks */
    {UNTIL("0.5.9"), "trtllm_mha", ON_ATTENTION | ON_DECODE | ON_PREFILL, "10",
     "TRTLLM MHA backend is only supported on Blackwell GPUs (SM100). Please use a different backend.", NULL,
     0, NULL, NULL, "sglang 0.5.3rc2: python/sglang/srt/server_args.py:914-922; 0.5.9: :1894-1902", NULL, NULL},
    {FROM_TO("0.5.10", "0.5.18"), "trtllm_mha", ON_PREFILL_SIDE, "10",
     "TRTLLM MHA backend for prefill is only supported on Blackwell GPUs (SM100). Please use a different "
     "prefill backend.",
     NULL, 0, NULL, NULL,
     "sglang 0.5.10: python/sglang/srt/server_args.py:2367-2376; 0.5.13: :2971-2979; 0.5.15: :4452-4456", NULL, NULL},
    {FROM_TO("0.5.19", "0.5.20"), "trtllm_mha", ON_PREFILL_SIDE, "9 10 12", TRTLLM_MHA_PREFILL, NULL, 0, NULL, NULL,
     "sglang 0.5.19: python/sglang/srt/arg_groups/attention_hook.py:132-139; 0.5.20: :130-137", NULL, NULL},
    {SINCE("0.5.21"), "trtllm_mha", ON_PREFILL_SIDE, "9 10 12", TRTLLM_MHA_PREFILL, NULL, 0, NULL, NULL,
     "sglang 0.5.21: python/sglang/srt/arg_groups/attention_hook.py:130-137; 0.5.23: :199-206", .not_dtypes = KV4_FP4},
    /* SGLANG_SKIP_SOFTMAX_PREFILL_THRESHOLD_SCALE_FACTOR > 0 refuses it too: kvcheck does not read that variable */
    {SINCE("0.5.19"), "trtllm_mha", ON_PREFILL_SIDE, "9 10",
     "TRTLLM FMHAv2 prefill on SM120 does not support fp8_e4m3 KV cache or skip-softmax.", NULL, 0, NULL,
     NULL, "sglang 0.5.19: python/sglang/srt/arg_groups/attention_hook.py:140-154; 0.5.23: :207-221",
     .only_dtypes = "fp8_e4m3"},
    {FROM_TO("0.5.10", "0.5.20"), "trtllm_mha", ON_DECODE_SIDE, "9 10 12", TRTLLM_MHA_DECODE, NULL, 0, NULL, NULL,
     "sglang 0.5.10: python/sglang/srt/server_args.py:2378-2389; 0.5.15: :4457-4462; 0.5.19: "
     "python/sglang/srt/arg_groups/attention_hook.py:155-160", NULL, NULL},
    {SINCE("0.5.21"), "trtllm_mha", ON_DECODE_SIDE, "9 10 12", TRTLLM_MHA_DECODE, NULL, 0, NULL, NULL,
     "sglang 0.5.21: python/sglang/srt/arg_groups/attention_hook.py:153-158; 0.5.23: :222-227", .not_dtypes = KV4_FP4},
    /* Intel XPU's, for MLA models; the platform it runs on is not checked here */
    {FROM_TO("0.5.4", "0.5.10.post1"), "intel_xpu", ON_ATTENTION, NULL, NULL, "32 64 128", 128, NULL, NULL,
     "sglang 0.5.4: python/sglang/srt/server_args.py:1137-1142; 0.5.4.post1: :1229-1234", NULL, NULL},
    {FROM_TO("0.5.11", "0.5.19"), "intel_xpu", ON_PREFILL_SIDE, "",
     "intel_xpu backend is only supported on decode for MLA models, please set --decode-attention-backend to "
     "intel_xpu and do not set --attention-backend or --prefill-attention-backend to intel_xpu for prefill instead "
     "use triton.",
     NULL, 0, NULL, NULL,
     "sglang 0.5.11: python/sglang/srt/server_args.py:2696-2700; 0.5.15: :4477-4480; 0.5.19: "
     "python/sglang/srt/arg_groups/attention_hook.py:206-209",
     NULL, NULL},
    {FROM_TO("0.5.11", "0.5.19"), "intel_xpu", ON_DECODE_SIDE, NULL, NULL, "16 32 64 128", 128, NULL, NULL,
     "sglang 0.5.11: python/sglang/srt/server_args.py:2702-2714; 0.5.15: "
     "python/sglang/srt/arg_groups/overrides.py:1722-1733; 0.5.19: :1344-1355",
     NULL, NULL},
    {SINCE("0.5.20"), "intel_xpu", ON_PREFILL_SIDE | ON_DECODE_SIDE, NULL, NULL, "16 32 64 128", 128, NULL, NULL,
     "sglang 0.5.20: python/sglang/srt/arg_groups/overrides.py:1379-1392; 0.5.23: :1323-1337", NULL, NULL},
    {FROM_TO("0.5.4", "0.5.7"), "fa4", ON_ATTENTION | ON_DECODE, "",
     "FA4 backend is only supported for prefill. Please use `--prefill-attention-backend fa4` instead.", NULL, 0, NULL,
     NULL, "sglang 0.5.4: python/sglang/srt/server_args.py:1143-1146; 0.5.5: :1259-1262; 0.5.7: :1647-1650", NULL, NULL},
    {FROM_TO("0.5.4", "0.5.5"), "fa4", ON_PREFILL, NULL, NULL, "128", 128, NULL, NULL,
     "sglang 0.5.4: python/sglang/srt/server_args.py:1147-1152; 0.5.5: :1263-1268 (from 0.5.5.post1 for MHA models "
     "only)", NULL, NULL},
    {SINCE("0.5.17"), "hpc_ops", ON_ATTENTION | ON_DECODE | ON_PREFILL, NULL, NULL, "64", 64, NULL, NULL,
     "sglang 0.5.17: python/sglang/srt/arg_groups/overrides.py:2095-2104; 0.5.23: :1188-1197", NULL, NULL},
};

/* A KV dtype that only some prefill attention backends read: refused with
 * any other explicit (or defaulted) one. {backend}: the backend. */
static const struct dtype_backend_rule {
    span when;
    const char *dtype;
    const char *backends; /* space-separated */
    const char *message;
    const char *cite;
} DTYPE_BACKENDS[] = {
    {SINCE("0.5.21"), "nvfp4", "flashinfer trtllm_mha",
     "NVFP4 prefill supports an FP8 E4M3 workspace or native NVFP4, but backend '{backend}' provides neither.",
     "sglang 0.5.21: python/sglang/srt/arg_groups/kv_cache_hook.py:46-56"},
};

/* --decode-attention-backend as SGLang's attention checks read it: the
 * user's, or the side HiCache sets before them (settle_decode). Pure. */
static const setting *decode_flag(const ctx *c) { return &c->decode; }

/* The flag SGLang's attention_backend comes from, or NULL: from 0.5.4.post1
 * equal --prefill- and --decode-attention-backend replace it (sglang 0.5.5:
 * python/sglang/srt/server_args.py:1124-1127; 0.5.23:
 * python/sglang/srt/arg_groups/overrides.py:1128-1131), else
 * --attention-backend. Pure. */
static const setting *attention_flag(const ctx *c)
{
    const setting *a = &c->set->s[SET_ATTENTION_BACKEND], *p = &c->set->s[SET_PREFILL_ATTENTION_BACKEND],
                  *d = decode_flag(c);
    if (rel_since(c->rel, "0.5.4.post1") && p->set && d->set && strcmp(p->value, d->value) == 0) return p;
    return a->set ? a : NULL;
}

int rules_dual_chunk(const ctx *c)
{
    const setting *af = attention_flag(c);
    return af && strcmp(af->value, "dual_chunk_flash_attn") == 0 && rel_until(c->rel, "0.5.19");
}

int rules_radix_off(const ctx *c) { return c->set->s[SET_DISABLE_RADIX].set || rules_dual_chunk(c); }

/* The attention backend a worker outside DSA runs: its flag
 * (attention_flag), or SGLang's default for the model when no attention
 * flag is given; "" when neither names one. Pure. */
static const char *attn_backend(const ctx *c, const struct attn_default **dflt)
{
    const setting *af = attention_flag(c);
    *dflt = NULL;
    if (af) return af->value;
    /* the model's default comes before HiCache's decode side (0.5.5: server_args.py:588-592): the flags given */
    if (c->set->s[SET_DECODE_ATTENTION_BACKEND].set || c->set->s[SET_PREFILL_ATTENTION_BACKEND].set) return "";
    for (size_t i = 0; i < COUNT_OF(ATTN_DEFAULTS); i++) {
        const struct attn_default *r = &ATTN_DEFAULTS[i];
        if (in_span(c->rel, r->when) && !c->gpu->hip && c->gpu->major == r->major &&
            (r->arch ? strcmp(r->arch, c->model->architecture) == 0 : rules_arch_defaults(c->model->architecture, c->rel))) {
            *dflt = r;
            return r->backend;
        }
    }
    return "";
}

/* The --prefill-kv-cache-dequant-dtype given, or NULL for none or its default "auto". Pure. */
static const setting *dequant_given(const ctx *c)
{
    const setting *q = &c->set->s[SET_PREFILL_DEQUANT];
    return q->set && strcmp(q->value, "auto") != 0 ? q : NULL;
}

static kvc_status check_kv4(ctx *c, int hook);

/* Attention backends whose start-up checks for an MLA model kvcheck does
 * not model (the GPUs each side runs on, the sides they serve, the KV
 * dtypes they take or set, the page sizes or caches they change; found by
 * SGLang's own code: tools/sglang-oracle), named by an attention flag or
 * --speculative-draft-attention-backend. */
static const struct unmodelled_attn {
    span when;
    const char *backends; /* space-separated */
} UNMODELLED_ATTN[] = {
    /* other models' backends, whose constructors (which the oracle does not run) meet an MLA model's config:
     * DeepSeek-V4's (compressed: its deprecated alias), Qwen's sparse attention, MiniCPM's, LLaDA2's */
    {EVER, "dsv4 compressed qsa minicpm_flashattn minicpm_flashinfer llada2_cfg_flashinfer"},
};

/* Declines a worker that asks for deterministic inference (whose attention
 * backend checks kvcheck does not model), or whose attention backend
 * (`named`, from the flag `af`, or a side's or the draft's flag) is in
 * UNMODELLED_ATTN. */
static kvc_status decline_attention(const ctx *c, const setting *af, const char *named)
{
    const setting *det = &c->set->s[SET_DETERMINISTIC], *rl = &c->set->s[SET_RL_ON_POLICY];
    if (det->set || rl->set)
        return diag_set(c->diag, KVC_ERR_CONFIG, det->set ? &det->origin : &rl->origin,
                        "%s: kvcheck does not model SGLang %s's deterministic-inference checks (the attention backend "
                        "it picks, the ones it refuses, the radix cache it needs), so it cannot judge this worker",
                        det->set ? det->flag : rl->flag, SGLANG_VERSIONS[c->rel]);
    /* the flags a row reads beside the settled attention flag: both sides' and the draft's */
    const setting *const flags[] = {decode_flag(c), &c->set->s[SET_PREFILL_ATTENTION_BACKEND],
                                    &c->set->s[SET_SPEC_DRAFT_ATTN]};
    for (size_t i = 0; i < COUNT_OF(UNMODELLED_ATTN); i++) {
        const struct unmodelled_attn *r = &UNMODELLED_ATTN[i];
        if (!in_span(c->rel, r->when)) continue;
        const setting *by = af && word_in(named, r->backends) ? af : NULL;
        for (size_t k = 0; !by && k < COUNT_OF(flags); k++)
            if (flags[k]->set && word_in(flags[k]->value, r->backends)) by = flags[k];
        if (by)
            return diag_set(c->diag, KVC_ERR_CONFIG, &by->origin,
                            "%s %s: kvcheck does not model SGLang %s's start-up checks of this attention backend for "
                            "MLA models (the GPUs and sides it serves, the KV dtypes it takes, the page size or cache "
                            "it changes), so it cannot judge this worker",
                            by->flag, by->value, SGLANG_VERSIONS[c->rel]);
    }
    return KVC_OK;
}

/* The flag that brings ATTN_RULES row `r` in (the settled attention flag
 * `af`, or the side flags the row names), or the unset --attention-backend
 * when the model's default `named` is its backend; NULL: none. A side runs
 * its flag's backend, else the attention backend. Pure. */
static const setting *rule_flag(const ctx *c, const struct attn_rule *r, const setting *af, const char *named)
{
    const setting *d = decode_flag(c), *p = &c->set->s[SET_PREFILL_ATTENTION_BACKEND];
    const setting *attention = af ? af : &c->set->s[SET_ATTENTION_BACKEND];
    if ((r->sides & ON_ATTENTION) && strcmp(named, r->backend) == 0) return attention;
    if ((r->sides & ON_DECODE) && d->set && strcmp(d->value, r->backend) == 0) return d;
    if ((r->sides & ON_PREFILL) && p->set && strcmp(p->value, r->backend) == 0) return p;
    if ((r->sides & ON_PREFILL_SIDE) && strcmp(p->set ? p->value : named, r->backend) == 0) return p->set ? p : attention;
    if ((r->sides & ON_DECODE_SIDE) && strcmp(d->set ? d->value : named, r->backend) == 0) return d->set ? d : attention;
    const setting *draft = &c->set->s[SET_SPEC_DRAFT_ATTN];
    if ((r->sides & ON_DRAFT) && draft->set && strcmp(draft->value, r->backend) == 0) return draft;
    return NULL;
}

static kvc_status resolve_attention(ctx *c)
{
    const struct attn_default *dflt;
    const char *backend = attn_backend(c, &dflt);
    const setting *prefill = &c->set->s[SET_PREFILL_ATTENTION_BACKEND];
    const char *for_prefill = prefill->set ? prefill->value : backend;
    /* a prefill dequant dtype given chooses the prefill backend instead (kv4_sides) */
    for (size_t i = 0; i < COUNT_OF(DTYPE_BACKENDS) && !dequant_given(c); i++) {
        const struct dtype_backend_rule *r = &DTYPE_BACKENDS[i];
        if (!in_span(c->rel, r->when) || strcmp(c->dtype, r->dtype) != 0 || !for_prefill[0] ||
            word_in(for_prefill, r->backends))
            continue;
        char msg[300];
        const char *const f[][2] = {{"backend", for_prefill}};
        sglang_expand(r->message, f, COUNT_OF(f), msg, sizeof msg);
        return rules_refuse(c, &c->set->s[SET_KV_CACHE_DTYPE], "%s (%s%s; %s)", msg, for_prefill,
                      dflt ? ", SGLang's default attention backend here" : "", r->cite);
    }
    kvc_status st = check_kv4(c, 1);
    if (st) return st;
    /* the attention backend SGLang settles (attention_flag), else the model's default; a DSA model runs SGLang's
     * DSA attention backend unless a flag names another (inside the family guard the DSA dtype assertion has
     * refused an NVFP4 worker before, outside it the NVFP4 prefill checks above hold as for any model); the
     * backends named meet their own checks as for any model */
    const setting *af = attention_flag(c);
    const char *named = !c->dsa ? backend : af ? af->value : "";
    if ((st = decline_attention(c, af, named))) return st;
    if (strcmp(named, "flex_attention") == 0 && c->set->s[SET_SPEC_ALGO].set)
        return rules_refuse(c, af, "AssertionError: Speculative decoding is currently not supported with Flex Attention "
                      "backend (sglang 0.5.3rc2: python/sglang/srt/server_args.py:861-868; 0.5.13: :2858-2866; "
                      "0.5.23: python/sglang/srt/arg_groups/attention_hook.py:145-163)");
    char major[8];
    str_printf(major, sizeof major, "%u", c->gpu->major);
    for (size_t i = 0; i < COUNT_OF(ATTN_RULES); i++) {
        const struct attn_rule *r = &ATTN_RULES[i];
        const setting *by = rule_flag(c, r, af, named);
        if (!in_span(c->rel, r->when) || !by || (r->only_dtypes && !word_in(c->dtype, r->only_dtypes)) ||
            (r->not_dtypes && word_in(c->dtype, r->not_dtypes)))
            continue;
        char own[KVC_REASON_LEN], *why = r->pages ? add_attn(c, r) : own; /* the page rules keep theirs */
        if (!by->set)
            str_printf(why, KVC_REASON_LEN, "%s: SGLang's default attention backend for %s on SM%u0 (%s)", r->backend,
                       c->model->architecture, dflt->major, dflt->cite);
        else
            str_printf(why, KVC_REASON_LEN, "%s: given by %s", r->backend, by->flag);
        if (r->majors && (c->gpu->hip || !word_in(major, r->majors)))
            return rules_refuse(c, by->set ? by : NULL, "%s (%s; %s)", r->platform_message, why, r->cite);
        if (r->dtypes && !word_in(c->dtype, r->dtypes)) {
            char msg[300];
            const char *const f[][2] = {{"dtype", c->dtype}};
            sglang_expand(r->dtype_message, f, COUNT_OF(f), msg, sizeof msg);
            return rules_refuse(c, &c->set->s[SET_KV_CACHE_DTYPE], "%s (%s; %s)", msg, why, r->cite);
        }
    }
    return KVC_OK;
}

/* ------------------------------------------------ MHA attention backend */

/* An architecture a release has no model class for (SERVED) is in none of
 * its MLA lists either (sglang 0.5.6.post1: python/sglang/srt/configs/
 * model_config.py:331-344), so its argument checks take the MHA path. With
 * no attention-backend flag and no --speculative-eagle-topk (topk None:
 * is_no_spec_infer_or_topk_one holds), a row's release picks `backend` on
 * the CUDA majors `majors` (is_blackwell), whose platform check passes on
 * `passes` only (is_sm100_supported); speculative decoding then auto-chooses
 * topk 4 for these architectures (not in auto_choose_speculative_params'
 * list) under `topk_algos` (NEXTN runs as EAGLE; STANDALONE gets topk 1,
 * NGRAM none), which the backend refuses. Releases without a row refuse
 * none of these workers before model load: up to 0.5.4 the MHA default is
 * picked in the model runner and is never trtllm_mha (sglang 0.5.4:
 * python/sglang/srt/model_executor/model_runner.py:545-574), 0.5.4.post1-
 * 0.5.6 pick fa3 (listed architectures only), aiter, flashinfer or triton
 * (sglang 0.5.6: python/sglang/srt/server_args.py:1293-1308), and from 0.5.7
 * trtllm_mha only on SM100 and, with speculative decoding, only for a topk
 * given (sglang 0.5.7: python/sglang/srt/server_args.py:1526-1542; sglang
 * 0.5.19: python/sglang/srt/arg_groups/model_override_base.py:298-320). */
static const struct mha_default {
    span when;
    const char *majors; /* space-separated */
    const char *backend;
    const char *passes; /* space-separated */
    const char *platform_message;
    const char *topk_algos; /* space-separated */
    const char *topk_message;
    const char *cite;
} MHA_DEFAULTS[] = {
    {FROM_TO("0.5.6.post1", "0.5.6.post2"), "10 12", "trtllm_mha", "10",
     "ValueError: TRTLLM MHA backend is only supported on Blackwell GPUs (SM100). Please use a different backend.",
     "EAGLE EAGLE3 NEXTN", "ValueError: trtllm_mha backend only supports topk = 1 for speculative decoding.",
     "sglang 0.5.6.post1: python/sglang/srt/server_args.py:1344-1353, :1435-1443, :1696-1699, :1756-1775, "
     ":4579-4610; sglang 0.5.6.post2: :1374-1383, :1465-1473, :1729-1732, :1789-1808, :4649-4680"},
};

/* The flag naming an attention backend or a topk, NULL when none does:
 * SGLang's MHA argument checks then depend on inputs kvcheck does not model. Pure. */
static const setting *mha_input_given(const ctx *c)
{
    static const setting_key KEYS[] = {SET_ATTENTION_BACKEND, SET_PREFILL_ATTENTION_BACKEND,
                                       SET_DECODE_ATTENTION_BACKEND, SET_SPEC_EAGLE_TOPK};
    for (size_t i = 0; i < COUNT_OF(KEYS); i++)
        if (c->set->s[KEYS[i]].set) return &c->set->s[KEYS[i]];
    return NULL;
}

static kvc_status refuse_none_topk(const ctx *c, const char *beside, const char *cite);

/* The MHA default row that holds for the worker, or NULL. Pure. */
static const struct mha_default *mha_default(const ctx *c)
{
    char major[8];
    str_printf(major, sizeof major, "%u", c->gpu->major);
    if (!unserved(c->model->architecture, c->rel) || mha_input_given(c) || c->gpu->hip) return NULL;
    for (size_t i = 0; i < COUNT_OF(MHA_DEFAULTS); i++)
        if (in_span(c->rel, MHA_DEFAULTS[i].when) && word_in(major, MHA_DEFAULTS[i].majors)) return &MHA_DEFAULTS[i];
    return NULL;
}

/* How SGLang chose `backend` for a model it has no class for, into `why`. */
static void mha_why(const ctx *c, const char *backend, char *why, size_t size)
{
    const struct served_row *u = unserved(c->model->architecture, c->rel);
    str_printf(why, size, "%s: SGLang %s's default attention backend on SM%u%u for %s, which it takes as an MHA model "
               "since it has no model class for it; the first is in %s, pass --sglang-version %s or newer",
               backend, SGLANG_VERSIONS[c->rel], c->gpu->major, c->gpu->minor, c->model->architecture, u->since,
               u->since);
}

/* SGLang's argument checks of the MHA attention backend it picks for a model it has no class for. */
static kvc_status check_mha_default(const ctx *c)
{
    const struct mha_default *r = mha_default(c);
    if (!r) return KVC_OK;
    char major[8], why[300];
    str_printf(major, sizeof major, "%u", c->gpu->major);
    mha_why(c, r->backend, why, sizeof why);
    if (!word_in(major, r->passes)) return rules_refuse(c, NULL, "%s (%s; %s)", r->platform_message, why, r->cite);
    const setting *s = &c->set->s[SET_SPEC_ALGO];
    if (!s->set || !word_in(s->value, r->topk_algos)) return KVC_OK;
    /* the speculative handler picks the parameters only when --speculative-num-steps is not given (then none may be:
     * its bare assert, check_spec_params), before the comparison with 1 */
    if (c->set->s[SET_SPEC_NUM_STEPS].set) return refuse_none_topk(c, " as trtllm_mha runs", r->cite);
    if (c->set->s[SET_SPEC_DRAFT_TOKENS].set) return KVC_OK;
    return rules_refuse(c, s, "%s (%s; --speculative-algorithm %s auto-chooses topk 4 for it; %s)", r->topk_message,
                        why, s->value, r->cite);
}

/* From 0.5.7 to 0.5.19, the MHA attention backend SGLang picks for a model
 * it has no class for (SERVED), with no attention-backend flag and no
 * --speculative-eagle-topk (topk None: is_no_spec_infer_or_topk_one holds),
 * on CUDA; first match. SM100 (is_sm100_supported: major 10) picks its row
 * only without a speculative algorithm (topk None fails `algorithm is None
 * or topk is not None`), fa4 from 0.5.17 for a model whose K and V rows
 * differ in width. 0.5.7's Hopper fa3 is for listed architectures only
 * (is_fa3_default_architecture), none of SERVED's. The last row assumes
 * FlashInfer is installed, as SGLang's CUDA wheels have it, and a model
 * without attention sinks (none of SERVED's has them: sglang 0.5.17:
 * python/sglang/srt/configs/model_config.py:748-765). */
static const struct mha_backend_row {
    span when;
    unsigned major; /* CUDA major; 0: any */
    int spec;       /* also with a speculative algorithm */
    int asymmetric; /* only for a model whose K and V rows differ in width */
    const char *backend;
} MHA_BACKENDS[] = {
    {FROM_TO("0.5.8", "0.5.19"), 9, 1, 0, "fa3"},
    {FROM_TO("0.5.17", "0.5.19"), 10, 0, 1, "fa4"},
    {FROM_TO("0.5.7", "0.5.19"), 10, 0, 0, "trtllm_mha"},
    {FROM_TO("0.5.7", "0.5.19"), 0, 1, 0, "flashinfer"},
};
static const char MHA_BACKENDS_CITE[] =
    "sglang 0.5.7: python/sglang/srt/server_args.py:1511-1548; sglang 0.5.8: :1659-1677; sglang 0.5.16: :4880-4932; "
    "sglang 0.5.17: :5679-5712; sglang 0.5.19: python/sglang/srt/arg_groups/model_override_base.py:298-331";

/* 1 when the model's K and V rows differ in width as SGLang's MHA path
 * derives them (head_dim, else hidden_size / num_attention_heads; V:
 * v_head_dim, else head_dim; sglang 0.5.17: python/sglang/srt/configs/
 * model_config.py:738-746, :803-814), 0 when not, -1 when the config does
 * not say. Pure. */
static int asymmetric_kv(const model_info *m)
{
    uint32_t k = m->head_dim ? m->head_dim : m->num_attention_heads ? m->hidden_size / m->num_attention_heads : 0;
    if (!k) return -1;
    return (m->v_head_dim ? m->v_head_dim : k) != k;
}

/* The MHA attention backend SGLang picks for a worker of a model it has no
 * class for, when kvcheck knows it (MHA_BACKENDS), else NULL. Pure. */
static const char *mha_backend(const ctx *c)
{
    if (!unserved(c->model->architecture, c->rel) || mha_input_given(c) || c->gpu->hip) return NULL;
    int spec = c->set->s[SET_SPEC_ALGO].set, asym = asymmetric_kv(c->model);
    for (size_t i = 0; i < COUNT_OF(MHA_BACKENDS); i++) {
        const struct mha_backend_row *r = &MHA_BACKENDS[i];
        if (!in_span(c->rel, r->when) || (r->major && r->major != c->gpu->major) || (spec && !r->spec)) continue;
        if (r->asymmetric && asym < 0) return NULL; /* the row may hold: not known */
        if (!r->asymmetric || asym) return r->backend;
    }
    return NULL;
}

/* ------------------------------------------------ block-scaled dtypes */

/* SGLang's start-up checks of its FP4 and MXFP8 KV dtypes
 * (_handle_kv4_compatibility and _handle_mxfp8_kv_cache_compatibility,
 * arg_groups/kv_cache_hook.py from 0.5.19), run after its attention-backend
 * checks; first match refuses. */
enum kv4_test {
    /* from 0.5.21, SGLang's NVFP4 prefill hook (handle_nvfp4_prefill_kv_dequant_dtype), run before the
     * attention-backend checks (check_kv4's `hook` phase): */
    K_DEQUANT_ALONE,    /* --prefill-kv-cache-dequant-dtype given with another KV dtype */
    K_NATIVE_OFF_SM100, /* native NVFP4 prefill asked for off SM100 */
    K_PREFILL_GIVEN,    /* a prefill attention backend given that is not the one the dequant dtype needs */
    K_DECODE_GIVEN,     /* a decode attention backend given that is not in `backends` */
    K_NOT_CUDA,      /* ROCm */
    K_NOT_SM100_120, /* CUDA with compute capability major neither 10 nor 12 */
    K_NOT_BLACKWELL, /* not CUDA with compute capability major >= 10 */
    K_MLA_BACKEND,   /* CUDA: SGLang checks the MLA attention backend against `backends` (to 0.5.20) */
    K_MHA_FA4,       /* a model without class, FA4 by default (mha_backend): the decode backend must be in `backends` */
    K_MHA_BACKEND,   /* ... another backend by default: the attention backend must be in `backends` */
    /* from 0.5.21, on the prefill/decode pair SGLang resolves (kv4_sides): */
    K_SIDE_MAJOR,       /* the side named in `backends` runs trtllm_mha off the CUDA majors 9, 10, 12 */
    K_PREFILL_CP,       /* trtllm_mha prefill off SM100 with --attn-cp-size above 1 */
    K_UNIFIED,          /* CUDA with --enable-unified-memory */
    K_NATIVE_SPEC_IN,   /* native NVFP4 on trtllm_mha with a speculative algorithm in `backends` */
    K_NATIVE_SPEC_OUT,  /* ... with a speculative algorithm not in `backends` */
    K_NATIVE_NGRAM,     /* ... with the speculative algorithm `backends` and a BFS breadth other than 1 */
    K_NATIVE_DRAFT,     /* ... with a draft model whose attention backend given is not `backends` */
    K_NATIVE_PD,        /* ... in a PD worker */
    K_NATIVE_HOST,      /* ... with a host KV tier (--enable-hierarchical-cache, --enable-lmcache) */
    K_FA4_DECODE,       /* FA4 prefill: the decode backend must be in `backends` */
    K_ATTENTION         /* equal, non-FA4 sides: the attention backend must be in `backends` */
};
static const struct kv4_rule {
    span when;
    const char *dtypes; /* space-separated; NULL: any */
    enum kv4_test test;
    const char *message; /* {backend}: the attention backend; {algo}: the speculative algorithm; {value}: the
                            value given; {dequant}: the prefill dequant dtype */
    const char *backends; /* space-separated: see the test */
    const char *cite;
} KV4[] = {
    /* the NVFP4 prefill hook; kv_cache_hook.py is the same in 0.5.21, 0.5.22 and 0.5.23 at the lines cited
     * here and below */
    {SINCE("0.5.21"), NULL, K_DEQUANT_ALONE, "--prefill-kv-cache-dequant-dtype applies only with --kv-cache-dtype=nvfp4.",
     NULL, "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:39-44"},
    {SINCE("0.5.21"), "nvfp4", K_NATIVE_OFF_SM100,
     "Native NVFP4 prefill currently requires SM100; use --prefill-kv-cache-dequant-dtype=fp8_e4m3 on this platform.",
     NULL, "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:59-63"},
    {SINCE("0.5.21"), "nvfp4", K_PREFILL_GIVEN,
     "--prefill-kv-cache-dequant-dtype={dequant} requires prefill backend '{backend}', but "
     "--prefill-attention-backend='{value}' was set. Remove the backend option and select the KV dtype only.",
     NULL, "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:65-76"},
    {SINCE("0.5.21"), "nvfp4", K_DECODE_GIVEN,
     "NVFP4 decode requires --decode-attention-backend=trtllm_mha; got '{backend}'. Remove the backend option; NVFP4 "
     "selects the supported decode implementation automatically.",
     "trtllm_mha", "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:78-84"},
    {FROM_TO("0.5.7", "0.5.15.post1"), "fp4_e2m1", K_NOT_CUDA, "KV4 is not tested on non-CUDA platforms.", NULL,
     "sglang 0.5.7: python/sglang/srt/server_args.py:1787; sglang 0.5.15.post1: python/sglang/srt/server_args.py:4559"},
    {FROM_TO("0.5.7", "0.5.15.post1"), "fp4_e2m1", K_MLA_BACKEND,
     "KV4 MLA expects attention_backend to be one of ['cutlass_mla', 'flashinfer', 'trtllm_mla', 'flashmla'], but "
     "got {backend}",
     "cutlass_mla flashinfer trtllm_mla flashmla",
     "sglang 0.5.9: python/sglang/srt/server_args.py:1976-2051; sglang 0.5.15.post1: "
     "python/sglang/srt/server_args.py:4493-4559"},
    /* from 0.5.21, on the sides kv4_sides resolves: the TRTLLM MHA checks of
     * handle_attention_backend_compatibility, before handle_kv4_compatibility (its GPU rows below, then the
     * rows at the end) */
    {SINCE("0.5.21"), "nvfp4 fp4_mx_block16", K_SIDE_MAJOR,
     "TRTLLM MHA backend for prefill requires Hopper (SM90), Blackwell (SM100), or SM120 GPUs. Please use a different "
     "prefill backend.",
     "prefill", "sglang 0.5.21: python/sglang/srt/arg_groups/attention_hook.py:129-137; sglang 0.5.23: :198-206"},
    {SINCE("0.5.21"), "nvfp4 fp4_mx_block16", K_SIDE_MAJOR,
     "TRTLLM MHA backend for decode is only supported on Hopper (SM90), Blackwell (SM100) and (SM120) GPUs. Please "
     "use a different decode backend.",
     "decode", "sglang 0.5.21: python/sglang/srt/arg_groups/attention_hook.py:153-158; sglang 0.5.23: :222-227"},
    {SINCE("0.5.19"), NULL, K_PREFILL_CP,
     "Prefill context parallelism with the TRTLLM MHA prefill backend requires SM100 (trtllm-gen context kernel): "
     "the SM90/SM120 fmha_v2 prefill path does not implement CP shard masking.",
     NULL,
     "sglang 0.5.19: python/sglang/srt/arg_groups/attention_hook.py:161-170 (and --enable-prefill-context-parallel, "
     "which kvcheck does not read, to 0.5.20); sglang 0.5.21: :159-166; sglang 0.5.22: :227-234; sglang 0.5.23: "
     ":228-237"},
    {SINCE("0.5.16"), "mxfp8", K_NOT_BLACKWELL,
     "--kv-cache-dtype mxfp8 requires an SM100+ (Blackwell) GPU for the block-scaled operands used by the FA4 MXFP8 "
     "attention path.",
     NULL,
     "sglang 0.5.16: python/sglang/srt/server_args.py:5064-5072; sglang 0.5.23: "
     "python/sglang/srt/arg_groups/kv_cache_hook.py:100-109"},
    /* from 0.5.21 an nvfp4 worker on ROCm is refused first by the TRTLLM MHA decode check (K_SIDE_MAJOR) */
    {FROM_TO("0.5.16", "0.5.20"), "nvfp4", K_NOT_CUDA, "KV4 is not tested on non-CUDA platforms.", NULL,
     "sglang 0.5.16: python/sglang/srt/server_args.py:5146; sglang 0.5.20: "
     "python/sglang/srt/arg_groups/kv_cache_hook.py:108"},
    {SINCE("0.5.16"), "fp4_mx_block16", K_NOT_CUDA, "KV4 is not tested on non-CUDA platforms.", NULL,
     "sglang 0.5.16: python/sglang/srt/server_args.py:5146; sglang 0.5.23: "
     "python/sglang/srt/arg_groups/kv_cache_hook.py:318"},
    {SINCE("0.5.16"), "nvfp4", K_NOT_SM100_120,
     "--kv-cache-dtype=nvfp4 requires Blackwell SM100 or SM120. Use --kv-cache-dtype=fp4_mx_block16 for the "
     "block-size-16 FP4 recipe.",
     NULL,
     "sglang 0.5.16: python/sglang/srt/server_args.py:5085-5093; sglang 0.5.23: "
     "python/sglang/srt/arg_groups/kv_cache_hook.py:124-132"},
    {FROM_TO("0.5.16", "0.5.19"), "nvfp4 fp4_mx_block16", K_MLA_BACKEND,
     "KV4 MLA expects attention_backend to be one of ['cutlass_mla', 'flashinfer', 'trtllm_mla'], but got {backend}",
     "cutlass_mla flashinfer trtllm_mla",
     "sglang 0.5.16: python/sglang/srt/server_args.py:5074-5146; sglang 0.5.19: "
     "python/sglang/srt/arg_groups/kv_cache_hook.py:36-109"},
    {FROM_TO("0.5.20", "0.5.20"), "nvfp4 fp4_mx_block16", K_MLA_BACKEND,
     "KV4 MLA expects attention_backend to be one of ['flashinfer', 'trtllm_mla'], but got {backend}",
     "flashinfer trtllm_mla", "sglang 0.5.20: python/sglang/srt/arg_groups/kv_cache_hook.py:37-108"},
    /* a model without class takes the MHA branch of the same checks, on the backend SGLang picks (mha_backend) */
    {FROM_TO("0.5.7", "0.5.15.post1"), "fp4_e2m1", K_MHA_FA4,
     "KV4 FA4 MHA expects decode_attention_backend to be one of ['triton', 'torch_native', 'flex_attention'], but got "
     "{backend}",
     "triton torch_native flex_attention",
     "sglang 0.5.7: python/sglang/srt/server_args.py:1748-1760; sglang 0.5.15.post1: :4525-4535"},
    {FROM_TO("0.5.7", "0.5.15.post1"), "fp4_e2m1", K_MHA_BACKEND,
     "KV4 MHA expects attention_backend to be one of ['triton', 'torch_native', 'flex_attention', 'trtllm_mha'], but "
     "got {backend}",
     "triton torch_native flex_attention trtllm_mha",
     "sglang 0.5.7: python/sglang/srt/server_args.py:1775-1788; sglang 0.5.15.post1: :4547-4557"},
    {FROM_TO("0.5.16", "0.5.19"), "nvfp4 fp4_mx_block16", K_MHA_FA4,
     "KV4 FA4 MHA expects decode_attention_backend to be one of ['triton', 'torch_native', 'flex_attention'], but got "
     "{backend}",
     "triton torch_native flex_attention",
     "sglang 0.5.16: python/sglang/srt/server_args.py:5113-5123; sglang 0.5.19: "
     "python/sglang/srt/arg_groups/kv_cache_hook.py:76-86"},
    {FROM_TO("0.5.16", "0.5.19"), "nvfp4 fp4_mx_block16", K_MHA_BACKEND,
     "KV4 MHA expects attention_backend to be one of ['triton', 'torch_native', 'flex_attention', 'trtllm_mha'], but "
     "got {backend}",
     "triton torch_native flex_attention trtllm_mha",
     "sglang 0.5.16: python/sglang/srt/server_args.py:5134-5144; sglang 0.5.19: "
     "python/sglang/srt/arg_groups/kv_cache_hook.py:97-107"},
    /* handle_kv4_compatibility from 0.5.21, after its GPU rows above */
    {SINCE("0.5.21"), "nvfp4 fp4_mx_block16", K_UNIFIED,
     "FP4 KV cache does not yet support --enable-unified-memory: the unified MHA pool does not allocate FP4 block "
     "scales or the prefill dequant workspace.",
     NULL, "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:132-137"},
    {SINCE("0.5.21"), "nvfp4", K_NATIVE_SPEC_IN,
     "SM100 native NVFP4 speculative decoding does not yet support {algo}; use EAGLE/NEXTN or NGRAM.", "DFLASH DSPARK",
     "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:165-175"},
    {SINCE("0.5.21"), "nvfp4", K_NATIVE_SPEC_OUT,
     "SM100 native NVFP4 speculative decoding supports EAGLE, EAGLE3, NEXTN, and breadth-1 NGRAM; got {algo}.",
     "EAGLE EAGLE3 NEXTN NGRAM", "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:176-188"},
    {SINCE("0.5.21"), "nvfp4", K_NATIVE_NGRAM,
     "SM100 native NVFP4 NGRAM speculative decoding requires --speculative-ngram-max-bfs-breadth=1 because "
     "trtllm_mha supports linear target verification only; got {value}.",
     "NGRAM", "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:189-203"},
    {SINCE("0.5.21"), "nvfp4", K_NATIVE_DRAFT,
     "SM100 native NVFP4 speculative decoding requires --speculative-draft-attention-backend=trtllm_mha so the draft "
     "worker consumes its physical NVFP4 KV layout; got '{value}'.",
     "trtllm_mha", "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:204-231"},
    {SINCE("0.5.21"), "nvfp4", K_NATIVE_PD,
     "SM100 native NVFP4 with trtllm_mha does not yet support PD disaggregation because its physical block-scale "
     "layout is not implemented by the KV transfer path.",
     NULL, "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:251-256"},
    {SINCE("0.5.21"), "nvfp4", K_NATIVE_HOST,
     "SM100 native NVFP4 with trtllm_mha does not yet support hierarchical KV cache or LMCache because their host "
     "pools do not preserve the physical block-scale layout.",
     NULL, "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:257-264"},
    {SINCE("0.5.21"), "nvfp4 fp4_mx_block16", K_FA4_DECODE,
     "KV4 FA4 MLA expects decode_attention_backend to be one of ['flashinfer', 'trtllm_mla'], but got {backend}",
     "flashinfer trtllm_mla", "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:276-285"},
    {SINCE("0.5.21"), "nvfp4 fp4_mx_block16", K_ATTENTION,
     "KV4 MLA expects attention_backend to be one of ['flashinfer', 'trtllm_mla'], but got {backend}",
     "flashinfer trtllm_mla", "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:296-305"},
};

/* The pool SGLang builds for a torch.float4_e2m1fn_x2 KV dtype on CUDA (its
 * test, is_float4_e2m1fn_x2, asks is_cuda(): sglang 0.5.5:
 * python/sglang/srt/utils/common.py:155-158): the FP4 MLA pool, rows of
 * R + r E2M1 values two to a byte (fp4_mx16) and their UE8M0 block-16
 * scales in a second buffer per layer (fp4_mx16_scales). From 0.5.6 a DSA
 * model gets its DSA pool of float4 elements without scales instead (sglang
 * 0.5.23: python/sglang/srt/mem_cache/kv_cache_configurator.py:1866-1871);
 * before, no DSA model reaches the pool with FP4 (the DSA dtype assertion
 * refuses it inside the family guard, and no DSA architecture is outside). */
static const char FP4_POOL_CITE[] =
    "MLATokenToKVPoolFP4, sglang 0.5.23: python/sglang/srt/mem_cache/memory_pool.py:5133-5164 (from 0.5.6; before, "
    "sglang 0.5.5: memory_pool.py:1321-1345)";

/* What SGLang's pool for a float4 KV dtype is on this worker: for the
 * refusals of cases kvcheck cannot judge, and fp4_pool()'s reason. */
static void fp4_pool_text(const ctx *c, char *out, size_t size)
{
    unsigned R = c->model->kv_lora_rank, r = c->model->qk_rope_head_dim;
    if (c->gpu->hip)
        str_printf(out, size, "the plain pool of R + r = %u torch.float4_e2m1fn_x2 elements a token (%u B, no scales), "
                   "since SGLang's FP4 pool is CUDA-only (is_float4_e2m1fn_x2, sglang 0.5.5: "
                   "python/sglang/srt/utils/common.py:155-158)", R + r, R + r);
    else if (c->dsa && rel_since(c->rel, "0.5.6"))
        str_printf(out, size, "the DSA pool of R + r = %u torch.float4_e2m1fn_x2 elements a token (%u B, no scale "
                   "buffer; sglang 0.5.23: python/sglang/srt/mem_cache/kv_cache_configurator.py:1866-1871)", R + r,
                   R + r);
    else
        str_printf(out, size, "fp4_mx16, %u B a token of E2M1 pairs, and fp4_mx16_scales, a second buffer of %u B a "
                   "token of UE8M0 scales that the PD transfer does not send (%s)", (R + r) / 2, (R + r) / 16,
                   FP4_POOL_CITE);
}

/* The MLA attention backend SGLang picks when neither a flag nor a model's
 * own default chose one (get_default_attn_backend's MLA branch, the same
 * from 0.5.4.post1 on): first match. `heads`: on ROCm, the KV heads a rank
 * keeps (the config's over --tp-size) that aiter takes; NULL: any. */
static const struct mla_default_row {
    span when;
    int hip;
    unsigned major; /* CUDA compute capability major; 0: any */
    const char *heads;
    const char *backend;
} MLA_DEFAULTS[] = {
    {SINCE("0.5.4.post1"), 0, 9, NULL, "fa3"},
    {SINCE("0.5.4.post1"), 0, 10, NULL, "flashinfer"},
    {SINCE("0.5.4.post1"), 0, 0, NULL, "triton"},
    {SINCE("0.5.4.post1"), 1, 0, "16 128", "aiter"},
    {SINCE("0.5.4.post1"), 1, 0, NULL, "triton"},
};
static const char MLA_DEFAULTS_CITE[] = "sglang 0.5.4.post1: python/sglang/srt/server_args.py:1087-1101; sglang 0.5.9: "
                                        ":1819-1832; sglang 0.5.16: :4934-4949; sglang 0.5.20: "
                                        "python/sglang/srt/arg_groups/model_override_base.py:353-368; sglang 0.5.23: "
                                        ":335-351";

/* A model's KV heads, as SGLang counts them (model_config.py
 * get_total_num_kv_heads: the first KV-head key, else
 * num_attention_heads); 0 when the config names none. Pure. */
static uint64_t total_kv_heads(const model_info *m)
{
    return m->num_kv_heads ? m->num_kv_heads : m->num_attention_heads;
}

/* The KV heads one of `tp` ranks keeps: at least one
 * (model_config.get_num_kv_heads). Pure. */
static uint64_t kv_heads_per_rank(uint64_t total, unsigned long tp)
{
    uint64_t heads = tp ? total / tp : total;
    return heads ? heads : 1;
}

/* SGLang's default MLA attention backend for this worker, or "" where
 * kvcheck cannot tell (before 0.5.4.post1, where the hooks that read it
 * see None; on ROCm when the config names no KV heads). Pure. */
static const char *mla_default(const ctx *c)
{
    char heads[24];
    uint64_t total = total_kv_heads(c->model), n = total ? kv_heads_per_rank(total, size_of(c, SET_TP)) : 0;
    str_printf(heads, sizeof heads, "%llu", (unsigned long long)n);
    for (size_t i = 0; i < COUNT_OF(MLA_DEFAULTS); i++) {
        const struct mla_default_row *r = &MLA_DEFAULTS[i];
        if (!in_span(c->rel, r->when) || r->hip != c->gpu->hip || (r->major && r->major != c->gpu->major)) continue;
        if (r->heads && !n) return "";
        if (!r->heads || word_in(heads, r->heads)) return r->backend;
    }
    return "";
}

/* The attention backend KV4's check sees, and into `why` how it was
 * chosen: the flag, SGLang's default for the model (attn_backend), else its
 * default for MLA models; "" when none of them names one. */
static const char *kv4_attention_backend(const ctx *c, char *why, size_t size)
{
    const struct attn_default *dflt;
    const char *b = attn_backend(c, &dflt);
    if (dflt) str_printf(why, size, "SGLang's default attention backend for %s on SM%u0, %s", c->model->architecture,
                         dflt->major, dflt->cite);
    else str_printf(why, size, "the attention backend given");
    if (!b[0] && (b = mla_default(c))[0])
        str_printf(why, size, "SGLang's default attention backend for MLA models on %s, %s", c->gpu->name,
                   MLA_DEFAULTS_CITE);
    return b;
}

/* From 0.5.21 SGLang sets both attention backends of an NVFP4 worker before
 * it picks a default one (handle_nvfp4_prefill_kv_dequant_dtype): by the
 * --prefill-kv-cache-dequant-dtype given (the first row with it), else by
 * the prefill backend given (else --attention-backend, or the model's
 * default), else by the GPU; first match. With no dequant dtype given, a
 * backend given that no row names is refused before (DTYPE_BACKENDS). */
static const struct nvfp4_prefill_row {
    span when;
    const char *given;   /* "": none given */
    unsigned major;      /* with none given: this CUDA major only; 0: any GPU */
    const char *dequant; /* nvfp4: native NVFP4 prefill; fp8_e4m3: an FP8 E4M3 workspace */
    const char *prefill, *decode;
} NVFP4_PREFILL[] = {
    {SINCE("0.5.21"), "flashinfer", 0, "fp8_e4m3", "flashinfer", "trtllm_mha"},
    {SINCE("0.5.21"), "trtllm_mha", 0, "nvfp4", "trtllm_mha", "trtllm_mha"},
    {SINCE("0.5.21"), "", 10, "nvfp4", "trtllm_mha", "trtllm_mha"},
    {SINCE("0.5.21"), "", 0, "fp8_e4m3", "flashinfer", "trtllm_mha"},
};
static const char NVFP4_PREFILL_CITE[] = "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:25-31, :47-92";
/* The attention backend that prefill and decode backends equal to each
 * other become, else the default (_attention_backend_default). */
static const char SIDES_CITE[] = "sglang 0.5.21: python/sglang/srt/arg_groups/overrides.py:1049-1062; sglang 0.5.23: "
                                 ":1127-1140";

/* trtllm_mha's GPUs, and the page sizes it keeps (any other becomes 64),
 * for the sides kv4_sides resolves. */
static const struct attn_rule TRTLLM_MHA = {
    SINCE("0.5.21"), "trtllm_mha", ON_ATTENTION | ON_DECODE | ON_PREFILL, "9 10 12", NULL, "16 32 64 128", 64, NULL, NULL,
    "sglang 0.5.21: python/sglang/srt/arg_groups/overrides.py:1110-1118; sglang 0.5.23: :1174-1187", NULL, NULL};

/* The attention backends KV4's checks see from 0.5.21. */
struct kv4_sides {
    const char *side[2];   /* prefill, decode */
    const char *attention; /* the attention backend */
    const struct nvfp4_prefill_row *nvfp4; /* the NVFP4 row that set the sides, or NULL */
    char why[600];
};

static int cuda_major(const ctx *c, unsigned major) { return !c->gpu->hip && c->gpu->major == major; }

static int native_prefill(const struct nvfp4_prefill_row *r) { return strcmp(r->dequant, "nvfp4") == 0; }

/* The sides a release's SGLang resolves before its KV4 checks. Pure. */
static void kv4_sides(const ctx *c, struct kv4_sides *s)
{
    const setting *p = &c->set->s[SET_PREFILL_ATTENTION_BACKEND], *d = decode_flag(c);
    const struct attn_default *dflt;
    const char *given = p->set ? p->value : attn_backend(c, &dflt);
    memset(s, 0, sizeof *s);
    s->side[PREFILL] = p->set ? p->value : "";
    s->side[DECODE] = d->set ? d->value : "";
    const setting *q = dequant_given(c);
    for (size_t i = 0; i < COUNT_OF(NVFP4_PREFILL) && !s->nvfp4 && strcmp(c->dtype, "nvfp4") == 0; i++) {
        const struct nvfp4_prefill_row *r = &NVFP4_PREFILL[i];
        if (in_span(c->rel, r->when) && (q ? strcmp(r->dequant, q->value) == 0
                                           : strcmp(r->given, given) == 0 &&
                                                 (r->given[0] || !r->major || cuda_major(c, r->major))))
            s->nvfp4 = r;
    }
    char why[400];
    if (s->nvfp4) {
        s->side[PREFILL] = s->nvfp4->prefill;
        s->side[DECODE] = s->nvfp4->decode;
    }
    if (s->side[PREFILL][0] && strcmp(s->side[PREFILL], s->side[DECODE]) == 0) {
        s->attention = s->side[PREFILL];
        str_printf(why, sizeof why, "the prefill and decode backends, equal (%s)", SIDES_CITE);
    } else {
        s->attention = kv4_attention_backend(c, why, sizeof why);
    }
    for (int i = PREFILL; i <= DECODE; i++)
        if (!s->side[i][0]) s->side[i] = s->attention;
    if (s->nvfp4)
        str_printf(s->why, sizeof s->why, "prefill %s and decode %s, set by SGLang %s for --kv-cache-dtype nvfp4 "
                   "(%s prefill; %s); attention backend %s: %s", s->side[PREFILL], s->side[DECODE],
                   SGLANG_VERSIONS[c->rel], native_prefill(s->nvfp4) ? "native NVFP4" : "FP8 E4M3 workspace",
                   NVFP4_PREFILL_CITE, s->attention, why);
    else
        str_printf(s->why, sizeof s->why, "prefill %s and decode %s; attention backend %s: %s", s->side[PREFILL],
                   s->side[DECODE], s->attention, why);
}

/* SGLang 0.5.21+'s native NVFP4 on SM100 (uses_sm100_trtllm_nvfp4): NVFP4
 * with trtllm_mha on either side. Pure. */
static int native(const ctx *c, const struct kv4_sides *s)
{
    return strcmp(c->dtype, "nvfp4") == 0 && cuda_major(c, 10) &&
           (strcmp(s->side[PREFILL], TRTLLM_MHA.backend) == 0 || strcmp(s->side[DECODE], TRTLLM_MHA.backend) == 0);
}

/* The flag that chose a side's attention backend (-1: the attention
 * backend itself), `runs` (NULL: not known): the side's flag, else
 * --attention-backend where the side runs its value, else --kv-cache-dtype,
 * whose value chose it (KV4's NVFP4 sides). Pure. */
static const setting *flag_of(const ctx *c, int side, const char *runs)
{
    const setting *f = side == PREFILL ? &c->set->s[SET_PREFILL_ATTENTION_BACKEND]
                       : side == DECODE ? decode_flag(c) : NULL;
    const setting *a = &c->set->s[SET_ATTENTION_BACKEND];
    if (f && f->set) return f;
    if (a->set && (!runs || strcmp(a->value, runs) == 0)) return a;
    return &c->set->s[SET_KV_CACHE_DTYPE];
}

/* A KV4 row's refusal, its message expanded with `backend` as {backend}, `value` as {algo} and {value}, and
 * the NVFP4 prefill dequant dtype as {dequant}. */
static kvc_status refuse_with(const ctx *c, const setting *s, const struct kv4_rule *k, const char *backend,
                              const char *value, const struct kv4_sides *sides)
{
    char msg[400];
    const char *const f[][2] = {{"backend", backend},
                                {"algo", value},
                                {"value", value},
                                {"dequant", sides->nvfp4 ? sides->nvfp4->dequant : ""}};
    sglang_expand(k->message, f, COUNT_OF(f), msg, sizeof msg);
    return rules_refuse(c, s, "%s (%s; %s)", msg, sides->why, k->cite);
}

/* SGLang's warning for a KV4 worker whose prefill and decode backends differ. */
static void warn_kv4_sides(ctx *c, const char *prefill, const char *decode, const char *cite)
{
    notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
              "--kv-cache-dtype %s with prefill attention backend %s and decode %s: SGLang %s only warns "
              "(\"Compatibility issues are unlikely, but may occur in rare edge cases.\", %s)",
              c->dtype, prefill, decode, SGLANG_VERSIONS[c->rel], cite);
}

/* SGLang 0.5.21+'s NGRAM BFS breadth when none is given (sglang 0.5.21:
 * python/sglang/srt/arg_groups/fields/spec.py:238-241; sglang 0.5.23: :256-259). */
static const char NGRAM_BREADTH_DEFAULT[] = "10";

/* 1 when a speculative algorithm runs a draft model: any but NGRAM (sglang
 * 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:204). Pure. */
static int runs_draft(const char *algo) { return strcmp(algo, "NGRAM") != 0; }

/* The checks of a block-scaled KV dtype (KV4), in SGLang's order: with
 * `hook`, those of the NVFP4 prefill hook, run before the attention-backend
 * checks; else the rest. */
static kvc_status check_kv4(ctx *c, int hook)
{
    const setting *s = &c->set->s[SET_KV_CACHE_DTYPE];
    struct kv4_sides sides;
    kv4_sides(c, &sides);
    for (size_t i = 0; i < COUNT_OF(KV4); i++) {
        const struct kv4_rule *k = &KV4[i];
        if (!in_span(c->rel, k->when) || (k->dtypes && !word_in(c->dtype, k->dtypes)) ||
            (k->test <= K_DECODE_GIVEN) != (hook != 0))
            continue;
        unsigned major = c->gpu->major;
        switch (k->test) {
        case K_NOT_CUDA:
            if (c->gpu->hip) return rules_refuse(c, s, "%s (%s)", k->message, k->cite);
            break;
        case K_NOT_SM100_120:
            if (!c->gpu->hip && major != 10 && major != 12) return rules_refuse(c, s, "%s (%s)", k->message, k->cite);
            break;
        case K_NOT_BLACKWELL:
            if (c->gpu->hip || major < 10) return rules_refuse(c, s, "%s (%s)", k->message, k->cite);
            break;
        case K_MLA_BACKEND: {
            /* a release without the model class takes it for an MHA model: check_model_class says so */
            if (c->gpu->hip || unserved(c->model->architecture, c->rel)) break;
            char why[400];
            const char *both = kv4_attention_backend(c, why, sizeof why);
            const setting *p = &c->set->s[SET_PREFILL_ATTENTION_BACKEND], *d = decode_flag(c);
            const char *prefill = p->set ? p->value : both, *decode = d->set ? d->value : both;
            if (prefill[0] && decode[0] && strcmp(prefill, decode) != 0 && strcmp(prefill, "fa4") != 0) {
                warn_kv4_sides(c, prefill, decode, k->cite);
                break;
            }
            /* inside the family guard a DSA model runs SGLang's DSA attention backend (the dtype assertion refuses
             * FP4 there first); outside it the MLA defaults hold */
            if (c->defaults || !both[0] || p->set || d->set || strcmp(prefill, "fa4") == 0) {
                char pool[600];
                fp4_pool_text(c, pool, sizeof pool);
                return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin,
                                "--kv-cache-dtype %s: SGLang %s accepts it only with the MLA attention backends %s "
                                "(%s), and kvcheck does not model the attention backend SGLang picks for %s on %s "
                                "here; pass --attention-backend to have the worker judged. Its pool would be %s",
                                c->dtype, SGLANG_VERSIONS[c->rel], k->backends, k->cite, c->model->architecture,
                                c->gpu->name, pool);
            }
            if (word_in(both, k->backends)) break;
            char msg[300];
            const char *const f[][2] = {{"backend", both}};
            sglang_expand(k->message, f, COUNT_OF(f), msg, sizeof msg);
            const setting *a = &c->set->s[SET_ATTENTION_BACKEND];
            return rules_refuse(c, a->set ? a : s, "%s (%s: %s; %s)", msg, both, why, k->cite);
        }
        case K_DEQUANT_ALONE: {
            const setting *q = dequant_given(c);
            if (q && strcmp(c->dtype, "nvfp4") != 0) return rules_refuse(c, q, "%s (%s)", k->message, k->cite);
            break;
        }
        case K_MHA_FA4:
        case K_MHA_BACKEND: {
            const char *b = mha_backend(c);
            if (!b || (strcmp(b, "fa4") == 0) != (k->test == K_MHA_FA4) || word_in(b, k->backends)) break;
            char msg[300], why[400];
            const char *const f[][2] = {{"backend", b}};
            sglang_expand(k->message, f, COUNT_OF(f), msg, sizeof msg);
            mha_why(c, b, why, sizeof why);
            return rules_refuse(c, s, "%s (%s, %s; %s)", msg, why, MHA_BACKENDS_CITE, k->cite);
        }
        case K_NATIVE_OFF_SM100:
            if (sides.nvfp4 && native_prefill(sides.nvfp4) && !cuda_major(c, 10))
                return rules_refuse(c, dequant_given(c) ? dequant_given(c) : flag_of(c, PREFILL, sides.side[PREFILL]),
                              "%s (%s; %s)", k->message, sides.why, k->cite);
            break;
        case K_PREFILL_GIVEN: {
            const setting *p = &c->set->s[SET_PREFILL_ATTENTION_BACKEND];
            if (sides.nvfp4 && p->set && strcmp(p->value, sides.nvfp4->prefill) != 0)
                return refuse_with(c, p, k, sides.nvfp4->prefill, p->value, &sides);
            break;
        }
        case K_DECODE_GIVEN: {
            const setting *d = decode_flag(c);
            if (sides.nvfp4 && d->set && !word_in(d->value, k->backends))
                return refuse_with(c, d, k, d->value, d->value, &sides);
            break;
        }
        case K_SIDE_MAJOR: {
            int side = strcmp(k->backends, SIDE[PREFILL]) == 0 ? PREFILL : DECODE;
            char cc[8];
            str_printf(cc, sizeof cc, "%u", major);
            if (strcmp(sides.side[side], TRTLLM_MHA.backend) != 0) break;
            if (c->gpu->hip || !word_in(cc, TRTLLM_MHA.majors))
                return rules_refuse(c, flag_of(c, side, sides.side[side]), "%s (%s; %s)", k->message, sides.why, k->cite);
            str_printf(add_attn(c, &TRTLLM_MHA), KVC_REASON_LEN, "%s is the %s attention backend%s", /* its pages */
                       TRTLLM_MHA.backend, k->backends, sides.nvfp4 ? " SGLang sets for --kv-cache-dtype nvfp4" : "");
            break;
        }
        case K_PREFILL_CP: {
            const setting *cp = &c->set->s[SET_ATTN_CP];
            if (strcmp(sides.side[PREFILL], TRTLLM_MHA.backend) == 0 && !cuda_major(c, 10) && cp->set &&
                strtol(cp->value, NULL, 10) > 1)
                return rules_refuse(c, cp, "%s (%s; %s)", k->message, sides.why, k->cite);
            break;
        }
        case K_UNIFIED: {
            const setting *u = &c->set->s[SET_UNIFIED_MEMORY];
            if (!c->gpu->hip && u->set) return rules_refuse(c, u, "%s (%s)", k->message, k->cite);
            break;
        }
        case K_NATIVE_SPEC_IN:
        case K_NATIVE_SPEC_OUT: {
            const setting *a = &c->set->s[SET_SPEC_ALGO];
            if (native(c, &sides) && a->set && word_in(a->value, k->backends) == (k->test == K_NATIVE_SPEC_IN))
                return refuse_with(c, a, k, "", a->value, &sides);
            break;
        }
        case K_NATIVE_NGRAM: {
            const setting *a = &c->set->s[SET_SPEC_ALGO], *b = &c->set->s[SET_NGRAM_BREADTH];
            const char *breadth = b->set ? b->value : NGRAM_BREADTH_DEFAULT;
            if (native(c, &sides) && a->set && strcmp(a->value, k->backends) == 0 && strcmp(breadth, "1") != 0)
                return refuse_with(c, b->set ? b : a, k, "", breadth, &sides);
            break;
        }
        case K_NATIVE_DRAFT: {
            const setting *a = &c->set->s[SET_SPEC_ALGO], *b = &c->set->s[SET_SPEC_DRAFT_ATTN];
            if (native(c, &sides) && a->set && runs_draft(a->value) && b->set && strcmp(b->value, k->backends) != 0)
                return refuse_with(c, b, k, "", b->value, &sides);
            break;
        }
        case K_NATIVE_PD: {
            const setting *m = &c->set->s[SET_DISAGG_MODE];
            if (native(c, &sides) && m->set && strcmp(m->value, "null") != 0)
                return rules_refuse(c, m, "%s (%s; %s)", k->message, sides.why, k->cite);
            break;
        }
        case K_NATIVE_HOST: {
            const setting *h = &c->set->s[SET_HICACHE], *l = &c->set->s[SET_LMCACHE];
            if (native(c, &sides) && (h->set || l->set))
                return rules_refuse(c, h->set ? h : l, "%s (%s; %s)", k->message, sides.why, k->cite);
            break;
        }
        case K_FA4_DECODE:
            if (strcmp(sides.side[PREFILL], "fa4") == 0 && !word_in(sides.side[DECODE], k->backends))
                return refuse_with(c, flag_of(c, DECODE, sides.side[DECODE]), k, sides.side[DECODE], "", &sides);
            break;
        case K_ATTENTION:
            if (strcmp(sides.side[PREFILL], "fa4") == 0) break;
            if (strcmp(sides.side[PREFILL], sides.side[DECODE]) != 0) {
                /* NVFP4 with an FP8 prefill workspace (uses_mixed_nvfp4) is a recipe SGLang does not warn about */
                if (strcmp(c->dtype, "nvfp4") != 0 || strcmp(sides.side[PREFILL], "flashinfer") != 0 ||
                    strcmp(sides.side[DECODE], TRTLLM_MHA.backend) != 0)
                    warn_kv4_sides(c, sides.side[PREFILL], sides.side[DECODE], k->cite);
                break;
            }
            if (!word_in(sides.attention, k->backends))
                return refuse_with(c, flag_of(c, -1, sides.attention), k, sides.attention, "", &sides);
            break;
        }
    }
    return KVC_OK;
}

/* The model runner's KV dtype mapping refuses some strings the parser
 * still offers. */
static const struct dtype_refusal {
    span when;
    const char *dtype;
    const char *message;
    const char *cite;
} DTYPE_REFUSALS[] = {
    {FROM_TO("0.5.16", "0.5.20"), "fp4_e2m1",
     "--kv-cache-dtype=fp4_e2m1 is deprecated. Use --kv-cache-dtype=fp4_mx_block16.",
     "sglang 0.5.16: python/sglang/srt/mem_cache/kv_cache_dtype.py:57-61; sglang 0.5.20: "
     "python/sglang/srt/mem_cache/kv_cache_dtype.py:65-69"},
};

static kvc_status check_dtype_mapping(const ctx *c, const char *dtype, const setting *s)
{
    for (size_t i = 0; i < COUNT_OF(DTYPE_REFUSALS); i++)
        if (in_span(c->rel, DTYPE_REFUSALS[i].when) && strcmp(DTYPE_REFUSALS[i].dtype, dtype) == 0)
            return rules_refuse(c, s, "%s (at model init, %s)", DTYPE_REFUSALS[i].message, DTYPE_REFUSALS[i].cite);
    return KVC_OK;
}

/* The pool's get_contiguous_buf_infos gives the PD transfer its KV buffer
 * only; no release's FP4 pool overrides it. */
static const char FP4_TRANSFER_CITE[] =
    "get_contiguous_buf_infos lists the KV buffers only: sglang 0.5.23: python/sglang/srt/mem_cache/memory_pool.py:4884";

/* The FP4 pool of a worker whose --kv-cache-dtype is the FP4 `dtype`, into
 * `row`; refuses the float4 pools kvcheck does not model (ROCm's, and a DSA
 * model's from 0.5.6). */
static kvc_status fp4_pool(const ctx *c, const char *dtype, kvc_setting *row)
{
    const setting *s = &c->set->s[SET_KV_CACHE_DTYPE];
    unsigned R = c->model->kv_lora_rank, r = c->model->qk_rope_head_dim;
    if (c->gpu->hip || (c->dsa && rel_since(c->rel, "0.5.6"))) {
        char pool[600];
        fp4_pool_text(c, pool, sizeof pool);
        return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin,
                        "--kv-cache-dtype %s for %s on %s: SGLang %s builds %s; kvcheck does not model that pool: what "
                        "SGLang writes into it is not known",
                        dtype, c->model->architecture, c->gpu->name, SGLANG_VERSIONS[c->rel], pool);
    }
    setting_set(row, "fp4_mx16", "torch.float4_e2m1fn_x2: %u E2M1 values two to a byte (%u B), %u UE8M0 scales in a "
                "second buffer (%s)", R + r, (R + r) / 2, (R + r) / 16, FP4_POOL_CITE);
    const char *mode = resolved_value(c->out, "disaggregation_mode");
    if (strcmp(mode, "prefill") == 0 || strcmp(mode, "decode") == 0)
        notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
                  "SGLang %s's PD transfer sends the FP4 KV buffer without its scale buffer (%u B/token): decode "
                  "reads the transferred tokens with its own scales, zeros as allocated (read from code, not run)",
                  SGLANG_VERSIONS[c->rel], (R + r) / 16);
    return KVC_OK;
}

/* ------------------------------------------------------ disaggregation */

/* Python's a % b (the sign of b) for ints of up to 18 digits; 0 with *ok 0 past that (or for b == 0, which callers
 * refuse first). Pure. */
static long long py_mod(const char *a, const char *b, int *ok)
{
    long long x = strtoll(a, NULL, 10), y = strtoll(b, NULL, 10);
    *ok = strlen(a) <= 18 + (a[0] == '-') && strlen(b) <= 18 + (b[0] == '-') && y != 0;
    if (!*ok) return 0;
    long long r = x % y;
    return r != 0 && (r < 0) != (y < 0) ? r + y : r;
}

/* The decode side's sizes (0.5.3rc2-0.5.9): a decode worker refuses either given; a prefill worker takes the decode
 * TP size (its own unless given) and asserts the larger a multiple of the smaller, with Python's % (sglang 0.5.3rc2:
 * python/sglang/srt/server_args.py:1183-1208, :3049-3055; 0.5.9: :2546-2565, :5427-5432). */
static kvc_status check_decode_sizes(const ctx *c)
{
    static const char CITE[] = "sglang 0.5.3rc2: python/sglang/srt/server_args.py:1183-1190; 0.5.9: :2546-2553";
    if (!rel_until(c->rel, "0.5.9")) return KVC_OK;
    const setting *tp = &c->set->s[SET_DECODE_TP], *dp = &c->set->s[SET_DECODE_DP];
    if (set_to(c, SET_DISAGG_MODE, "decode")) {
        if (tp->set)
            return rules_refuse(c, tp, "AssertionError: Cannot set --disaggregation-decode-tp for the decode engine. "
                                "(%s): set it on the prefill worker", CITE);
        if (dp->set)
            return rules_refuse(c, dp, "AssertionError: Cannot set --disaggregation-decode-dp for the decode engine. "
                                "(%s): set it on the prefill worker", CITE);
        return KVC_OK;
    }
    if (!set_to(c, SET_DISAGG_MODE, "prefill") || !tp->set) return KVC_OK;
    const char *prefill = settings_size_text(c->set, SET_TP), *decode = tp->value;
    int prefill_larger = int_cmp(prefill, decode) > 0;
    const char *larger = prefill_larger ? prefill : decode, *smaller = prefill_larger ? decode : prefill;
    if (strcmp(smaller, "0") == 0)
        return rules_refuse(c, tp, "ZeroDivisionError: integer modulo by zero (the prefill worker takes the larger of "
                            "--tp-size %s and --disaggregation-decode-tp %s modulo the smaller: sglang 0.5.3rc2: "
                            "python/sglang/srt/server_args.py:3049-3055; 0.5.9: :5427-5432)", prefill, decode);
    int ok;
    long long r = py_mod(larger, smaller, &ok);
    if (!ok)
        return diag_set(c->diag, KVC_ERR_CONFIG, &tp->origin, "%s %s with --tp-size %s: SGLang %s takes the larger "
                        "modulo the smaller (sglang 0.5.9: python/sglang/srt/server_args.py:5427-5432), which kvcheck "
                        "does not model past 18 digits, so it cannot judge this worker", tp->flag, decode, prefill,
                        SGLANG_VERSIONS[c->rel]);
    if (r == 0) return KVC_OK;
    return rules_refuse(c, tp, "AssertionError: Different tp size is supported only when one tp is multiple of the "
                        "other. decode_tp=%s, prefill_tp=%s (sglang 0.5.3rc2: python/sglang/srt/server_args.py:"
                        "3049-3055; 0.5.9: :5427-5432)", decode, prefill);
}

/* The PD handler up to 0.5.9 (it runs after the speculative handler): the decode side's sizes, then a decode worker
 * with DP > 1 needs the prefill round-robin flag up to 0.5.7 unless SGLANG_IS_IN_CI is true or 1, any case
 * (get_bool_env_var) (sglang 0.5.3: python/sglang/srt/server_args.py:1195-1197; 0.5.7: :2187-2190; 0.5.8 has
 * neither the check nor the flag); DSA forces DP attention with dp = tp up to 0.5.5.post3 (sglang 0.5.3:
 * server_args.py:815-817). */
static kvc_status check_pd_handler(const ctx *c)
{
    int forces_dp = c->defaults && rel_until(c->rel, "0.5.5.post3");
    const setting *mode = &c->set->s[SET_DISAGG_MODE], *ci = &c->set->s[SET_IS_IN_CI_ENV];
    kvc_status st = check_decode_sizes(c);
    if (st) return st;
    if (!rel_until(c->rel, "0.5.7") || !set_to(c, SET_DISAGG_MODE, "decode")) return KVC_OK;
    if (ci->set && (str_ieq(ci->value, "true") || strcmp(ci->value, "1") == 0)) return KVC_OK;
    unsigned long tp = size_of(c, SET_TP);
    unsigned long dp = size_of(c, SET_DP);
    if (forces_dp) dp = tp;
    if (dp <= 1 || c->set->s[SET_PREFILL_RR].set) return KVC_OK;
    return rules_refuse(c, mode,
                  "AssertionError: Prefill round robin balance is required when dp size > 1. Please make sure that "
                  "the prefill instance is launched with `--load-balance-method round_robin` and "
                  "`--prefill-round-robin-balance` is set for decode server.%s (sglang 0.5.3: python/sglang/srt/server_args.py:1195-1197; 0.5.7: "
                  ":2187-2190)",
                  forces_dp ? " (DSA sets dp size to tp size in this release)" : "");
}

/* --disaggregation-transfer-backend: mooncake when unset (sglang 0.5.3rc2:
 * python/sglang/srt/server_args.py:435; 0.5.23:
 * python/sglang/srt/arg_groups/fields/disagg.py:65-71); mooncake_tcp is
 * Mooncake with its TCP transport forced (sglang 0.5.13:
 * python/sglang/srt/arg_groups/pd_disaggregation_hook.py:15-25). A prefill
 * worker refuses fake from 0.5.10rc0 (sglang 0.5.10rc0:
 * python/sglang/srt/server_args.py:3176-3179; 0.5.23:
 * python/sglang/srt/arg_groups/pd_disaggregation_hook.py:145-147). */
static kvc_status resolve_transfer(const ctx *c)
{
    /* --disaggregation-enable-kv-checksum (0.5.21+): pd.c says what it catches */
    const setting *sum = &c->set->s[SET_KV_CHECKSUM];
    char from[900];
    if (sum->set) {
        rules_from_text(sum, from, sizeof from);
        setting_set(rules_get(c->out, "kv_checksum"), "true", "set by %s: prefill digests each request's KV and decode "
                    "checks it (sglang 0.5.21: python/sglang/srt/disaggregation/checksum.py)", from);
        setting_origin(rules_get(c->out, "kv_checksum"), &sum->origin);
    } else {
        setting_set(rules_get(c->out, "kv_checksum"), "false", "%s", "");
    }
    const setting *s = &c->set->s[SET_TRANSFER_BACKEND];
    kvc_setting *v = rules_get(c->out, "transfer_backend");
    if (!s->set) {
        setting_set(v, "mooncake", "not set: SGLang's default (sglang 0.5.3rc2: python/sglang/srt/server_args.py:435)");
        return KVC_OK;
    }
    rules_from_text(s, from, sizeof from);
    if (strcmp(s->value, "mooncake_tcp") == 0)
        setting_set(v, "mooncake", "set by %s: Mooncake with its TCP transport (MC_FORCE_TCP=1; sglang 0.5.13: "
                    "python/sglang/srt/arg_groups/pd_disaggregation_hook.py:15-25)", from);
    else
        setting_set(v, s->value, "set by %s", from);
    setting_origin(v, &s->origin);
    if (set_to(c, SET_DISAGG_MODE, "prefill") && strcmp(s->value, "fake") == 0 && rel_since(c->rel, "0.5.10"))
        return rules_refuse(c, s, "Prefill server does not support 'fake' as the transfer backend (sglang 0.5.10rc0: "
                      "python/sglang/srt/server_args.py:3176-3179; 0.5.23: "
                      "python/sglang/srt/arg_groups/pd_disaggregation_hook.py:145-147)");
    return KVC_OK;
}

/* --enable-pd-role-switch on a prefill or decode worker: the features whose role-specific state a switch does not
 * rebuild, as the launch gives them (the handlers that rewrite them run later; 0.5.22's reading of the deprecated
 * DP attention flags runs before), in SGLang's order and words (sglang 0.5.21: python/sglang/srt/arg_groups/
 * pd_disaggregation_hook.py:158-189; 0.5.22: :171-202; 0.5.23: :164-196). Each writes its item into `text`. */
static int raw_size(const ctx *c, setting_key k) { return settings_size(c->raw, k) > 1; }
static int rs_dp_attention(const ctx *c, char *text, size_t size)
{
    return c->raw->s[SET_DP_ATTENTION].set && snprintf(text, size, "DP attention (--enable-dp-attention)");
}
/* attention DP on: above one, or an elastic EP scale joiner (attn_dp_enabled_of: sglang 0.5.23: python/sglang/srt/
 * runtime_context.py:191-199) */
static int attn_dp_on(const ctx *c, unsigned long *adp)
{
    unsigned long dp;
    settings_attn_dp(c->raw, adp, &dp);
    return *adp > 1 || set_to(c, SET_EP_JOIN_MODE, "scale");
}
static int rs_attn_dp(const ctx *c, char *text, size_t size)
{
    unsigned long adp;
    return attn_dp_on(c, &adp) && snprintf(text, size, "attention DP (--attn-dp-size %lu)", adp);
}
static int rs_ep(const ctx *c, char *text, size_t size)
{
    return raw_size(c, SET_EP) && snprintf(text, size, "expert parallelism (--ep-size %s)", c->raw->s[SET_EP].value);
}
static int rs_a2a(const ctx *c, char *text, size_t size)
{
    ctx given = *c; /* the flag as given (prefill CP sets deepep later), or the megamoe runner's alias of it */
    given.set = c->raw;
    const char *a2a = quant_a2a_backend(&given);
    return strcmp(a2a, "none") != 0 && snprintf(text, size, "MoE all-to-all (--moe-a2a-backend %s)", a2a);
}
static int rs_pp(const ctx *c, char *text, size_t size)
{
    return raw_size(c, SET_PP) && snprintf(text, size, "pipeline parallelism (--pp-size %s)", c->raw->s[SET_PP].value);
}
static int rs_broadcast(const ctx *c, char *text, size_t size)
{
    unsigned long adp;
    return attn_dp_on(c, &adp) && c->raw->s[SET_DP_LOCAL_BROADCAST].set &&
           snprintf(text, size, "DP attention local control broadcast");
}
static int rs_dp(const ctx *c, char *text, size_t size)
{
    unsigned long dp, adp;
    settings_attn_dp(c->raw, &adp, &dp);
    if (!rel_since(c->rel, "0.5.22")) dp = settings_size(c->raw, SET_DP);
    return dp > 1 && snprintf(text, size, "data parallelism (--dp-size %lu)", dp);
}
static int rs_dcp(const ctx *c, char *text, size_t size)
{
    return raw_size(c, SET_DCP) &&
           snprintf(text, size, "decode context parallelism (--dcp-size %s)", c->raw->s[SET_DCP].value);
}
static int rs_spec(const ctx *c, char *text, size_t size)
{
    const setting *s = &c->raw->s[SET_SPEC_ALGO];
    return s->set && snprintf(text, size, "speculative decoding (--speculative-algorithm %s)", s->value);
}

static const struct role_switch_item {
    span when;
    int (*on)(const ctx *c, char *text, size_t size);
} ROLE_SWITCH[] = {
    {FROM_TO("0.5.21", "0.5.21"), rs_dp_attention},
    {FROM_TO("0.5.22", "0.5.22"), rs_attn_dp},
    {SINCE("0.5.21"), rs_ep},
    {SINCE("0.5.21"), rs_a2a},
    {SINCE("0.5.21"), rs_pp},
    {SINCE("0.5.23"), rs_broadcast},
    {FROM_TO("0.5.21", "0.5.22"), rs_dp},
    {SINCE("0.5.21"), rs_dcp},
    {SINCE("0.5.21"), rs_spec},
};

static kvc_status check_role_switch(const ctx *c)
{
    const setting *sw = &c->raw->s[SET_PD_ROLE_SWITCH];
    if (!sw->set || !(set_to(c, SET_DISAGG_MODE, "prefill") || set_to(c, SET_DISAGG_MODE, "decode")))
        return KVC_OK;
    char items[600] = "", one[160];
    size_t n = 0;
    for (size_t i = 0; i < COUNT_OF(ROLE_SWITCH); i++)
        if (in_span(c->rel, ROLE_SWITCH[i].when) && ROLE_SWITCH[i].on(c, one, sizeof one))
            n += (size_t)snprintf(items + n, n < sizeof items ? sizeof items - n : 0, "%s%s", n ? ", " : "", one);
    if (!n) return KVC_OK;
    return rules_refuse(c, sw, "ValueError: --enable-pd-role-switch does not rebuild role-specific state for the "
                        "following features: %s. Remove these options or drop --enable-pd-role-switch. (sglang "
                        "0.5.21: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:158-189; 0.5.23: :164-196)",
                        items);
}

/* SGLANG_RUST_SERVER on a prefill worker (0.5.17+): the Rust server serves the PD bootstrap registry on the API
 * port, so a --disaggregation-bootstrap-port other than its default (8998) and --port (30000 unless given) is
 * refused (sglang 0.5.17: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:120-150; 0.5.23: :245-300). */
static kvc_status check_rust_bootstrap(const ctx *c)
{
    if (!rel_since(c->rel, "0.5.17") || !set_to(c, SET_DISAGG_MODE, "prefill")) return KVC_OK;
    rules_env_warn(c, SET_RUST_SERVER_ENV);
    const setting *bp = &c->set->s[SET_BOOTSTRAP_PORT], *port = &c->set->s[SET_PORT];
    if (rules_env_bool(&c->set->s[SET_RUST_SERVER_ENV]) != 1 || !bp->set) return KVC_OK;
    long b = strtol(bp->value, NULL, 10), p = port->set ? strtol(port->value, NULL, 10) : 30000;
    if (b == 8998 || b == p) return KVC_OK;
    return rules_refuse(c, bp, "ValueError: SGLANG_RUST_SERVER serves the PD KV bootstrap registry on the api port "
                        "itself; --disaggregation-bootstrap-port %ld conflicts with --port %ld. Drop "
                        "--disaggregation-bootstrap-port (decode nodes and the PD router must then target the prefill "
                        "api port). (sglang 0.5.17: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:120-150; "
                        "0.5.23: :245-300)", b, p);
}

/* --disaggregation-decode-host-receive-threshold (0.5.21+): a decode worker
 * receives incoming KV into its host retraction pool once device usage
 * reaches it. On above 0 in 0.5.21 (default 0: sglang 0.5.21:
 * python/sglang/srt/arg_groups/fields/disagg.py:173-176), below 1 from
 * 0.5.22 (default 1: 0.5.23: fields/disagg.py:182-185); SGLang compares
 * the float, so NaN is never on. 1 with the value when given to a release
 * that has it. */
static int host_receive_threshold(const ctx *c, double *v)
{
    const setting *s = &c->set->s[SET_HOST_RECV];
    if (!s->set || !rel_since(c->rel, "0.5.21")) return 0;
    *v = strtod(s->value, NULL);
    return 1;
}

/* Host receive is on. */
static int host_receive_on(const ctx *c)
{
    double v;
    if (!host_receive_threshold(c, &v)) return 0;
    return rel_since(c->rel, "0.5.22") ? v < 1 : v > 0;
}

/* The hook's checks of the threshold, on every worker (sglang 0.5.21:
 * python/sglang/srt/arg_groups/pd_disaggregation_hook.py:53-69; 0.5.22,
 * 0.5.23: :64-80). Host receive on also makes the retraction backup
 * host_pool, whatever was given (none included), which
 * check_hicache_layout and check_retraction_backup judge later. */
static kvc_status resolve_host_receive(const ctx *c)
{
    static const char CITE[] = "sglang 0.5.21: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:53-69; "
                               "0.5.23: :64-80";
    const setting *s = &c->set->s[SET_HOST_RECV];
    double v;
    if (!host_receive_threshold(c, &v)) return KVC_OK;
    if (!(v >= 0 && v <= 1))
        return rules_refuse(c, s, "--disaggregation-decode-host-receive-threshold must be between 0 and 1 (%s)", CITE);
    if (!host_receive_on(c)) return KVC_OK;
    if (c->set->s[SET_HISPARSE].set || c->set->s[SET_PD_ROLE_SWITCH].set)
        return rules_refuse(c, s, "Decode host receive does not yet support HiSparse or role switching (%s)", CITE);
    if (set_to(c, SET_RETRACTION_BACKUP, "cpu_tensor"))
        return rules_refuse(c, &c->set->s[SET_RETRACTION_BACKUP], "Decode host KV buffering requires host_pool retraction "
                      "(%s)", CITE);
    return KVC_OK;
}

/* The decode retraction backup host_pool: given (0.5.18+) or set by host
 * receive (0.5.21+). */
static int host_pool_backup(const ctx *c)
{
    return host_receive_on(c) || set_to(c, SET_RETRACTION_BACKUP, "host_pool");
}

/* --enable-int8-mamba-checkpoint (0.5.14+), checked for every model right after the mamba backend's handler and
 * before the linear attention's: the int8 checkpoint store is only the built-in mamba radix cache's, so SGLang
 * refuses HiCache, a registered radix cache backend (given as anything, "" included: "is not None") and from 0.5.21
 * LMCache beside it; no earlier step writes these flags (sglang 0.5.14: python/sglang/srt/server_args.py:4869-4882;
 * 0.5.18: :6227-6240; 0.5.19: python/sglang/srt/arg_groups/mamba_hook.py:82-95; 0.5.23: :81-99). A hybrid model's
 * int8 checkpoint store kvcheck does not model: it declines such a worker with its pools (decline_int8_store). */
static int int8(const ctx *c) { return c->set->s[SET_INT8_MAMBA].set; }
static int int8_hicache(const ctx *c) { return int8(c) && c->set->s[SET_HICACHE].set; }
static int int8_backend(const ctx *c) { return int8(c) && c->set->s[SET_RADIX_BACKEND].set; }
static int int8_backend_unwritten(const ctx *c)
{
    strbuf sb = {0};
    int ascii = py_str_repr(c->set->s[SET_RADIX_BACKEND].value, &sb);
    free(sb.p);
    return int8_backend(c) && !ascii;
}
static int int8_lmcache(const ctx *c) { return int8(c) && c->set->s[SET_LMCACHE].set; }
static int int8_hybrid(const ctx *c) { return int8(c) && c->hybrid; }
#define INT8_HICACHE                                                                                                   \
    "ValueError: --enable-int8-mamba-checkpoint is not supported together with --enable-hierarchical-cache: the "     \
    "host-offload path "
#define INT8_BACKEND_CITE                                                                                              \
    "sglang 0.5.14: python/sglang/srt/server_args.py:4877-4882; 0.5.18: :6235-6240; 0.5.19: python/sglang/srt/"       \
    "arg_groups/mamba_hook.py:90-95; 0.5.21: :88-93; 0.5.23: :89-94"
static const flag_rule INT8_MAMBA_RULES[] = {
    {FROM_TO("0.5.14", "0.5.17"), 0, int8_hicache, SET_HICACHE, INT8_HICACHE "(HiMambaRadixCache) is not int8-aware. "
     "Disable one of them.", "sglang 0.5.14: python/sglang/srt/server_args.py:4871-4876; 0.5.17: :6014-6019"},
    {SINCE("0.5.18"), 0, int8_hicache, SET_HICACHE, INT8_HICACHE "is not int8-aware. Disable one of them.",
     "sglang 0.5.18: python/sglang/srt/server_args.py:6229-6234; 0.5.19: python/sglang/srt/arg_groups/mamba_hook.py:"
     "84-89; 0.5.21: :82-87; 0.5.23: :83-88"},
    {SINCE("0.5.14"), 0, int8_backend_unwritten, SET_RADIX_BACKEND, NULL, INT8_BACKEND_CITE},
    {SINCE("0.5.14"), 0, int8_backend, SET_RADIX_BACKEND, "ValueError: --enable-int8-mamba-checkpoint only supports "
     "the built-in mamba radix cache; --radix-cache-backend={backend} is not int8-aware. Omit --radix-cache-backend.",
     INT8_BACKEND_CITE},
    {SINCE("0.5.21"), 0, int8_lmcache, SET_LMCACHE, "ValueError: --enable-int8-mamba-checkpoint is not supported "
     "together with --enable-lmcache: LMCache is not int8-aware. Disable one of them.",
     "sglang 0.5.21: python/sglang/srt/arg_groups/mamba_hook.py:94-98; 0.5.23: :95-99"},
};
#undef INT8_HICACHE
#undef INT8_BACKEND_CITE
static void int8_fields(const ctx *c, const flag_rule *row, rule_fields *out)
{
    (void)row;
    strbuf sb = {0};
    py_str_repr(c->set->s[SET_RADIX_BACKEND].value, &sb);
    rule_field(out, "backend", "%s", sb.p ? sb.p : "");
    free(sb.p);
}
static kvc_status check_int8_mamba(const ctx *c)
{
    static const rule_hooks hooks = {"--enable-int8-mamba-checkpoint beside it, whose message holds the name's Python "
                                     "repr (kvcheck writes it for ASCII names only)", int8_fields, NULL};
    return rules_table(c, INT8_MAMBA_RULES, COUNT_OF(INT8_MAMBA_RULES), 0, &hooks);
}
/* ... and declines a hybrid model's int8 checkpoint store where SGLang builds it, beside the mamba pool */
static kvc_status decline_int8_store(const ctx *c)
{
    const setting *s = &c->set->s[SET_INT8_MAMBA];
    if (!int8_hybrid(c)) return KVC_OK;
    return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin, "%s: SGLang %s keeps the mamba radix cache's checkpoints of "
                    "this hybrid model's linear-attention state in an int8 store it builds beside the mamba pool "
                    "(sglang 0.5.23: python/sglang/srt/mem_cache/memory_pool.py:1498-1502, mamba_checkpoint_pool.py:"
                    "301-342); kvcheck does not model that store, so it cannot judge this worker", s->flag,
                    SGLANG_VERSIONS[c->rel]);
}

/* The unified cache's external linker (0.5.20+), first in handle_hicache, which returns after these checks when the
 * linker is on: the radix cache as resolved so far (off on a decode worker without its radix cache, 0.5.23), then
 * HiCache, then a HiCache storage backend (sglang 0.5.20: python/sglang/srt/arg_groups/hicache_hook.py:26-37; 0.5.21:
 * :31-42; 0.5.23: :44-60), 0.5.23's first with a --radix-cache-backend given too. --enable-linker-mla-dedup's check
 * and 0.5.23's linker config checks come first; kvcheck does not read those flags (they warn as unmodelled). */
static int linker(const ctx *c) { return c->set->s[SET_EXTERNAL_LINKER].set; }
static int linker_radix_off(const ctx *c)
{
    return linker(c) && (rules_worker_radix_off(c) || c->set->s[SET_RADIX_BACKEND].set);
}
static int linker_hicache(const ctx *c) { return linker(c) && c->set->s[SET_HICACHE].set; }
static int linker_storage(const ctx *c) { return linker(c) && c->set->s[SET_HICACHE_STORAGE].set; }
#define LINKER_CITE(a, b, c)                                                                                           \
    "sglang 0.5.20: python/sglang/srt/arg_groups/hicache_hook.py:" a "; 0.5.21: :" b "; 0.5.23: :" c
static const flag_rule LINKER_RULES[] = {
    {SINCE("0.5.23"), 0, linker_radix_off, SET_EXTERNAL_LINKER, "ValueError: --enable-unified-cache-external-linker "
     "requires the default UnifiedRadixCache with radix caching enabled.",
     "sglang 0.5.23: python/sglang/srt/arg_groups/hicache_hook.py:44-49"},
    {SINCE("0.5.20"), 0, linker_hicache, SET_EXTERNAL_LINKER, "ValueError: --enable-unified-cache-external-linker and "
     "--enable-hierarchical-cache are mutually exclusive.", LINKER_CITE("26-31", "31-36", "50-54")},
    {SINCE("0.5.20"), 0, linker_storage, SET_HICACHE_STORAGE, "ValueError: --enable-unified-cache-external-linker does "
     "not use --hicache-storage-backend.", LINKER_CITE("32-36", "37-41", "55-59")},
};
#undef LINKER_CITE

/* With host receive on, HiCache's host pool must keep the layer_first
 * layout KV transfer writes; a Mooncake or NPU MemCache storage backend
 * turns it page-first when HiCache's host path is active: HiCache, decode
 * KV offload, or a decode worker (its backup is host_pool by then).
 * handle_hicache, after the PD hook and before the speculative-decoding
 * hook (sglang 0.5.21: python/sglang/srt/arg_groups/hicache_hook.py:44-75,
 * :179-203; 0.5.23: :62-94, :197-244, which leaves Mooncake with DCP
 * above one as it is and turns page_first_direct into page_first under
 * --enable-unified-memory). */
static kvc_status check_hicache_layout(const ctx *c)
{
    kvc_status refused = rules_table(c, LINKER_RULES, COUNT_OF(LINKER_RULES), 0, NULL);
    if (refused || (linker(c) && rel_since(c->rel, "0.5.20"))) return refused;
    if (!host_receive_on(c)) return KVC_OK;
    int active = c->set->s[SET_HICACHE].set || c->set->s[SET_DECODE_OFFLOAD].set ||
                 set_to(c, SET_DISAGG_MODE, "decode");
    const setting *st = &c->set->s[SET_HICACHE_STORAGE];
    int v23 = rel_since(c->rel, "0.5.23");
    if (!active || !(set_to(c, SET_HICACHE_STORAGE, "mooncake") || set_to(c, SET_HICACHE_STORAGE, "npu_memcache")))
        return KVC_OK;
    if (v23 && set_to(c, SET_HICACHE_STORAGE, "mooncake") && dcp_size(c) > 1) return KVC_OK;
    const char *io = c->set->s[SET_HICACHE_IO].set ? c->set->s[SET_HICACHE_IO].value : "kernel";
    const char *layout = strcmp(io, "kernel") == 0                    ? "page_first"
                         : strcmp(io, "direct") != 0                  ? NULL
                         : v23 && c->set->s[SET_UNIFIED_MEMORY].set   ? "page_first"
                                                                      : "page_first_direct";
    if (!layout) return KVC_OK;
    return rules_refuse(c, st, "The resolved HiCache storage layout '%s' cannot share the layer_first decode host pool used "
                  "by KV transfer (the %s storage backend with the %s io backend; sglang 0.5.21: python/sglang/srt/"
                  "arg_groups/hicache_hook.py:44-75, :179-203; 0.5.23: :62-94, :197-244)", layout, st->value, io);
}

/* --disaggregation-decode-retraction-backup host_pool (0.5.18+), given or
 * set by host receive: a decode worker's only, and not with DCP or with
 * priority preemption (sglang 0.5.18: python/sglang/srt/server_args.py:
 * 8122-8147; 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:351-374,
 * run after the speculative-decoding hook). */
static kvc_status check_retraction_backup(const ctx *c)
{
    static const char CITE[] = "sglang 0.5.18: python/sglang/srt/server_args.py:8122-8147; 0.5.23: "
                               "python/sglang/srt/arg_groups/kv_cache_hook.py:351-374";
    if (!host_pool_backup(c)) return KVC_OK;
    int by_host_receive = host_receive_on(c);
    const setting *s = by_host_receive ? &c->set->s[SET_HOST_RECV] : &c->set->s[SET_RETRACTION_BACKUP];
    const char *by = by_host_receive ? "host_pool because host receive is on; " : "";
    const setting *dcp = &c->set->s[SET_DCP];
    if (!set_to(c, SET_DISAGG_MODE, "decode"))
        return rules_refuse(c, s, "--disaggregation-decode-retraction-backup=host_pool is only supported on a PD decode "
                      "server. (%s%s)", by, CITE);
    if (dcp_size(c) > 1)
        return rules_refuse(c, dcp, "--disaggregation-decode-retraction-backup=host_pool does not support --dcp-size > 1. "
                      "(%s%s)", by, CITE);
    if (c->set->s[SET_PRIORITY_SCHED].set && !c->set->s[SET_NO_PREEMPTION].set)
        return rules_refuse(c, &c->set->s[SET_PRIORITY_SCHED], "--disaggregation-decode-retraction-backup=host_pool requires "
                      "--disable-priority-preemption when priority scheduling is enabled. (%s%s)", by, CITE);
    return KVC_OK;
}

int rules_env_bool(const setting *s)
{
    static const char *const YES[] = {"true", "1", "yes", "y"}, *const NO[] = {"false", "0", "no", "n"};
    if (!s->set) return 0;
    for (size_t i = 0; i < COUNT_OF(YES); i++)
        if (str_ieq(s->value, YES[i])) return 1;
    for (size_t i = 0; i < COUNT_OF(NO); i++)
        if (str_ieq(s->value, NO[i])) return 0;
    return -1;
}

int rules_env_bool_or(const setting *s, int dflt)
{
    int b = rules_env_bool(s);
    return !s->set || b < 0 ? dflt : b;
}

int rules_env_int(const ctx *c, setting_key k, const char *dflt, char *out, size_t size)
{
    const setting *s = &c->set->s[k];
    if (s->set && py_int(s->value, out, size)) return 1;
    if (s->set)
        notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES, "%s=%s is not an integer: SGLang %s takes "
                  "its default %s", s->flag, s->value, SGLANG_VERSIONS[c->rel], dflt);
    snprintf(out, size, "%s", dflt);
    return 0;
}

void rules_env_warn(const ctx *c, setting_key k)
{
    if (rules_env_bool(&c->set->s[k]) >= 0) return;
    char lower[64]; /* SGLang's warning shows the value lower-cased */
    str_copy(lower, sizeof lower, c->set->s[k].value);
    ascii_lower(lower);
    notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
              "SGLang warns \"Invalid value for %s: \"%s\" is not a valid boolean value, using default \"False\"\" "
              "and reads it as off (sglang 0.5.23: python/sglang/srt/environ.py:79-86, :143-150)",
              c->set->s[k].flag, lower);
}

/* The radix cache off, as the cache checks (HiCache's, LMCache's) see it:
 * on a PD decode worker unless
 * --disaggregation-decode-enable-radix-cache keeps it (over
 * --disable-radix-cache too: PD_DECODE), elsewhere when given or turned off
 * by the attention backend (radix_cache_off). Not modelled: the other hooks
 * that turn it off (--enable-mis, Whisper, deterministic inference on
 * backends DeepSeek models do not use). */
int rules_worker_radix_off(const ctx *c)
{
    if (set_to(c, SET_DISAGG_MODE, "decode")) return !c->set->s[SET_DECODE_RADIX].set;
    return rules_radix_off(c);
}
static int hicache_radix_off(const ctx *c) { return c->set->s[SET_HICACHE].set && rules_worker_radix_off(c); }
static int session_eviction(const ctx *c)
{
    return c->set->s[SET_SESSION_RADIX].set && !set_to(c, SET_EVICTION, "priority");
}
static int offload_off_decode(const ctx *c) { return !set_to(c, SET_DISAGG_MODE, "decode"); }
static int offload_spec_v2(const ctx *c) { return rules_env_bool(&c->set->s[SET_SPEC_V2_ENV]) == 1; }
static int offload_no_storage(const ctx *c) { return !c->set->s[SET_HICACHE_STORAGE].set; }
static int offload_host_pool(const ctx *c) { return host_pool_backup(c); }

/* The cache-compatibility checks that follow the host_pool ones, in order
 * (sglang 0.5.3rc2: python/sglang/srt/server_args.py:1232-1244; 0.5.9:
 * :2685-2702; 0.5.10: :3402-3416; 0.5.18: :8149-8169; 0.5.23:
 * python/sglang/srt/arg_groups/kv_cache_hook.py:393-413). */
static const struct cache_rule {
    span when;
    int offload;                  /* a check of decode KV offload: only with it on */
    setting_key flag;             /* the setting the refusal points at */
    int (*refused)(const ctx *c);
    const char *message, *cite;
} CACHE_RULES[] = {
    {FROM_TO("0.5.15", "0.5.16"), 0, SET_SESSION_RADIX, session_eviction,
     "--enable-session-radix-cache requires --radix-eviction-policy priority",
     "sglang 0.5.15: python/sglang/srt/server_args.py:5767-5770; 0.5.16: :6706-6709"},
    {SINCE("0.5.3rc2"), 0, SET_HICACHE, hicache_radix_off,
     "The arguments enable-hierarchical-cache and disable-radix-cache are mutually exclusive and cannot be used at "
     "the same time. Please use only one of them.",
     "sglang 0.5.3rc2: python/sglang/srt/server_args.py:1232-1236; 0.5.18: :8149-8153; 0.5.23: "
     "python/sglang/srt/arg_groups/kv_cache_hook.py:393-397"},
    {SINCE("0.5.3rc2"), 1, SET_DECODE_OFFLOAD, offload_off_decode,
     "The argument disaggregation-decode-enable-offload-kvcache is only supported for decode side.",
     "sglang 0.5.3rc2: python/sglang/srt/server_args.py:1238-1244; 0.5.18: :8155-8159; 0.5.23: "
     "python/sglang/srt/arg_groups/kv_cache_hook.py:399-403"},
    {{"0.5.5.post3", "0.5.9"}, 1, SET_SPEC_V2_ENV, offload_spec_v2,
     "Spec v2 and decode offload kv cache are incompatible and cannot be enabled together.",
     "sglang 0.5.9: python/sglang/srt/server_args.py:2696-2702"},
    {SINCE("0.5.10"), 1, SET_DECODE_OFFLOAD, offload_no_storage,
     "The argument disaggregation-decode-enable-offload-kvcache is only supported when hicache-storage-backend is "
     "provided.",
     "sglang 0.5.10: python/sglang/srt/server_args.py:3413-3416; 0.5.18: :8160-8163; 0.5.23: "
     "python/sglang/srt/arg_groups/kv_cache_hook.py:404-407"},
    {SINCE("0.5.18"), 1, SET_DECODE_OFFLOAD, offload_host_pool,
     "The arguments disaggregation-decode-enable-offload-kvcache and disaggregation-decode-retraction-backup=host_pool "
     "are mutually exclusive: both build a decode host pool.",
     "sglang 0.5.18: python/sglang/srt/server_args.py:8164-8169; 0.5.23: "
     "python/sglang/srt/arg_groups/kv_cache_hook.py:408-413"},
};


/* LMCache's checks from 0.5.21, in SGLang's order after the ones above
 * (sglang 0.5.21: python/sglang/srt/arg_groups/kv_cache_hook.py:433-474;
 * 0.5.23: :433-474); each refuses --enable-lmcache with what it names. */
static int lmc_hicache(const ctx *c) { return c->set->s[SET_HICACHE].set; }
static int lmc_linker(const ctx *c) { return c->set->s[SET_EXTERNAL_LINKER].set; }
static int lmc_spec(const ctx *c) { return c->set->s[SET_SPEC_ALGO].set; }
static int lmc_dp_attention(const ctx *c) { return rules_attention_dp(c) > 1; }
static int lmc_dcp(const ctx *c) { return size_of(c, SET_DCP) > 1; }
static int lmc_streaming(const ctx *c) { return c->set->s[SET_STREAMING_SESSION].set; }
static int lmc_buffer_only(const ctx *c) { return set_to(c, SET_HICACHE_HOST_MODE, "buffer_only"); }
static int lmc_pd(const ctx *c) { return pd_worker(c); }
static const struct lmcache_rule {
    span when;
    int (*refused)(const ctx *c);
    const char *message;
} LMCACHE_RULES[] = {
    {SINCE("0.5.21"), lmc_hicache, "ValueError: --enable-lmcache and --enable-hierarchical-cache are mutually exclusive"},
    {SINCE("0.5.21"), lmc_linker,
     "ValueError: --enable-lmcache and --enable-unified-cache-external-linker are mutually exclusive"},
    {SINCE("0.5.21"), rules_worker_radix_off, "ValueError: --enable-lmcache requires radix cache to be enabled"},
    {SINCE("0.5.21"), lmc_spec, "NotImplementedError: LMCacheUnifiedRadixCache does not yet support speculative decoding"},
    {SINCE("0.5.21"), lmc_dp_attention, "NotImplementedError: LMCacheUnifiedRadixCache does not yet support DP attention"},
    {SINCE("0.5.21"), lmc_dcp,
     "NotImplementedError: --enable-lmcache with --dcp-size > 1 is not supported: LMCache has no DCP-aware index "
     "translation"},
    {SINCE("0.5.21"), lmc_streaming, "NotImplementedError: LMCacheUnifiedRadixCache does not yet support streaming sessions"},
    {SINCE("0.5.21"), lmc_buffer_only, "ValueError: --hicache-host-memory-mode=buffer_only is a HiCache-only mode"},
    {SINCE("0.5.21"), lmc_pd,
     "NotImplementedError: LMCacheUnifiedRadixCache currently supports colocated prefill/decode scheduling only"},
};
static const char LMCACHE_CITE[] = "sglang 0.5.21: python/sglang/srt/arg_groups/kv_cache_hook.py:433-474; 0.5.23: "
                                   ":433-474";

static kvc_status check_cache_compatibility(const ctx *c)
{
    kvc_status st = check_retraction_backup(c);
    if (!st) st = eviction_check(c);
    for (size_t i = 0; !st && i < COUNT_OF(CACHE_RULES); i++) {
        const struct cache_rule *r = &CACHE_RULES[i];
        if (!in_span(c->rel, r->when) || (r->offload && !c->set->s[SET_DECODE_OFFLOAD].set) || !r->refused(c)) continue;
        st = rules_refuse(c, &c->set->s[r->flag], "%s (%s)", r->message, r->cite);
    }
    for (size_t i = 0; !st && c->set->s[SET_LMCACHE].set && i < COUNT_OF(LMCACHE_RULES); i++)
        if (in_span(c->rel, LMCACHE_RULES[i].when) && LMCACHE_RULES[i].refused(c))
            st = rules_refuse(c, &c->set->s[SET_LMCACHE], "%s (%s)", LMCACHE_RULES[i].message, LMCACHE_CITE);
    return st;
}

/* --enable-page-major-kv-layout and --enable-unified-memory (0.5.15+; unified memory turns page-major on), checked
 * right after cache compatibility (tools/sglang-oracle: helper-70's reading, /tmp/spec-page-major.md in the issue
 * note). From 0.5.19 page-major needs unified memory; then the attention backends SGLang runs, {prefill or
 * attention, decode or attention} (never the DSA ones: a DSA model's attention backend is dsa), must be in the
 * release's allowed set, printed sorted; up to 0.5.17 unified memory refuses a PD worker. An accepted page-major
 * layout alone (0.5.15-0.5.18) leaves an MLA pool's rows as they are (only MHA pools change class). */
#define PAGE_MAJOR_0517                                                                                                \
    "AssertionError: --enable-page-major-kv-layout requires the Triton attention backend for the full-attention "      \
    "layers (unified-memory MLA also allows the paged MLA backends); got {got}, allowed {allowed}. Pass a "            \
    "compatible --attention-backend."
#define PAGE_MAJOR_0519                                                                                                \
    "AssertionError: --enable-page-major-kv-layout: the resolved attention backends {got} are not in the allowed set " \
    "{allowed} for this configuration"
static const struct page_major_rule {
    span when;
    int needs_unified;       /* page-major alone is refused (T11) */
    const char *unified_mla; /* allowed with unified memory on a model SGLang runs with MLA backends */
    const char *unified;     /* allowed with unified memory on another (DeepSeek-V4) */
    const char *plain;       /* allowed without unified memory */
    const char *message;     /* {got} {allowed}: sorted Python lists */
    int pd_refused;          /* unified memory refuses a PD worker */
    const char *cite;
} PAGE_MAJOR[] = {
    {FROM_TO("0.5.15", "0.5.16"), 0, "triton", "triton", "triton", "AssertionError: --enable-page-major-kv-layout "
     "requires the Triton attention backend for the full-attention layers; got {got}. Pass --attention-backend triton.",
     1,
     "sglang 0.5.15: python/sglang/srt/server_args.py:5883-5951; 0.5.16: :6823-6891"},
    {FROM_TO("0.5.17", "0.5.17"), 0, "triton fa3 trtllm_mla flashinfer cutedsl_mla tokenspeed_mla", "triton", "triton",
     PAGE_MAJOR_0517, 1, "sglang 0.5.17: python/sglang/srt/server_args.py:7887-8001"},
    {FROM_TO("0.5.18", "0.5.18"), 0, "triton fa3 trtllm_mla flashinfer cutedsl_mla tokenspeed_mla", "triton", "triton",
     PAGE_MAJOR_0517, 0, "sglang 0.5.18: python/sglang/srt/server_args.py:8286-8440"},
    {FROM_TO("0.5.19", "0.5.21"), 1, "triton fa3 trtllm_mla flashinfer cutedsl_mla tokenspeed_mla flashmla",
     "triton fa3 fa4 flashinfer trtllm_mha", "triton",
     PAGE_MAJOR_0519 " (unified memory allows the per-layer-view families; plain page-major keeps the envelope-strided "
     "views only Triton reads). Pass a compatible --attention-backend.", 0,
     "sglang 0.5.19: python/sglang/srt/arg_groups/kv_cache_hook.py:283-392; 0.5.21: :658-767"},
    {FROM_TO("0.5.22", "0.5.22"), 1, "triton fa3 trtllm_mla flashinfer cutedsl_mla tokenspeed_mla flashmla",
     "triton fa3 fa4 flashinfer trtllm_mha", "triton",
     PAGE_MAJOR_0519 " (unified memory allows the stride-aware per-layer-view families). Pass a compatible "
     "--attention-backend.", 0, "sglang 0.5.22: python/sglang/srt/arg_groups/kv_cache_hook.py:769-874"},
    {SINCE("0.5.23"), 1, "triton fa3 trtllm_mla flashinfer cutedsl_mla flashmla",
     "triton fa3 fa4 flashinfer trtllm_mha", "triton", PAGE_MAJOR_0519 ". Pass a compatible --attention-backend.", 0,
     "sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:770-862"},
};
static const char UNIFIED_POOL_REFUSAL[] =
    "\"--enable-unified-memory only supports hybrid Mamba and hybrid sliding-window-attention models (DeepSeek-V4 "
    "excluded); the current model (...) is neither, so the unified memory pool cannot be built. Drop "
    "--enable-unified-memory for this model.\" (sglang 0.5.15: python/sglang/srt/model_executor/"
    "model_runner_kv_cache_mixin.py:523; 0.5.23: python/sglang/srt/mem_cache/kv_cache_configurator.py:637)";

static const char *hook_attention_backend(const ctx *c);
static int runs_mla(const ctx *c);

/* The attention backend SGLang's attention_backend field holds once the hooks ran: dsv4 for DeepSeek-V4, whose hook
 * sets it whatever was given, else what the attention hook sees (hook_attention_backend); "" where kvcheck does not
 * know it. */
static const char *attention_field(const ctx *c, int dsv4)
{
    const char *b = dsv4 ? "dsv4" : hook_attention_backend(c);
    return b ? b : "";
}

static kvc_status check_page_major(const ctx *c, int dsv4)
{
    const setting *pm = &c->set->s[SET_PAGE_MAJOR], *um = &c->set->s[SET_UNIFIED_MEMORY];
    const struct page_major_rule *r = NULL;
    for (size_t i = 0; i < COUNT_OF(PAGE_MAJOR) && !r; i++)
        if (in_span(c->rel, PAGE_MAJOR[i].when)) r = &PAGE_MAJOR[i];
    if (!r || (!pm->set && !um->set)) return KVC_OK;
    if (r->needs_unified && !um->set)
        return rules_refuse(c, pm, "AssertionError: --enable-page-major-kv-layout without --enable-unified-memory is "
                            "temporarily unsupported: the strided MHA K/V views were removed and the static-pool "
                            "page-major layout awaits its per-layer-view reimplementation. Run with "
                            "--enable-unified-memory, or drop --enable-page-major-kv-layout. (%s)", r->cite);
    const setting *blame = um->set ? um : pm, *p = &c->set->s[SET_PREFILL_ATTENTION_BACKEND];
    const setting *d = decode_flag(c);
    const char *main = attention_field(c, dsv4), *pre = p->set ? p->value : main, *dec = d->set ? d->value : main;
    if (!pre[0] || !dec[0])
        return diag_set(c->diag, KVC_ERR_CONFIG, &blame->origin, "%s: SGLang %s then checks the attention backends "
                        "against page-major's allowed set (%s), and kvcheck does not know the attention backend this "
                        "worker runs, so it cannot judge it; give --attention-backend", blame->flag,
                        SGLANG_VERSIONS[c->rel], r->cite);
    /* DeepSeek-V4 runs no MLA backend (its model config's attention_arch); its K and V rows are symmetric */
    const char *allowed = !um->set ? r->plain : runs_mla(c) && !dsv4 ? r->unified_mla : r->unified;
    if (!word_in(pre, allowed) || !word_in(dec, allowed)) {
        char both[2 * KVC_NAME_LEN + 2], got[2 * KVC_NAME_LEN + 16], list[200], msg[900];
        str_printf(both, sizeof both, strcmp(pre, dec) ? "%s %s" : "%s", pre, dec);
        python_sorted(both, got, sizeof got);
        python_sorted(allowed, list, sizeof list);
        const char *const f[][2] = {{"got", got}, {"allowed", list}};
        sglang_expand(r->message, f, COUNT_OF(f), msg, sizeof msg);
        return rules_refuse(c, blame, "%s (%s)", msg, r->cite);
    }
    if (!um->set) return KVC_OK; /* an MLA pool keeps its rows */
    if (r->pd_refused && pd_worker(c))
        return rules_refuse(c, um, "AssertionError: --enable-unified-memory is not yet compatible with PD "
                            "disaggregation. (%s)", r->cite);
    return diag_set(c->diag, KVC_ERR_CONFIG, &um->origin, "%s: SGLang %s goes on to its other unified-memory checks "
                    "(%s), which kvcheck does not model, so it cannot judge this worker%s%s", um->flag,
                    SGLANG_VERSIONS[c->rel], r->cite, c->hybrid ? "" : "; SGLang's model runner then refuses unified "
                    "memory at start-up for a model that is neither hybrid Mamba nor hybrid sliding-window: ",
                    c->hybrid ? "" : UNIFIED_POOL_REFUSAL);
}

/* prefill_complete on a prefill worker needs optimistic prefill: checked
 * with the other validations, late in the hooks (sglang 0.5.22:
 * python/sglang/srt/arg_groups/serving_hook.py:512-521; 0.5.23: :533-541).
 * 0 is made 1 first (pd_disaggregation_hook.py:49-55); the other ways
 * optimistic prefill goes off, PP and HiCache, prefill_complete refuses
 * earlier. */
static kvc_status check_optimistic_prefill(const ctx *c)
{
    const setting *o = &c->set->s[SET_OPTIMISTIC];
    if (!rel_since(c->rel, "0.5.22") || !set_to(c, SET_ALLOC_POLICY, "prefill_complete") ||
        !set_to(c, SET_DISAGG_MODE, "prefill") || !o->set || strtod(o->value, NULL) >= 0)
        return KVC_OK;
    return rules_refuse(c, o, "prefill_complete requires optimistic prefill, but the resolved model/cache configuration "
                  "disabled it. (sglang 0.5.22: python/sglang/srt/arg_groups/serving_hook.py:512-521; 0.5.23: "
                  ":533-541)");
}

/* --disaggregation-decode-allocation-policy (0.5.22+; early when unset, sglang
 * 0.5.23: python/sglang/srt/arg_groups/fields/disagg.py:59-64): pd.c
 * compares it between the sides. prefill_complete refuses what it does not
 * yet support, listed in SGLang's order (sglang 0.5.22:
 * python/sglang/srt/arg_groups/pd_disaggregation_hook.py:205-249; 0.5.23:
 * :199-243). The width it takes for attention DP is dp_size when
 * enable_dp_attention, which handle_deprecated_dp_attention has already
 * turned off (0.5.23: python/sglang/srt/arg_groups/parallel_hook.py:39-61),
 * so any tp_size above one is refused. */
/* set, to a number other than one (SGLang compares `!= 1`) */
static int not_one(const ctx *c, setting_key k)
{
    return c->set->s[k].set && strtod(c->set->s[k].value, NULL) != 1;
}
static int pc_aggregated(const ctx *c) { return !set_to(c, SET_DISAGG_MODE, "prefill") && !set_to(c, SET_DISAGG_MODE, "decode"); }
static int pc_transfer(const ctx *c)
{
    /* mooncake_tcp is rewritten to mooncake first (pd_disaggregation_hook.py:29-45) */
    const setting *t = &c->set->s[SET_TRANSFER_BACKEND];
    return t->set && strcmp(t->value, "mooncake") != 0 && strcmp(t->value, "mooncake_tcp") != 0;
}
static int pc_parallel(const ctx *c)
{
    return not_one(c, SET_PP) || not_one(c, SET_ATTN_CP) || not_one(c, SET_DCP);
}
static int pc_attn_tp(const ctx *c) { return not_one(c, SET_TP); }
static int pc_pdmux(const ctx *c)
{
    return c->set->s[SET_PDMUX].set || (c->set->s[SET_DECOUPLED_SPEC].set && !set_to(c, SET_DECOUPLED_SPEC, "null"));
}
static int pc_role_switch(const ctx *c) { return c->set->s[SET_PD_ROLE_SWITCH].set; }
static int pc_encoder(const ctx *c) { return c->set->s[SET_ENCODER_ONLY].set || c->set->s[SET_LANGUAGE_ONLY].set; }
static int pc_hisparse(const ctx *c) { return c->set->s[SET_HISPARSE].set; }
static int pc_host_receive(const ctx *c) { return host_receive_on(c); }
static int pc_decode_cache(const ctx *c)
{
    return set_to(c, SET_DISAGG_MODE, "decode") && (c->set->s[SET_DECODE_RADIX].set || c->set->s[SET_HICACHE].set);
}
static int pc_prefill_hicache(const ctx *c)
{
    /* hicache_write_policy defaults to write_through (0.5.23: arg_groups/fields/memory.py:121-127) */
    return set_to(c, SET_DISAGG_MODE, "prefill") && c->set->s[SET_HICACHE].set &&
           (c->set->s[SET_HICACHE_STORAGE].set || !set_to(c, SET_HICACHE_WRITE, "write_back"));
}
/* SGLang's EnvBool (0.5.23: python/sglang/srt/environ.py:143-150): -1 for a
 * value it does not take, which EnvField.get warns about and reads as the
 * default, False (environ.py:79-86) */
static int pc_staging(const ctx *c) { return rules_env_bool(&c->set->s[SET_STAGING_ENV]) == 1; }
static int pc_rust(const ctx *c) { return rules_env_bool(&c->set->s[SET_RUST_SERVER_ENV]) == 1; }

static const struct prefill_complete_row {
    int (*unsupported)(const ctx *c);
    const char *what;
} PREFILL_COMPLETE[] = {
    {pc_aggregated, "aggregated serving"},
    {pc_transfer, "transfer backends other than Mooncake"},
    {pc_parallel, "pipeline or attention context parallelism"},
    {pc_attn_tp, "attention tensor parallelism greater than one"},
    {pc_pdmux, "PD multiplexing or decoupled speculation"},
    {pc_role_switch, "runtime PD role switching"},
    {pc_encoder, "encoder disaggregation"},
    {pc_hisparse, "HiSparse"},
    {pc_host_receive, "decode host KV buffering"},
    {pc_decode_cache, "decode radix cache or decode HiCache"},
    {pc_prefill_hicache, "prefill HiCache other than L2 write_back"},
    {pc_staging, "staging buffers"},
    {pc_rust, "the Rust bootstrap registry"},
};

static kvc_status resolve_allocation_policy(const ctx *c)
{
    static const char CITE[] = "sglang 0.5.22: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:205-249; "
                               "0.5.23: :199-243";
    const setting *s = &c->set->s[SET_ALLOC_POLICY];
    kvc_setting *v = rules_get(c->out, "decode_alloc_policy");
    if (!rel_since(c->rel, "0.5.22")) return KVC_OK; /* no such flag: SGLang's parser refuses it */
    if (!s->set) { /* shown on PD workers only: a unified worker has no peer to compare it with */
        if (!pc_aggregated(c))
            setting_set(v, "early", "not set: SGLang's default (sglang 0.5.22: "
                        "python/sglang/srt/arg_groups/fields/disagg.py:59-64)");
        return KVC_OK;
    }
    char from[900];
    rules_from_text(s, from, sizeof from);
    setting_set(v, s->value, "set by %s", from);
    setting_origin(v, &s->origin);
    if (strcmp(s->value, "prefill_complete") != 0) return KVC_OK;
    for (setting_key k = SET_STAGING_ENV; k <= SET_RUST_SERVER_ENV; k++) rules_env_warn(c, k);
    char list[600] = "";
    for (size_t i = 0; i < COUNT_OF(PREFILL_COMPLETE); i++)
        if (PREFILL_COMPLETE[i].unsupported(c)) str_join_add(list, sizeof list, ", ", PREFILL_COMPLETE[i].what);
    if (list[0])
        return rules_refuse(c, s, "--disaggregation-decode-allocation-policy prefill_complete does not yet support %s (%s)",
                      list, CITE);
    return KVC_OK;
}

/* A prefill_complete worker's KV manager takes only full-attention and DSA
 * pools: the state a hybrid model's linear layers, DeepSeek-V4's SWA
 * caches or a DSA pool's compressed kpool tail add is refused when it
 * starts (sglang 0.5.22: python/sglang/srt/disaggregation/common/conn.py:
 * 372-379; 0.5.23: :417-423; the state types: 0.5.23:
 * python/sglang/srt/disaggregation/utils.py:1500-1511, :1549, :1623). */
static kvc_status check_policy_pool(const ctx *c, int dsv4)
{
    const char *state = c->hybrid ? "the linear layers' mamba"
                        : dsv4    ? "DeepSeek-V4's swa"
                        : c->dsa && c->model->index_kpool > 1 && c->model->index_kpool_compress
                            ? "the compressed kpool's dsa_tail"
                            : NULL;
    if (!state || strcmp(resolved_value(c->out, "decode_alloc_policy"), "prefill_complete") != 0) return KVC_OK;
    return rules_refuse(c, &c->set->s[SET_ALLOC_POLICY], "prefill_complete currently supports full-attention and DSA KV "
                  "pools only (this pool adds %s state; sglang 0.5.22: python/sglang/srt/disaggregation/common/"
                  "conn.py:372-379; 0.5.23: :417-423)", state);
}

/* A decode worker's tree cache with the host_pool backup: no Mamba state
 * (sglang 0.5.18: python/sglang/srt/mem_cache/registry.py:176-178; 0.5.19:
 * :152-154; 0.5.23: :156-158), which a hybrid model's linear layers keep. */
static kvc_status check_tree_cache(const ctx *c)
{
    /* a named backend first, whatever the radix cache (sglang 0.5.13: python/sglang/srt/mem_cache/registry.py:175-187;
     * 0.5.23: :223-235) */
    const setting *b = &c->set->s[SET_RADIX_BACKEND];
    if (b->set && b->value[0])
        return diag_set(c->diag, KVC_ERR_CONFIG, &b->origin, "%s %s: SGLang %s builds this worker's tree cache with "
                        "the factory a plugin registered under that name, and refuses a name no plugin registered, "
                        "when its scheduler starts (sglang 0.5.13: python/sglang/srt/mem_cache/registry.py:175-187; "
                        "0.5.23: :223-235); kvcheck does not model it, so it cannot judge this worker", b->flag,
                        b->value, SGLANG_VERSIONS[c->rel]);
    if (c->hybrid && set_to(c, SET_DISAGG_MODE, "decode") && host_pool_backup(c)) {
        int by = host_receive_on(c);
        return rules_refuse(c, &c->set->s[by ? SET_HOST_RECV : SET_RETRACTION_BACKUP],
                            "Host-pool retraction does not support Mamba models. (when the decode worker builds its "
                            "tree cache: the linear layers' state is Mamba state%s; sglang 0.5.18: python/sglang/srt/"
                            "mem_cache/registry.py:176-178; 0.5.23: :156-158)",
                            by ? "; host_pool because host receive is on" : "");
    }
    /* then, once built, a session radix cache needs it to be the UnifiedRadixCache: which tree cache SGLang builds
     * (the release, the model, SGLANG_ENABLE_UNIFIED_RADIX_TREE up to 0.5.18, the radix and cache flags) kvcheck
     * does not model; 0.5.15-0.5.16 check the eviction policy instead (CACHE_RULES) */
    const setting *session = &c->set->s[SET_SESSION_RADIX];
    if (!session->set || !rel_since(c->rel, "0.5.17")) return KVC_OK;
    return diag_set(c->diag, KVC_ERR_CONFIG, &session->origin, "%s: SGLang %s refuses it when its scheduler builds a "
                    "tree cache other than the UnifiedRadixCache (sglang 0.5.17: python/sglang/srt/mem_cache/"
                    "registry.py:213-222; 0.5.23: :252-258); kvcheck does not model which tree cache that is, so it "
                    "cannot judge this worker", session->flag, SGLANG_VERSIONS[c->rel]);
}

/* A decode worker with host receive on stops when it builds its KV
 * manager. Its KV must be the full KV pool alone (0.5.21) or with a paged
 * SWA pool (0.5.22+): a DSA pool's index cache is a DSA state (sglang
 * 0.5.23: python/sglang/srt/disaggregation/utils.py:1702-1736);
 * DeepSeek-V4's pool adds an SWA state (:1542-1550) and, with c128 layers,
 * their request-scoped DSV4_REQUEST_STATE (:1587-1598; mem_cache/
 * deepseek_v4_memory_pool.py:1762); checked at disaggregation/decode.py
 * 0.5.21:666-672, 0.5.22:662-668, 0.5.23:686-692. Past that, no transfer
 * backend writes to host destinations: BaseKVManager's
 * supports_host_destination is False and nothing else defines it (0.5.21:
 * base/conn.py:124, decode.py:698-704; 0.5.22: :130, :748-754; 0.5.23:
 * :135, :772-778). */
static kvc_status check_host_destination(const ctx *c, int dsv4)
{
    if (!host_receive_on(c) || !set_to(c, SET_DISAGG_MODE, "decode")) return KVC_OK;
    const setting *s = &c->set->s[SET_HOST_RECV];
    int v21 = !rel_since(c->rel, "0.5.22");
    const char *off = v21 ? "0" : "1";
    const char *state = c->dsa                                 ? "this DSA pool adds DSA state"
                        : dsv4 && v21                          ? "this DeepSeek-V4 pool adds SWA state"
                        : dsv4 && c->model->compress_128 > 0   ? "this DeepSeek-V4 pool adds its c128 layers' "
                                                                 "request state (DSV4_REQUEST_STATE)"
                                                               : NULL;
    if (state)
        return rules_refuse(c, s, "%s (when the decode worker builds its KV manager: %s to the KV transfer; sglang 0.5.21: "
                      "python/sglang/srt/disaggregation/decode.py:666-672; 0.5.22: :662-668; 0.5.23: :686-692). Leave "
                      "--disaggregation-decode-host-receive-threshold at %s (SGLang's default: host receive off)",
                      v21 ? "Host receive requires KV pools sharing the primary indices"
                          : "Host receive supports full KV and separate paged SWA pools",
                      state, off);
    return rules_refuse(c, s, "Transfer backend does not support decode host KV destinations (when the decode worker builds "
                  "its KV manager: no transfer backend of this release writes KV to host memory; the host-pool checks "
                  "just before, which kvcheck does not model, may stop it first with another message; sglang 0.5.21: "
                  "python/sglang/srt/disaggregation/decode.py:698-704; 0.5.22: :748-754; 0.5.23: :772-778). Leave "
                  "--disaggregation-decode-host-receive-threshold at %s (SGLang's default: host receive off)", off);
}

/* SGLANG_DISAGG_STAGING_BUFFER (an EnvBool) on a PD worker takes the Mooncake transfer backend only, and NIXL from
 * 0.5.12, right after the fake backend's check; mooncake_tcp is mooncake by then from 0.5.13 (sglang 0.5.10:
 * python/sglang/srt/server_args.py:3257-3266; 0.5.12: :4094-4101; 0.5.23: python/sglang/srt/arg_groups/
 * pd_disaggregation_hook.py:153-162). */
static kvc_status check_staging_backend(const ctx *c)
{
    static const char CITE[] = "sglang 0.5.10: python/sglang/srt/server_args.py:3257-3266; 0.5.12: :4094-4101; "
                               "0.5.23: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:153-162";
    if (!rel_since(c->rel, "0.5.10") || !pd_worker(c) || !pc_staging(c)) return KVC_OK;
    const setting *s = &c->set->s[SET_TRANSFER_BACKEND];
    const char *backend = rel_since(c->rel, "0.5.13") ? transfer_of(c) : s->set ? s->value : "mooncake";
    int nixl = rel_since(c->rel, "0.5.12");
    if (strcmp(backend, "mooncake") == 0 || (nixl && strcmp(backend, "nixl") == 0)) return KVC_OK;
    return rules_refuse(c, &c->set->s[SET_STAGING_ENV], "ValueError: SGLANG_DISAGG_STAGING_BUFFER requires "
                        "disaggregation_transfer_backend='mooncake'%s, got '%s'. (%s)", nixl ? " or 'nixl'" : "",
                        backend, CITE);
}

/* SGLANG_DISAGG_STAGING_BUFFER on a PD worker (0.5.11+), past its transfer backend's check
 * (check_staging_backend): the worker's bootstrap or prealloc queue refuses an MLA pool, which every model kvcheck
 * judges has (the DSA pool and DeepSeek-V4's included), when the scheduler sets up disaggregation, before its KV
 * manager (sglang 0.5.11: python/sglang/srt/disaggregation/prefill.py:128-133, decode.py:314; 0.5.17:
 * prefill.py:153, decode.py:357; 0.5.23: prefill.py:220-224, decode.py:452-457). */
static kvc_status check_staging(const ctx *c)
{
    static const char CITE[] = "sglang 0.5.11: python/sglang/srt/disaggregation/prefill.py:128-133, decode.py:314; "
                               "0.5.23: python/sglang/srt/disaggregation/prefill.py:220-224, decode.py:452-457";
    if (!rel_since(c->rel, "0.5.11") || !pd_worker(c) || !pc_staging(c)) return KVC_OK;
    const setting *env = &c->set->s[SET_STAGING_ENV];
    return rules_refuse(c, env, "RuntimeError: SGLANG_DISAGG_STAGING_BUFFER is designed for non-MLA models (e.g. GQA, "
                        "MHA). MLA models should not set this flag. (when the scheduler sets up disaggregation: %s)",
                        CITE);
}

/* What the worker refuses when it starts: its tree cache, its
 * PrefillDelayer, then its disaggregation queues and KV manager. */
static kvc_status check_startup(const ctx *c, int dsv4)
{
    kvc_status st = check_tree_cache(c);
    if (!st) st = delayer_check(c);
    if (!st) st = check_staging(c);
    if (!st) st = check_policy_pool(c, dsv4);
    return st ? st : check_host_destination(c, dsv4);
}

static kvc_status resolve_mode(const ctx *c)
{
    const setting *s = &c->set->s[SET_DISAGG_MODE];
    if (!s->set) {
        setting_set(rules_get(c->out, "disaggregation_mode"), "null", "not set: a unified (non-PD) worker");
        return KVC_OK;
    }
    char from[900];
    rules_from_text(s, from, sizeof from);
    setting_set(rules_get(c->out, "disaggregation_mode"), s->value, "set by %s", from);
    setting_origin(rules_get(c->out, "disaggregation_mode"), &s->origin);
    return KVC_OK;
}

/* ------------------------------------------------------------ page size */

static const struct page_rule {
    span when;
    int hip;            /* 1: ROCm only, 0: CUDA only */
    unsigned page;      /* 0: 64 x the config's index_kpool */
    const char *message;
    const char *cite;
} PAGES[] = {
    {UNTIL("0.5.7"), 0, 64, "Setting page size to 64 for DeepSeek NSA.", "sglang 0.5.3: python/sglang/srt/server_args.py:820-821"},
    {UNTIL("0.5.7"), 1, 64, "Setting page size to 64 for DeepSeek NSA.", "sglang 0.5.3: python/sglang/srt/server_args.py:820-821"},
    {FROM_TO("0.5.8", "0.5.21"), 0, 64, "Setting page size to 64 for DeepSeek DSA.", "sglang 0.5.8: python/sglang/srt/server_args.py:1150-1159"},
    {FROM_TO("0.5.8", "0.5.11"), 1, 1, "Setting page size to 1 for DeepSeek DSA on ROCm.", "sglang 0.5.8: python/sglang/srt/server_args.py:1150-1159"},
    {FROM_TO("0.5.12", "0.5.21"), 1, 64, "Setting page size to 64 for DeepSeek DSA.",
     "sglang 0.5.12: python/sglang/srt/server_args.py:1858-1875, with aiter's preshuffle paged-MQA path"},
    {SINCE("0.5.22"), 0, 0, "Setting page size to {page} for DeepSeek DSA.",
     "sglang 0.5.23: python/sglang/srt/arg_groups/model_overrides/deepseek_v2.py:161-173"},
    {SINCE("0.5.22"), 1, 0, "Setting page size to {page} for DeepSeek DSA.",
     "sglang 0.5.23: python/sglang/srt/arg_groups/model_overrides/deepseek_v2.py:161-173, with aiter's preshuffle "
     "paged-MQA path"},
};
/* ... and without it (rocm_preshuffle) */
static const struct page_rule ROCM_PAGE_ONE = {
    SINCE("0.5.12"), 1, 1, "Setting page size to 1 for DeepSeek DSA on ROCm (aiter preshuffle paged-MQA path "
    "unavailable: needs Triton>=3.5.0 or AITER_ENABLE_AOT_GLUON_PA_MQA_LOGITS=1).",
    "sglang 0.5.12: python/sglang/srt/server_args.py:1862-1875; 0.5.23: python/sglang/srt/arg_groups/model_overrides/"
    "deepseek_v2.py:151-173"};

/* On ROCm from 0.5.12 the DSA page is 64 (64 x index_kpool from 0.5.22) only with aiter's preshuffle paged-MQA path,
 * else 1: SGLANG_USE_AITER read by get_bool_env_var ("true" or "1", any case; unset is off) and the preshuffle not
 * disabled: SGLANG_NSA_HIP_DISABLE_PRESHUFFLE by get_bool_env_var in 0.5.12-0.5.12.post1, then
 * SGLANG_DSA_HIP_DISABLE_PRESHUFFLE, an EnvBool with the NSA name as its alias up to 0.5.20 (the DSA name wins),
 * alone from 0.5.21; and Triton 3.5 or AITER_ENABLE_AOT_GLUON_PA_MQA_LOGITS (sglang 0.5.12: python/sglang/srt/layers/
 * attention/nsa/utils.py:19-55; 0.5.13: python/sglang/srt/layers/attention/dsa/utils.py:20-56, environ.py:575-577;
 * 0.5.23: dsa/utils.py:33-68, environ.py:1984; get_bool_env_var: 0.5.23: python/sglang/srt/utils/common.py:
 * 1424-1441). 1 on, 0 off, -1 not known: SGLANG_USE_AITER is not in the launch command, which kvcheck takes as on
 * (SGLang's ROCm images set it) and says so. */
static int get_bool_env(const setting *s) { return s->set && (str_ieq(s->value, "true") || !strcmp(s->value, "1")); }
/* get_bool_env_var's warning for a value that is none of true, 1, false, 0 (it reads it as false) */
static void get_bool_env_warn(const ctx *c, setting_key k)
{
    const setting *s = &c->set->s[k];
    if (!s->set || get_bool_env(s) || str_ieq(s->value, "false") || !strcmp(s->value, "0")) return;
    char lower[64];
    str_copy(lower, sizeof lower, s->value);
    ascii_lower(lower);
    notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES, "SGLang warns \"get_bool_env_var(%s) encountered "
              "unrecognized value=%s and will treat as false\" (sglang 0.5.23: python/sglang/srt/utils/common.py:"
              "1424-1441)", s->flag, lower);
}
static const char PRESHUFFLE_CITE[] = "sglang 0.5.12: python/sglang/srt/layers/attention/nsa/utils.py:19-55; 0.5.23: "
                                      "python/sglang/srt/layers/attention/dsa/utils.py:33-68";
/* The preshuffle switch the release reads: the NSA name up to 0.5.12.post1; the DSA name, or its NSA alias when
 * only that is given, up to 0.5.20; the DSA name alone after. */
static setting_key shuffle_switch(const ctx *c)
{
    if (rel_until(c->rel, "0.5.12.post1")) return SET_NSA_NO_SHUFFLE_ENV;
    return c->set->s[SET_DSA_NO_SHUFFLE_ENV].set || rel_since(c->rel, "0.5.21") ? SET_DSA_NO_SHUFFLE_ENV
                                                                                 : SET_NSA_NO_SHUFFLE_ENV;
}
/* 0.5.12-0.5.12.post1 read it by get_bool_env_var, later releases as an EnvBool */
static int shuffle_by_get_bool(const ctx *c) { return rel_until(c->rel, "0.5.12.post1"); }
static int rocm_preshuffle(const ctx *c)
{
    const setting *off = &c->set->s[shuffle_switch(c)];
    if (shuffle_by_get_bool(c) ? get_bool_env(off) : rules_env_bool(off) == 1) return 0;
    if (c->set->s[SET_USE_AITER_ENV].set) return get_bool_env(&c->set->s[SET_USE_AITER_ENV]);
    return -1;
}

/* ROCm's aiter SHUFFLE layout asked for in the launch's environment
 * (0.5.13+; SGLang compares the value lower-cased). Pure. */
static int vectorized_5d(const ctx *c)
{
    const setting *e = &c->set->s[SET_AITER_LAYOUT_ENV];
    return e->set && c->gpu->hip && rel_since(c->rel, "0.5.13") && str_ieq(e->value, "vectorized_5d");
}

static kvc_status resolve_page_size(const ctx *c)
{
    const setting *s = &c->set->s[SET_PAGE_SIZE];
    unsigned long given = 0;
    char from[900] = "";
    if (s->set) {
        char *end = NULL;
        given = strtoul(s->value, &end, 10);
        RETURN_ERROR_IF(!s->value[0] || *end || s->value[0] == '-' || given < 1 || given > 65536, c->diag,
                        KVC_ERR_CONFIG, &s->origin,
                        "%s '%s': the page size must be a whole number of tokens from 1 to 65536", s->flag, s->value);
        rules_from_text(s, from, sizeof from);
    }
    kvc_setting *v = rules_get(c->out, "page_size");
    const struct page_rule *rule = NULL;
    for (size_t i = 0; c->defaults && i < COUNT_OF(PAGES) && !rule; i++)
        if (in_span(c->rel, PAGES[i].when) && PAGES[i].hip == c->gpu->hip) rule = &PAGES[i];
    int rocm = rule && c->gpu->hip && in_span(c->rel, ROCM_PAGE_ONE.when);
    int shuffle = rocm ? rocm_preshuffle(c) : 1;
    if (rocm) { /* what SGLang warns about, as it reads them */
        get_bool_env_warn(c, SET_USE_AITER_ENV);
        if (shuffle_by_get_bool(c)) get_bool_env_warn(c, shuffle_switch(c));
        else rules_env_warn(c, shuffle_switch(c));
    }
    if (!shuffle) rule = &ROCM_PAGE_ONE;
    unsigned long page = !rule ? (s->set ? given : 1)
                         : rule->page ? rule->page : 64 * (c->model->index_kpool ? c->model->index_kpool : 1);
    /* then the attention backends' page constraints, each on the page the one before left; `earlier` names
     * the ones before the last that changed it */
    int forced = -1;
    char earlier[200] = "";
    for (unsigned i = 0; i < c->nattn; i++) {
        char num[24];
        str_printf(num, sizeof num, "%lu", page);
        if (!c->attn[i]->pages || word_in(num, c->attn[i]->pages)) continue;
        if (forced >= 0)
            str_printf(earlier + strlen(earlier), sizeof earlier - strlen(earlier), "%s made it %lu, then ",
                       c->attn[forced]->backend, page);
        page = c->attn[i]->page;
        forced = (int)i;
    }
    char num[24], passed[64] = "";
    str_printf(num, sizeof num, "%lu", page);
    if (forced >= 0) {
        const struct attn_rule *r = c->attn[forced];
        if (s->set) str_printf(passed, sizeof passed, "; you passed %lu", given);
        setting_set(v, num, "%s%s takes page sizes %s only (%s)%s%s. %s", earlier, r->backend, r->pages, r->cite,
                    passed, rule ? ", after the DSA page" : "", c->attn_why[forced]);
        return KVC_OK;
    }
    if (rule) {
        char msg[200];
        const char *const f[][2] = {{"page", num}};
        sglang_expand(rule->message, f, COUNT_OF(f), msg, sizeof msg);
        if (s->set && given != page) str_printf(passed, sizeof passed, " (you passed %lu)", given);
        setting_set(v, num, "forced for DSA%s: \"%s\" (%s)", passed, msg, rule->cite);
        if (shuffle < 0)
            notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
                      "the launch command does not set SGLANG_USE_AITER: kvcheck takes SGLang %s's DSA page on ROCm "
                      "as %lu, with aiter's preshuffle paged-MQA path (SGLANG_USE_AITER=1, as SGLang's ROCm images "
                      "set it); without that path SGLang forces page size 1 (%s)",
                      SGLANG_VERSIONS[c->rel], page, PRESHUFFLE_CITE);
        else if (c->gpu->hip && rule != &ROCM_PAGE_ONE && rel_since(c->rel, "0.5.12"))
            notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
                      "SGLang %s's DSA page on ROCm is %lu with aiter's preshuffle paged-MQA path, which also needs "
                      "Triton >= 3.5 or AITER_ENABLE_AOT_GLUON_PA_MQA_LOGITS=1; without them it forces page size 1 "
                      "(%s)", SGLANG_VERSIONS[c->rel], page, PRESHUFFLE_CITE);
        return KVC_OK;
    }
    if (s->set) setting_set(v, s->value, "set by %s", from);
    if (s->set) setting_origin(v, &s->origin);
    else if (vectorized_5d(c))
        setting_set(v, "64", "SGLang's default page size on ROCm with SGLANG_AITER_KV_CACHE_LAYOUT=vectorized_5d "
                    "(sglang 0.5.13: python/sglang/srt/server_args.py:3162-3179; 0.5.23: "
                    "python/sglang/srt/arg_groups/overrides.py:1341-1362)");
    else setting_set(v, "1", "SGLang's default page size");
    return KVC_OK;
}

/* ------------------------------------------------------------ row width */

/* When the pool stores raw FP8 rows (R + r bytes, no scales) instead of
 * FlashMLA's scaled rows: a DSA worker's fp8_e4m3 (e4m3fn) pool is scaled
 * unless a row here matches. Up to 0.5.8.post1 the pool constructor decides
 * from the dtype alone (sglang 0.5.5: python/sglang/srt/mem_cache/
 * memory_pool.py:1590); from 0.5.9 calculate_mla_kv_cache_dim. */
enum deciders {
    D_EITHER, /* either backend */
    D_ACTIVE, /* the worker's own side (prefill worker: prefill backend; decode: decode; unified: either) */
    D_BOTH    /* both backends */
};
static const struct raw_row {
    span when;
    const char *backend;
    int hip; /* 1: ROCm, 0: CUDA */
    enum deciders deciders;
    const char *cite;
} RAW[] = {
    {FROM_TO("0.5.9", "0.5.19"), "trtllm", 0, D_EITHER, "sglang 0.5.9: python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py:212"},
    {FROM_TO("0.5.9", "0.5.19"), "trtllm", 1, D_EITHER, "sglang 0.5.9: python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py:212"},
    {SINCE("0.5.20"), "trtllm", 0, D_ACTIVE, "sglang 0.5.20: python/sglang/srt/mem_cache/kv_cache_configurator.py:2543-2575"},
    {SINCE("0.5.20"), "trtllm", 1, D_ACTIVE, "sglang 0.5.20: python/sglang/srt/mem_cache/kv_cache_configurator.py:2543-2575"},
    {SINCE("0.5.10"), "tilelang", 1, D_EITHER, "sglang 0.5.10: python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py:240"},
    {SINCE("0.5.14"), "aiter", 1, D_EITHER, "sglang 0.5.14: python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py:226"},
    {SINCE("0.5.20"), "triton", 1, D_EITHER, "sglang 0.5.20: python/sglang/srt/mem_cache/kv_cache_configurator.py:2543"},
    {SINCE("0.5.22"), "tilelang", 0, D_BOTH, "sglang 0.5.22: python/sglang/srt/mem_cache/kv_cache_configurator.py:3086"},
};

static const char *const DECIDERS[] = {"either backend decides", "the worker's own backend decides",
                                       "both backends must"};

/* The raw-FP8 row that matches, or NULL. Pure. */
static const struct raw_row *raw_match(unsigned rel, int hip, const char *prefill, const char *decode,
                                       const char *mode)
{
    int is_p = strcmp(mode, "prefill") == 0, is_d = strcmp(mode, "decode") == 0;
    for (size_t i = 0; i < COUNT_OF(RAW); i++) {
        const struct raw_row *r = &RAW[i];
        if (!in_span(rel, r->when) || r->hip != hip) continue;
        int p = strcmp(prefill, r->backend) == 0, d = strcmp(decode, r->backend) == 0;
        int hit = r->deciders == D_BOTH ? p && d : r->deciders == D_EITHER ? p || d : is_p ? p : is_d ? d : p || d;
        if (hit) return r;
    }
    return NULL;
}

/* The row of a pool whose --kv-cache-dtype string is `dtype`, into `row`;
 * `dsa`: the pool's model is DSA in this release. */
static void decide_row(const ctx *c, const char *dtype, int dsa, kvc_setting *row)
{
    const struct dtype_row *t = torch_row(c, dtype);
    unsigned R = c->model->kv_lora_rank, r = c->model->qk_rope_head_dim;
    if (strcmp(t->name, "fp8_e4m3") != 0 || !dsa) {
        setting_set(row, t->plain_layout, "%s: rows are R + r = %u values of %s, with no scales",
                    dsa ? "not fp8_e4m3" : "not a DSA model in this release", R + r, t->name);
        return;
    }
    if (fp8_is_fnuz(c)) {
        setting_set(row, "fp8_raw", "fp8_e4m3 is float8_e4m3fnuz on %s in SGLang %s, and only float8_e4m3fn pools "
                    "carry scales: rows are R + r = %u raw FP8 bytes", c->gpu->name, SGLANG_VERSIONS[c->rel], R + r);
        notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
                  "%s stores FP8 as e4m3fnuz (NaN is 0x80, no infinities); kvcheck scan checks e4m3fn codes",
                  c->gpu->name);
        return;
    }
    const char *mode = resolved_value(c->out, "disaggregation_mode");
    const struct raw_row *raw = c->backend[PREFILL][0] || c->backend[DECODE][0]
                                    ? raw_match(c->rel, c->gpu->hip, c->backend[PREFILL], c->backend[DECODE], mode)
                                    : NULL;
    if (raw) {
        setting_set(row, "fp8_raw", "%s writes raw FP8 rows (R + r = %u bytes) on %s: %s (%s)", raw->backend, R + r,
                    c->gpu->hip ? "ROCm" : "CUDA", DECIDERS[raw->deciders], raw->cite);
        return;
    }
    if (rel_until(c->rel, "0.5.8.post1"))
        setting_set(row, "fp8_flashmla", "fp8_e4m3 (float8_e4m3fn) DSA pools carry FP32 scales whatever the backends "
                    "in SGLang %s (sglang 0.5.5: python/sglang/srt/mem_cache/memory_pool.py:1590)",
                    SGLANG_VERSIONS[c->rel]);
    else
        setting_set(row, "fp8_flashmla", "no deciding backend writes raw FP8, so rows carry FP32 scales (SGLang %s "
                    "calculate_mla_kv_cache_dim)", SGLANG_VERSIONS[c->rel]);
}

/* --------------------------------------------------- model-init checks */

/* The torch dtype SGLang's DSA backend sees, as Python prints it. */
static const char *torch_name(const ctx *c)
{
    const char *d = stored_dtype(c, c->dtype);
    if (strcmp(d, "fp8_e4m3") == 0) return fp8_is_fnuz(c) ? "torch.float8_e4m3fnuz" : "torch.float8_e4m3fn";
    if (strcmp(d, "fp8_e5m2") == 0) return strcmp(fp8_stored_name(c, d), d) ? "torch.float8_e5m2fnuz" : "torch.float8_e5m2";
    if (strcmp(d, "bf16") == 0 || strcmp(d, "bfloat16") == 0) return "torch.bfloat16";
    if (strcmp(d, "float16") == 0) return "torch.float16";
    return "torch.float32";
}

static int is_e4m3fn(const ctx *c) { return strcmp(torch_name(c), "torch.float8_e4m3fn") == 0; }
static int packed(const ctx *c) { return strcmp(c->out->row.value, "fp8_flashmla") == 0; }
static int glm_sm12_fp8(const ctx *c)
{
    const char *a = c->model->architecture;
    return (strcmp(a, "GlmMoeDsaForCausalLM") == 0 || strcmp(a, "GlmMoeDsaForCausalLMNextN") == 0) &&
           !c->gpu->hip && c->gpu->major == 12 && is_e4m3fn(c);
}
static int uses(const ctx *c, int side, const char *b) { return strcmp(c->backend[side], b) == 0; }
static int uses_any(const ctx *c, const char *b) { return uses(c, PREFILL, b) || uses(c, DECODE, b); }

static int q8_not_fp8(const ctx *c) { return uses(c, PREFILL, "flashmla_sparse_q8") && !is_e4m3fn(c); }
static int q8_not_bf16_or_fp8(const ctx *c)
{
    return uses(c, PREFILL, "flashmla_sparse_q8") && !is_e4m3fn(c) && strcmp(torch_name(c), "torch.bfloat16") != 0;
}
static int q8_nope_fp8(const ctx *c)
{
    return uses(c, PREFILL, "flashmla_sparse_q8") && packed(c) && c->model->qk_rope_head_dim == 0;
}
static int q8_unpacked(const ctx *c) { return uses(c, PREFILL, "flashmla_sparse_q8") && is_e4m3fn(c) && !packed(c); }
static int q8_not_sm90(const ctx *c) { return uses(c, PREFILL, "flashmla_sparse_q8") && c->gpu->major != 9; }
static int q8_hisparse(const ctx *c) { return uses(c, PREFILL, "flashmla_sparse_q8") && c->set->s[SET_HISPARSE].set; }
static int q8_decode(const ctx *c) { return uses(c, DECODE, "flashmla_sparse_q8"); }
/* --enable-mixed-chunk as the schedule has it: the flag, which speculative decoding's resolution may turn off
 * (NGRAM, and some EAGLE-family paths), which kvcheck does not follow: with an algorithm, the row declines */
static int q8_mixed(const ctx *c)
{
    return uses(c, PREFILL, "flashmla_sparse_q8") && c->set->s[SET_MIXED_CHUNK].set && !c->set->s[SET_SPEC_ALGO].set;
}
static int q8_mixed_spec(const ctx *c)
{
    return uses(c, PREFILL, "flashmla_sparse_q8") && c->set->s[SET_MIXED_CHUNK].set && c->set->s[SET_SPEC_ALGO].set;
}
static unsigned long attention_tp(const ctx *c, int with_cp);
/* the query heads a rank runs: num_attention_heads // the attention TP size (sglang 0.5.23:
 * python/sglang/srt/layers/attention/dsa_backend.py:541-543) */
static unsigned long q_heads(const ctx *c) { return c->model->num_attention_heads / attention_tp(c, 1); }
static int triton_mla_hip(const ctx *c) { return uses(c, PREFILL, "triton_sparse_mla") && c->gpu->hip; }
static int triton_mla_old(const ctx *c) { return uses(c, PREFILL, "triton_sparse_mla") && c->gpu->major < 9; }
static int triton_mla_heads(const ctx *c) { return uses(c, PREFILL, "triton_sparse_mla") && q_heads(c) > 32; }
/* a config without num_attention_heads (a bundled preset) */
static int triton_mla_no_heads(const ctx *c)
{
    return uses(c, PREFILL, "triton_sparse_mla") && !c->model->num_attention_heads;
}
static int triton_mla_kpool(const ctx *c)
{
    return uses(c, PREFILL, "triton_sparse_mla") && c->model->index_kpool > 1;
}
static int fi_off_platform(const ctx *c) { return uses_any(c, "flashinfer_sparse_mla") && !glm_sm12_fp8(c); }
/* GLM with fp8 on SM120/SM121 and a side whose backend is not in
 * `allowed` (space-separated). */
static int glm_sm12_outside(const ctx *c, const char *allowed)
{
    if (!glm_sm12_fp8(c)) return 0;
    for (int i = 0; i < 2; i++)
        if (!word_in(c->backend[i], allowed)) return 1;
    return 0;
}
static int glm_sm12_other(const ctx *c) { return glm_sm12_outside(c, "flashinfer_sparse_mla"); }
static int glm_sm12_other_or_triton(const ctx *c)
{
    return glm_sm12_outside(c, "flashinfer_sparse_mla triton_sparse_mla");
}

/* SGLang's DSA attention backend validates its configuration when the model
 * runner builds it, after the arguments resolved: these refuse to start
 * too. In SGLang's order. Fields: {torch} the pool's torch dtype, {major},
 * {arch}, {prefill}, {decode}, {others} (Python's sorted list of the other
 * backends), {kpool}, {heads} (the query heads a rank runs). A row without a
 * message declines the worker. */
static const struct init_check {
    span when;
    int (*refuses)(const ctx *c);
    int side; /* the flag to point at */
    const char *message;
    const char *cite;
} INIT[] = {
    {FROM_TO("0.5.16", "0.5.21"), q8_not_fp8, PREFILL,
     "--dsa-prefill-backend flashmla_sparse_q8 is native FP8 and requires --kv-cache-dtype fp8_e4m3 (got "
     "kv_cache_dtype={torch}); use --dsa-prefill-backend flashmla_sparse for the bf16 path.",
     "sglang 0.5.16: python/sglang/srt/layers/attention/dsa_backend.py:460-466"},
    {FROM_TO("0.5.16", "0.5.21"), q8_not_sm90, PREFILL,
     "--dsa-prefill-backend flashmla_sparse_q8 is SM90-only; got compute capability sm_{major}x.",
     "sglang 0.5.16: python/sglang/srt/layers/attention/dsa_backend.py:467-471"},
    {FROM_TO("0.5.16", "0.5.21"), q8_decode, DECODE,
     "--dsa-decode-backend flashmla_sparse_q8 is not supported: flashmla_sparse_q8 is a prefill-only backend. For "
     "FP8, use --dsa-prefill-backend flashmla_sparse_q8 together with --dsa-decode-backend flashmla_kv.",
     "sglang 0.5.16: python/sglang/srt/layers/attention/dsa_backend.py:476-482"},
    {SINCE("0.5.22"), q8_not_bf16_or_fp8, PREFILL,
     "--dsa-prefill-backend flashmla_sparse_q8 computes attention in FP8 and reads a bfloat16 or fp8_e4m3 KV cache; "
     "got kv_cache_dtype={torch}.",
     "sglang 0.5.23: python/sglang/srt/layers/attention/dsa_backend.py:434-441"},
    {SINCE("0.5.22"), q8_nope_fp8, PREFILL,
     "--dsa-prefill-backend flashmla_sparse_q8 does not support an fp8_e4m3 KV cache for NoPE MLA models "
     "(qk_rope_head_dim=0) yet; use --kv-cache-dtype bfloat16.",
     "sglang 0.5.23: python/sglang/srt/layers/attention/dsa_backend.py:445-450"},
    {SINCE("0.5.22"), q8_unpacked, PREFILL,
     "--dsa-prefill-backend flashmla_sparse_q8 requires either a bfloat16 KV cache or the packed fp8_e4m3 pool; got "
     "an unpacked fp8_e4m3 pool (a trtllm backend keeps the raw layout). Use --kv-cache-dtype bfloat16.",
     "sglang 0.5.23: python/sglang/srt/layers/attention/dsa_backend.py:454-461"},
    {SINCE("0.5.22"), q8_not_sm90, PREFILL,
     "--dsa-prefill-backend flashmla_sparse_q8 is SM90-only; got compute capability sm_{major}x.",
     "sglang 0.5.23: python/sglang/srt/layers/attention/dsa_backend.py:462-466"},
    {SINCE("0.5.22"), q8_mixed, PREFILL,
     "--dsa-prefill-backend flashmla_sparse_q8 does not support --enable-mixed-chunk: q8 prefill runs on RAGGED "
     "extend batches only.", "sglang 0.5.22: python/sglang/srt/layers/attention/dsa_backend.py:461-466; 0.5.23: "
     ":469-474"},
    {SINCE("0.5.22"), q8_mixed_spec, PREFILL, NULL, "sglang 0.5.22: python/sglang/srt/layers/attention/dsa_backend.py:"
     "461-466; 0.5.23: :469-474"},
    {SINCE("0.5.22"), q8_hisparse, PREFILL,
     "--dsa-prefill-backend flashmla_sparse_q8 is not supported together with HiSparse: the q8 path consumes top-k "
     "as ragged ids and does not carry the HiSparse page translation.",
     "sglang 0.5.23: python/sglang/srt/layers/attention/dsa_backend.py:480-485"},
    {SINCE("0.5.22"), q8_decode, DECODE,
     "--dsa-decode-backend flashmla_sparse_q8 is not supported: flashmla_sparse_q8 is a prefill-only backend. Pair "
     "it with a decode backend that reads the KV cache dtype (flashmla_kv for fp8_e4m3; tilelang or fa3 for "
     "bfloat16).",
     "sglang 0.5.23: python/sglang/srt/layers/attention/dsa_backend.py:486-492"},
    {SINCE("0.5.22"), triton_mla_hip, PREFILL,
     "triton_sparse_mla is a CUDA prefill backend; on ROCm use the existing tilelang / aiter DSA paths.",
     "sglang 0.5.23: python/sglang/srt/layers/attention/dsa_backend.py:368-372"},
    {SINCE("0.5.22"), triton_mla_old, PREFILL, "triton_sparse_mla requires SM90 (Hopper) or newer; got sm_major={major}.",
     "sglang 0.5.23: python/sglang/srt/layers/attention/dsa_backend.py:373-377"},
    {SINCE("0.5.22"), triton_mla_no_heads, PREFILL, NULL, "sglang 0.5.23: python/sglang/srt/layers/attention/"
     "dsa_backend.py:378-384, :541-543"},
    {SINCE("0.5.22"), triton_mla_heads, PREFILL,
     "triton_sparse_mla is validated up to 32 query heads per rank; got num_q_heads={heads}. Raise the attention TP "
     "degree or use another DSA prefill backend.", "sglang 0.5.22: python/sglang/srt/layers/attention/dsa_backend.py:"
     "370-376; 0.5.23: :378-384, :541-543"},
    {SINCE("0.5.22"), triton_mla_kpool, PREFILL,
     "triton_sparse_mla does not support index_kpool > 1 (the pooled indexer appends tail tokens to topk_indices); "
     "got {kpool}. Use flashmla_sparse, which reroutes the tail.",
     "sglang 0.5.23: python/sglang/srt/layers/attention/dsa_backend.py:385-390"},
    {SINCE("0.5.17"), fi_off_platform, DECODE,
     "flashinfer_sparse_mla supports only GLM DSA with FP8 KV cache on NVIDIA SM120/SM121; got model_arch='{arch}', "
     "sm_major={major}, kv_cache_dtype={torch}, prefill_impl='{prefill}', decode_impl='{decode}'.",
     "sglang 0.5.17: python/sglang/kernels/ops/attention/flash_mla_sm120.py:584-591"},
    {FROM_TO("0.5.17", "0.5.21"), glm_sm12_other, DECODE,
     "GLM DSA with FP8 KV cache on NVIDIA SM120/SM121 supports only flashinfer_sparse_mla, but got {others}.",
     "sglang 0.5.17: python/sglang/kernels/ops/attention/flash_mla_sm120.py:592-599"},
    {SINCE("0.5.22"), glm_sm12_other_or_triton, DECODE,
     "GLM DSA with FP8 KV cache on NVIDIA SM120/SM121 supports only flashinfer_sparse_mla (default) or "
     "triton_sparse_mla (prefill), but got {others}.",
     "sglang 0.5.23: python/sglang/kernels/ops/attention/flash_mla_sm120.py:692-711"},
};

/* HiSparse with speculative decoding (0.5.22+): the target's model runner builds the HiSparse coordinator after its
 * KV pool, before its attention backends, and the coordinator's speculative swap manager checks the draft tokens a
 * request carries (the resolved --speculative-num-draft-tokens: NGRAM's, 12 unless given; EAGLE's, at the top-k of 1
 * every DSA page leaves it, --speculative-num-steps + 1, or the 4 SGLang picks) against 2-4, the model's index_topk
 * against 1024, and their product against 8192; then its request slots (max_running_requests + 1, more on a decode
 * worker), which SGLang sizes from the GPU's memory unless given, against HiSparse's device buffer (4096 unless
 * --hisparse-config says otherwise), which kvcheck does not model: a warning says it is not checked, as for the
 * other checks of sizes SGLang takes from the GPU's memory (sglang 0.5.22:
 * python/sglang/srt/managers/hisparse_coordinator.py:174-188, :683, python/sglang/srt/model_executor/model_runner.py:
 * 1007-1037; 0.5.23: python/sglang/srt/managers/hisparse_coordinator.py:174-188, :698, python/sglang/srt/
 * model_executor/model_runner.py:1029-1059, python/sglang/srt/arg_groups/speculative_hook.py:1256-1266, :1314-1323) */
static kvc_status check_hisparse_swap(const ctx *c)
{
    static const char CITE[] = "sglang 0.5.22: python/sglang/srt/managers/hisparse_coordinator.py:174-188; 0.5.23: "
                               ":174-188, python/sglang/srt/model_executor/model_runner.py:1029-1059";
    const setting *h = &c->set->s[SET_HISPARSE], *algo = &c->set->s[SET_SPEC_ALGO];
    if (!h->set || !rel_since(c->rel, "0.5.22")) return KVC_OK;
    char a[64];
    rules_spec_resolved(c, a, sizeof a);
    if (!a[0] || strcmp(a, "NONE") == 0) return KVC_OK;
    const setting *steps = &c->set->s[SET_SPEC_NUM_STEPS], *tokens = &c->set->s[SET_SPEC_DRAFT_TOKENS];
    int ngram = strcmp(a, "NGRAM") == 0;
    if (!ngram && !word_in(a, "EAGLE EAGLE3 STANDALONE"))
        return diag_set(c->diag, KVC_ERR_CONFIG, &algo->origin, "HiSparse with --speculative-algorithm %s: SGLang %s's "
                        "speculative swap checks the draft tokens the algorithm resolves, which kvcheck does not derive "
                        "for it, so it cannot judge this worker (%s)", algo->value, SGLANG_VERSIONS[c->rel], CITE);
    const setting *by = ngram ? tokens : steps;
    long n = by->set ? strtol(by->value, NULL, 10) + !ngram : ngram ? 12 : 4;
    unsigned long topk = c->model->index_topk ? c->model->index_topk : 2048;
    if (n < 2 || n > 4 || topk < 1024)
        return rules_refuse(c, by->set ? by : algo, "ValueError: HiSparse spec swap requires 2-4 draft tokens and top_k "
                            ">= 1024. (the target's model runner, building the HiSparse coordinator: %ld draft tokens, "
                            "top_k %lu; %s)", n, topk, CITE);
    if ((unsigned long)n * topk > 8192)
        return rules_refuse(c, by->set ? by : algo, "ValueError: HiSparse spec swap supports at most 8192 occurrences. "
                            "(%ld draft tokens x top_k %lu; %s)", n, topk, CITE);
    notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES, "not checked: HiSparse's speculative swap in "
              "SGLang %s refuses the worker when its request slots (max_running_requests + 1, which SGLang sizes from "
              "the GPU's memory unless --max-running-requests gives them) exceed HiSparse's device buffer (4096 "
              "unless --hisparse-config sets device_buffer_size) (%s)", SGLANG_VERSIONS[c->rel], CITE);
    return KVC_OK;
}

static kvc_status check_init(const ctx *c)
{
    /* SGLang picks its DSA attention backend only for the DeepSeek family
     * (the guard): outside it these checks never run. */
    for (size_t i = 0; c->defaults && i < COUNT_OF(INIT); i++) {
        const struct init_check *k = &INIT[i];
        if (!in_span(c->rel, k->when) || !k->refuses(c)) continue;
        const setting *s = &c->set->s[k->side == PREFILL ? SET_PREFILL_BACKEND : SET_DECODE_BACKEND];
        if (!k->message)
            return diag_set(c->diag, KVC_ERR_CONFIG, s->set ? &s->origin : NULL, "%s %s: SGLang %s's DSA backend "
                            "then checks %s, so kvcheck cannot judge this worker (%s)", s->flag, c->backend[k->side],
                            SGLANG_VERSIONS[c->rel], k->refuses == q8_mixed_spec ? "--enable-mixed-chunk as the "
                            "speculative resolution leaves it (it turns mixed chunking off for some algorithms), which "
                            "kvcheck does not follow" : "the query heads a rank runs against its limit of 32, from "
                            "num_attention_heads, which this model config does not give (pass the checkpoint's "
                            "config.json)", k->cite);
        char major[16], kpool[16], heads[24], others[200] = "", list[200] = "", msg[900];
        str_printf(major, sizeof major, "%u", c->gpu->major);
        str_printf(heads, sizeof heads, "%lu", q_heads(c));
        str_printf(kpool, sizeof kpool, "%u", c->model->index_kpool);
        for (int side = 0; side < 2; side++) /* Python's set difference, then sorted() */
            if (!uses(c, side, "flashinfer_sparse_mla") && !uses(c, side, "triton_sparse_mla") &&
                !word_in(c->backend[side], list))
                str_join_add(list, sizeof list, " ", c->backend[side]);
        python_sorted(list, others, sizeof others);
        const char *const f[][2] = {{"torch", torch_name(c)}, {"major", major},   {"arch", c->model->architecture},
                                    {"prefill", c->backend[PREFILL]}, {"decode", c->backend[DECODE]},
                                    {"others", others},           {"kpool", kpool},   {"heads", heads}};
        sglang_expand(k->message, f, COUNT_OF(f), msg, sizeof msg);
        return rules_refuse(c, s->set ? s : NULL, "%s (at model init; %s)", msg, k->cite);
    }
    return KVC_OK;
}

/* ------------------------------------- model init: the attention backends */

/* Up to 0.5.4 the model runner settles the attention backend when it
 * starts, before it loads the model (ModelRunner.model_specific_adjustment):
 * equal --prefill- and --decode-attention-backend replace it, and an MLA
 * model's backend given outside its list is refused. */
static const struct runner_list {
    span when;
    const char *backends; /* space-separated */
    const char *cite;
} MLA_RUNNER_BACKENDS[] = {
    {UNTIL("0.5.4"), "aiter flashinfer fa3 fa4 triton flashmla cutlass_mla trtllm_mla ascend nsa",
     "sglang 0.5.3rc2: python/sglang/srt/model_executor/model_runner.py:156-167, :268, :485-490, :553-562; 0.5.4: "
     ":160-171, :291, :526-531, :595-604"},
};

/* The attention backends' factories, which a model runner calls once its
 * KV pool exists (the target's for its decode backend, then the prefill one
 * where they differ; a separate draft's for its own): their refusals of an
 * MLA or an MHA model (`runner`). `majors`: the CUDA compute capability
 * majors it is built on (ROCm reports its own: MI300X 9); NULL: none.
 * `cond`: where the refusal needs more than the backend, its condition;
 * NULL: none. */
enum runner_kind { MLA_RUNNER = 1, MHA_RUNNER = 2 };
/* trtllm_mla's factory, when the decode side is trtllm_mla, with decode context parallelism and speculative
 * decoding. Pure. */
static int dcp_spec_decode(const ctx *c, const char *decode)
{
    return strcmp(decode, "trtllm_mla") == 0 && dcp_size(c) > 1 && c->set->s[SET_SPEC_ALGO].set;
}
#define TRTLLM_MLA_DCP                                                                                                 \
    "ValueError: trtllm_mla cannot serve decode context parallelism with speculative decoding: it does not forward "   \
    "the cyclic DCP metadata to its decode kernel and returns no rank-local LSE for the cross-rank merge. Select "     \
    "cutedsl_mla"
/* A factory refusal's condition beyond the backend: `applies` (given the
 * decode side), `because` in words, `blame` the setting that made it. */
struct factory_cond {
    int (*applies)(const ctx *c, const char *decode);
    const char *because;
    int blame;
};
static const struct factory_cond DCP_SPEC = {
    dcp_spec_decode, "; the decode side is trtllm_mla, with --dcp-size above 1 and speculative decoding", SET_DCP};
static const char FA3_MESSAGE[] = "AssertionError: FlashAttention v3 Backend requires SM>=80 and SM<=90. Please use "
                                  "`--attention-backend flashinfer`.";
static const char FA3_CITE[] = "sglang 0.5.3rc2: python/sglang/srt/layers/attention/attention_registry.py:115-125; "
                               "0.5.11: :127-135; 0.5.23: :238-246";
static const struct factory_rule {
    span when;
    const char *backend;
    unsigned runner;    /* enum runner_kind */
    const char *majors; /* space-separated; NULL: refused on every GPU */
    const char *message;
    const char *cite;
    const struct factory_cond *cond;
} FACTORY_RULES[] = {
    /* one assertion: (major == 8 and not MLA) or major == 9 */
    {SINCE("0.5.3rc2"), "fa3", MLA_RUNNER, "9", FA3_MESSAGE, FA3_CITE, NULL},
    {SINCE("0.5.3rc2"), "fa3", MHA_RUNNER, "8 9", FA3_MESSAGE, FA3_CITE, NULL},
    {SINCE("0.5.3rc2"), "trtllm_mha", MLA_RUNNER, NULL,
     "ValueError: trtllm_mha backend can only be used with non-MLA models.",
     "sglang 0.5.3rc2: python/sglang/srt/layers/attention/attention_registry.py:147-150; 0.5.17: :251-254; 0.5.23: "
     ":277-280", NULL},
    {SINCE("0.5.17"), "hpc_ops", MLA_RUNNER, NULL, "ValueError: hpc_ops backend can only be used with non-MLA models.",
     "sglang 0.5.17: python/sglang/srt/layers/attention/attention_registry.py:260-263; 0.5.23: :286-289", NULL},
    {SINCE("0.5.3rc2"), "trtllm_mla", MHA_RUNNER, NULL, "ValueError: trtllm_mla backend can only be used with MLA models.",
     "sglang 0.5.3rc2: python/sglang/srt/layers/attention/attention_registry.py:39-42; 0.5.23: :94-97", NULL},
    {FROM_TO("0.5.12", "0.5.22"), "tokenspeed_mla", MHA_RUNNER, NULL,
     "ValueError: tokenspeed_mla backend can only be used with MLA models.",
     "sglang 0.5.12: python/sglang/srt/layers/attention/attention_registry.py:65-68; 0.5.22: :112-115", NULL},
    {SINCE("0.5.13"), "cutedsl_mla", MHA_RUNNER, NULL,
     "ValueError: cutedsl_mla backend can only be used with MLA models.",
     "sglang 0.5.13: python/sglang/srt/layers/attention/attention_registry.py:77-80; 0.5.23: :118-121", NULL},
    {FROM_TO("0.5.3rc2", "0.5.3"), "fa4", MHA_RUNNER, NULL,
     "AssertionError: FlashAttention v4 Support is at an early stage, only MLA model supported now",
     "sglang 0.5.3rc2: python/sglang/srt/layers/attention/attention_registry.py:130-134; 0.5.3: :130-134", NULL},
    /* a draft runner always runs speculative decoding, which this factory refuses for an MHA model */
    {SINCE("0.5.17"), "hpc_ops", MHA_RUNNER, NULL, "ValueError: hpc_ops backend does not support speculative "
     "decoding for now.",
     "sglang 0.5.17: python/sglang/srt/layers/attention/attention_registry.py:260-271; 0.5.23: :286-297", NULL},
    {FROM_TO("0.5.17", "0.5.22"), "trtllm_mla", MLA_RUNNER, NULL, TRTLLM_MLA_DCP " or tokenspeed_mla.",
     "sglang 0.5.17: python/sglang/srt/layers/attention/attention_registry.py:73-84; 0.5.19: :81-90; 0.5.22: "
     ":98-106", &DCP_SPEC},
    {SINCE("0.5.23"), "trtllm_mla", MLA_RUNNER, NULL, TRTLLM_MLA_DCP ".",
     "sglang 0.5.23: python/sglang/srt/layers/attention/attention_registry.py:98-106", &DCP_SPEC},
};

/* The factory row that refuses `backend` on a runner of kind `runner`
 * whose decode side is `decode`, or NULL. Pure. */
static const struct factory_rule *factory_refusal(const ctx *c, const char *backend, unsigned runner,
                                                  const char *decode)
{
    char major[8];
    str_printf(major, sizeof major, "%u", c->gpu->major);
    for (size_t i = 0; i < COUNT_OF(FACTORY_RULES); i++) {
        const struct factory_rule *r = &FACTORY_RULES[i];
        if (in_span(c->rel, r->when) && r->runner == runner && strcmp(backend, r->backend) == 0 &&
            (!r->majors || !word_in(major, r->majors)) && (!r->cond || r->cond->applies(c, decode)))
            return r;
    }
    return NULL;
}
static const char BUILD_CITE[] = "sglang 0.5.3rc2: python/sglang/srt/model_executor/model_runner.py:1744-1794; "
                                 "0.5.23: python/sglang/srt/model_executor/model_runner_components/"
                                 "attention_backend_setup.py:211-281";

/* The attention backend flag the model runner reads: equal prefill and
 * decode flags (attention_flag from 0.5.4.post1, the model runner before,
 * reading the decode side HiCache sets first in 0.5.4.post1-0.5.7:
 * decode_flag), else --attention-backend; NULL when none is given
 * (SGLang's default, which these checks never refuse). Pure. */
static const setting *runner_attention(const ctx *c)
{
    const setting *p = &c->set->s[SET_PREFILL_ATTENTION_BACKEND], *d = decode_flag(c),
                  *a = &c->set->s[SET_ATTENTION_BACKEND];
    if (p->set && d->set && strcmp(p->value, d->value) == 0) return p;
    return a->set ? a : NULL;
}

/* 1 when the release takes the model as MLA (its model runner's
 * use_mla_backend): a model it serves with an MLA config. Pure. */
static int runs_mla(const ctx *c) { return c->model->kv_lora_rank && !unserved(c->model->architecture, c->rel); }

/* Up to 0.5.4: the MLA list of the model runner's start (MLA_RUNNER_BACKENDS). */
static kvc_status check_runner_attention(const ctx *c)
{
    const setting *a = runner_attention(c);
    for (size_t i = 0; a && runs_mla(c) && i < COUNT_OF(MLA_RUNNER_BACKENDS); i++)
        if (in_span(c->rel, MLA_RUNNER_BACKENDS[i].when) && !word_in(a->value, MLA_RUNNER_BACKENDS[i].backends))
            return rules_refuse(c, a, "ValueError: Invalid attention backend for MLA: %s (when the model runner starts; %s)",
                          a->value, MLA_RUNNER_BACKENDS[i].cite);
    return KVC_OK;
}


/* The attention backend the model runner reads (server_args.attention_backend
 * once settled): the flag it settles on (runner_attention), else SGLang's
 * default: outside the DSA family guard the model's (ATTN_DEFAULTS, in the
 * server args from 0.5.3.post2), else the DSA backend or the platform's
 * (hook_attention_backend; "" where kvcheck does not know it, which no
 * factory refuses). fa3 with --kv-cache-dtype fp8_e5m2 is made triton, in
 * the server args from 0.5.4.post1 and when the model runner starts before
 * (sglang 0.5.4: python/sglang/srt/model_executor/model_runner.py:611-619).
 * Pure. */
static const char *runner_backend(const ctx *c)
{
    const setting *a = runner_attention(c);
    const struct attn_default *dflt = NULL;
    const char *b;
    if (a) b = a->value;
    else if (!c->defaults && attn_backend(c, &dflt) && dflt) b = dflt->backend;
    else b = hook_attention_backend(c);
    if (!b) return "";
    return strcmp(b, "fa3") == 0 && strcmp(c->dtype, "fp8_e5m2") == 0 ? "triton" : b;
}

/* Up to 0.5.13.post1, HiCache (from 0.5.6.post2 decode KV offload too)
 * with the kernel io backend gives an unset decode side a backend that io
 * serves: up to 0.5.4 the model runner does, after its equal-sides
 * override; 0.5.4.post1-0.5.7 the server args do, whatever the attention
 * backend, before the attention checks (which read it: settle_decode);
 * from 0.5.8 where the attention backend is fa3, after them. For an MLA
 * model flashinfer on SM100 (is_sm100_supported), else triton; for a model
 * the release takes for MHA (no model class: SERVED) flashinfer on CUDA,
 * triton on ROCm (is_flashinfer_available; from 0.5.11 also triton for a
 * model with attention sinks, which none of those is). The io
 * backend is kernel unless given otherwise or the layout is
 * page_first_direct. */
static const struct hicache_decode_row {
    span when;
    int offload;       /* decode KV offload counts as HiCache */
    int fa3_only;      /* only where the attention backend is fa3 */
    int before_checks; /* before the server args' attention checks */
    const char *cite;
} HICACHE_DECODE[] = {
    {UNTIL("0.5.4"), 0, 0, 0, "sglang 0.5.3rc2: python/sglang/srt/model_executor/model_runner.py:604-623; 0.5.4: "
                              ":650-669"},
    {FROM_TO("0.5.4.post1", "0.5.6.post1"), 0, 0, 1,
     "sglang 0.5.4.post1: python/sglang/srt/server_args.py:1380-1415; 0.5.5: :592-596; 0.5.6.post1: :1652-1687"},
    {FROM_TO("0.5.6.post2", "0.5.7"), 1, 0, 1, "sglang 0.5.6.post2: python/sglang/srt/server_args.py:1682-1720; 0.5.7: "
                                               ":1922-1960"},
    {FROM_TO("0.5.8", "0.5.13.post1"), 1, 1, 0, "sglang 0.5.8: python/sglang/srt/server_args.py:2050-2100; 0.5.10: "
                                                ":2929-2957; 0.5.13.post1: :3827-3860"},
};

/* The decode side HiCache sets (HICACHE_DECODE) given the attention
 * backend, or NULL, with its row in `row`. Pure. */
static const char *hicache_decode(const ctx *c, const char *attention, const struct hicache_decode_row **row)
{
    const setting *io = &c->set->s[SET_HICACHE_IO];
    if (c->set->s[SET_DECODE_ATTENTION_BACKEND].set || (io->set && strcmp(io->value, "kernel") != 0) ||
        set_to(c, SET_HICACHE_LAYOUT, "page_first_direct"))
        return NULL;
    for (size_t i = 0; i < COUNT_OF(HICACHE_DECODE); i++) {
        const struct hicache_decode_row *r = &HICACHE_DECODE[i];
        if (in_span(c->rel, r->when) &&
            (c->set->s[SET_HICACHE].set || (r->offload && c->set->s[SET_DECODE_OFFLOAD].set)) &&
            (!r->fa3_only || strcmp(attention, "fa3") == 0)) {
            *row = r;
            if (!runs_mla(c)) return c->gpu->hip ? "triton" : "flashinfer"; /* is_flashinfer_available */
            return cuda_major(c, 10) ? "flashinfer" : "triton";
        }
    }
    return NULL;
}

/* The decode side the server args' attention checks read (decode_flag):
 * the flag, or the one HiCache sets before them (HICACHE_DECODE), as if
 * given where the HiCache flag was. */
static void settle_decode(ctx *c)
{
    c->decode = c->set->s[SET_DECODE_ATTENTION_BACKEND];
    const struct hicache_decode_row *row;
    const char *hd = hicache_decode(c, "", &row);
    if (!hd || !row->before_checks) return;
    const setting *by = c->set->s[SET_HICACHE].set ? &c->set->s[SET_HICACHE] : &c->set->s[SET_DECODE_OFFLOAD];
    c->decode.set = 1;
    c->decode.origin = by->origin;
    str_copy(c->decode.value, sizeof c->decode.value, hd);
    str_printf(c->decode.origin.where, sizeof c->decode.origin.where, "which %s sets", by->flag);
}

/* The EAGLE draft worker's attention backends (EAGLE, EAGLE3, NEXTN,
 * STANDALONE), built once its model runner is: a multi-step decode backend
 * (with more than one step) and then a draft-extend backend, each from the
 * backends its factory knows (DraftBackendFactory, the same list for
 * both; DECODE_SKIP says when no decode one is built): the draft's
 * own (--speculative-draft-attention-backend, 0.5.7+), else the side's (the decode side for the decode backend; for the draft
 * extend the prefill side, or the decode side with
 * --speculative-attention-mode decode), else the attention backend. */
static const struct draft_worker_row {
    span when;
    const char *backends; /* space-separated */
    const char *cite;
} DRAFT_WORKER_BACKENDS[] = {
    {UNTIL("0.5.3.post1"), "aiter fa3 flashinfer flashmla hybrid_linear_attn triton trtllm_mha trtllm_mla",
     "sglang 0.5.3rc2: python/sglang/srt/speculative/eagle_worker.py:202-260; 0.5.3.post1: :202-260"},
    {FROM_TO("0.5.3.post2", "0.5.3.post3"), "aiter fa3 flashinfer flashmla hybrid_linear_attn triton trtllm_mha "
     "trtllm_mla", "sglang 0.5.3.post2: python/sglang/srt/speculative/draft_utils.py:22-83; 0.5.3.post3: :22-83"},
    {FROM_TO("0.5.4", "0.5.4.post1"), "aiter fa3 flashinfer flashmla hybrid_linear_attn nsa triton trtllm_mha trtllm_mla",
     "sglang 0.5.4: python/sglang/srt/speculative/draft_utils.py:22-85"},
    {FROM_TO("0.5.4.post2", "0.5.9"), "aiter ascend fa3 flashinfer flashmla hybrid_linear_attn nsa triton trtllm_mha "
     "trtllm_mla", "sglang 0.5.4.post2: python/sglang/srt/speculative/draft_utils.py:22-87; 0.5.9: :23-92"},
    {FROM_TO("0.5.10", "0.5.11"), "aiter ascend fa3 fa4 flashinfer flashmla hybrid_linear_attn nsa triton trtllm_mha "
     "trtllm_mla", "sglang 0.5.10: python/sglang/srt/speculative/draft_utils.py:23-94"},
    {FROM_TO("0.5.12", "0.5.12.post1"), "aiter ascend dsv4 fa3 fa4 flashinfer flashmla hybrid_linear_attn nsa "
     "tokenspeed_mla triton trtllm_mha trtllm_mla", "sglang 0.5.12: python/sglang/srt/speculative/draft_utils.py:23-98"},
    {FROM_TO("0.5.13", "0.5.15.post1"), "aiter ascend cutedsl_mla dsa dsv4 fa3 fa4 flashinfer flashmla "
     "hybrid_linear_attn nsa tokenspeed_mla triton trtllm_mha trtllm_mla",
     "sglang 0.5.13: python/sglang/srt/speculative/draft_utils.py:23-103; 0.5.15.post1: :25-106"},
    {FROM_TO("0.5.16", "0.5.19"), "aiter ascend cutedsl_mla dsa dsv4 fa3 fa4 flashinfer flashmla hybrid_linear_attn "
     "intel_amx nsa tokenspeed_mla triton trtllm_mha trtllm_mla",
     "sglang 0.5.16: python/sglang/srt/speculative/draft_utils.py:28-103; 0.5.19: :42-157"},
    {FROM_TO("0.5.20", "0.5.22"), "aiter ascend cutedsl_mla dsa dsv4 fa3 fa4 flashinfer flashmla hybrid_linear_attn "
     "intel_amx intel_xpu nsa tokenspeed_mla triton trtllm_mha trtllm_mla",
     "sglang 0.5.20: python/sglang/srt/speculative/draft_utils.py:47-170"},
    {SINCE("0.5.23"), "aiter ascend cutedsl_mla dsa dsv4 fa3 fa4 flashinfer flashmla hybrid_linear_attn intel_amx "
     "intel_xpu nsa triton trtllm_mha trtllm_mla", "sglang 0.5.23: python/sglang/srt/speculative/draft_utils.py:47-168"},
};

/* The step counts for which the draft worker builds no multi-step decode
 * backend (its factory's early return): none up to 0.5.3.post1, one step
 * to 0.5.13.post1, at most one from 0.5.14. */
static const struct decode_skip_row {
    span when;
    long below, upto; /* skipped: below < steps <= upto */
    const char *cite;
} DECODE_SKIP[] = {
    {UNTIL("0.5.3.post1"), 0, 0, "sglang 0.5.3rc2: python/sglang/srt/speculative/eagle_worker.py:195, 214-234"},
    {FROM_TO("0.5.3.post2", "0.5.13.post1"), 0, 1,
     "sglang 0.5.3.post2: python/sglang/srt/speculative/draft_utils.py:35; 0.5.13.post1: :40"},
    {SINCE("0.5.14"), LONG_MIN, 1, "sglang 0.5.14: python/sglang/srt/speculative/draft_utils.py:41; 0.5.23: :86"},
};

/* 1 when the draft worker builds no decode backend for `steps`
 * (DECODE_SKIP). Pure. */
static int decode_skipped(unsigned rel, long steps)
{
    for (size_t i = 0; i < COUNT_OF(DECODE_SKIP); i++)
        if (in_span(rel, DECODE_SKIP[i].when)) return DECODE_SKIP[i].below < steps && steps <= DECODE_SKIP[i].upto;
    return 0;
}

/* The attention backends a model runner builds, in its order. */
struct built {
    unsigned n;
    const char *backend[2];
    int side[2];            /* the side each is, -1 for the attention backend itself */
    const char *prefill;    /* the sides, which factories read (get_attention_backends) */
    const char *decode;
    struct kv4_sides sides; /* how the sides were chosen */
};

/* The decode and the prefill backend where the sides differ (each side's
 * flag, or the side SGLang's NVFP4 rows or HiCache set: kv4_sides,
 * hicache_decode; else the attention backend, runner_backend), else the
 * one: up to 0.5.17 the attention backend, from 0.5.18 the prefill side
 * (sglang 0.5.17: python/sglang/srt/model_executor/model_runner_components/
 * attention_backend_setup.py:218-223; 0.5.18: :229-234). */
static void built_backends(const ctx *c, struct built *out)
{
    const setting *flags[2] = {&c->set->s[SET_PREFILL_ATTENTION_BACKEND], decode_flag(c)};
    const char *attention = runner_backend(c), *s[2];
    kv4_sides(c, &out->sides);
    for (int k = PREFILL; k <= DECODE; k++)
        s[k] = out->sides.nvfp4 ? out->sides.side[k] : flags[k]->set ? flags[k]->value : attention;
    const struct hicache_decode_row *row;
    const char *hd = hicache_decode(c, attention, &row);
    if (hd) {
        s[DECODE] = hd;
        str_printf(out->sides.why, sizeof out->sides.why, "prefill %s and decode %s, which HiCache's kernel io "
                   "backend sets for an unset decode side on %s (%s)", s[PREFILL], hd, c->gpu->name, row->cite);
    }
    out->prefill = s[PREFILL];
    out->decode = s[DECODE];
    if (strcmp(s[PREFILL], s[DECODE]) != 0) {
        out->n = 2;
        out->backend[0] = s[DECODE], out->side[0] = DECODE;
        out->backend[1] = s[PREFILL], out->side[1] = PREFILL;
        return;
    }
    int whole = rel_until(c->rel, "0.5.17") && !out->sides.nvfp4;
    out->n = 1;
    out->backend[0] = whole ? attention : s[PREFILL];
    out->side[0] = whole ? -1 : PREFILL;
}

/* 1 when the release's parser offers `backend` for --attention-backend:
 * its registry's names (ATTENTION_BACKENDS), which the draft's own flag,
 * taking any string, is not checked against until its runner builds it
 * (sglang 0.5.7: python/sglang/srt/model_executor/model_runner.py
 * _get_attention_backend_from_str). Pure. */
static int offered_backend(unsigned rel, const char *backend)
{
    const sglang_parser_def *p = &SGLANG_PARSERS[rel];
    for (unsigned i = 0; i < p->n; i++) {
        const sglang_flag_row *row = &SGLANG_FLAG_ROWS[p->order[i]];
        if (strcmp(row->option, "--attention-backend") != 0) continue;
        const char *const *ch = SGLANG_CHOICES[SGLANG_FLAG_DEFS[row->def].choices];
        for (size_t k = 0; ch && ch[k]; k++)
            if (strcmp(ch[k], backend) == 0) return 1;
        return 0;
    }
    return 1; /* no such flag: nothing to compare with */
}

/* The flag that chose built backend `side` (-1: the attention backend,
 * which equal side flags settle). Pure. */
static const setting *built_flag(const ctx *c, int side)
{
    const setting *a = runner_attention(c);
    return side < 0 && a ? a : flag_of(c, side, NULL);
}

/* The DSA attention backend's constructor asserts that its model runner's
 * model is DSA (is_deepseek_nsa / is_deepseek_dsa on the runner's config:
 * ARCHS' dsa spans; an MTP draft's config renamed, DRAFT_ARCHS). The
 * registry names it nsa, from 0.5.13 dsa too (nsa an alias). */
static const struct dsa_assert_row {
    span when;
    const char *message;
    const char *cite;
} DSA_ASSERT[] = {
    {UNTIL("0.5.12.post1"), "AssertionError: NSA backend only supports DeepSeek NSA",
     "sglang 0.5.3rc2: python/sglang/srt/layers/attention/nsa_backend.py:161-162; 0.5.12: :317-318"},
    {SINCE("0.5.13"), "AssertionError: DSA backend only supports DeepSeek DSA",
     "sglang 0.5.13: python/sglang/srt/layers/attention/dsa_backend.py:306-307, attention_registry.py:109-124; "
     "0.5.23: dsa_backend.py:527-528"},
};

/* The DSA_ASSERT row refusing `backend` for a runner whose model is not
 * DSA (`model_dsa` 0), or NULL. Pure. */
static const struct dsa_assert_row *dsa_refusal(unsigned rel, const char *backend, int model_dsa)
{
    if (model_dsa || !word_in(backend, "nsa dsa")) return NULL;
    for (size_t i = 0; i < COUNT_OF(DSA_ASSERT); i++)
        if (in_span(rel, DSA_ASSERT[i].when)) return &DSA_ASSERT[i];
    return NULL;
}

/* The backends the target's model runner builds (built_backends) through
 * their factories (FACTORY_RULES), the DSA backend's assertion after. */
static kvc_status check_attention_build(const ctx *c)
{
    struct built b = {0};
    if (runs_mla(c)) built_backends(c, &b);
    for (unsigned k = 0; k < b.n; k++) {
        const struct factory_rule *r = factory_refusal(c, b.backend[k], MLA_RUNNER, b.decode);
        int side = b.side[k];
        if (r)
            return rules_refuse(c, r->cond ? &c->set->s[r->cond->blame] : built_flag(c, side),
                          "%s (when the model runner builds the %s%sattention backend %s for %s, an MLA model, "
                          "on %s%s: %s; %s; %s)", r->message, side < 0 ? "" : SIDE[side], side < 0 ? "" : " side's ",
                          b.backend[k], c->model->architecture, c->gpu->name, r->cond ? r->cond->because : "",
                          b.sides.why, r->cite, BUILD_CITE);
        const struct dsa_assert_row *a = dsa_refusal(c->rel, b.backend[k], c->dsa);
        if (a)
            return rules_refuse(c, built_flag(c, side), "%s (when the model runner builds the %s%sattention backend %s "
                          "for %s, which SGLang %s does not take as a DSA model: %s; %s)", a->message,
                          side < 0 ? "" : SIDE[side], side < 0 ? "" : " side's ", b.backend[k],
                          c->model->architecture, SGLANG_VERSIONS[c->rel], b.sides.why, a->cite);
    }
    return KVC_OK;
}

/* ----------------------------------------------------- fix suggestions */

/* The DSA backends: the releases whose parser offers them (ERAS.md §3.1)
 * and the GPUs they are known to run on, for warnings and fix suggestions.
 * A fix is resolved under the worker's release like any flag, so a
 * suggestion SGLang would refuse is never printed. */
enum { SM90 = 1u, SM100 = 2u, SM120 = 4u, HIP = 8u };
static const struct backend_row {
    const char *name;
    span offered;
    unsigned suits;  /* the GPUs its kernels run on */
    int suggest;     /* kvcheck may offer it in a fix */
} BACKENDS[] = {
    {"flashmla_prefill", UNTIL("0.5.3.post3"), SM90 | SM100, 1},
    {"flashmla_decode", UNTIL("0.5.3.post3"), SM90 | SM100, 1},
    {"flashmla_sparse", SINCE("0.5.4"), SM90 | SM100, 1},
    {"flashmla_kv", SINCE("0.5.4"), SM90 | SM100, 1},
    {"flashmla_auto", SINCE("0.5.4.post2"), SM90 | SM100, 1},
    {"fa3", EVER, SM90, 1},
    {"tilelang", EVER, HIP, 1},
    {"aiter", EVER, HIP, 1},
    {"trtllm", SINCE("0.5.9"), SM100, 1},
    {"flashinfer_sparse_mla", SINCE("0.5.17"), SM120, 1},
    {"triton", SINCE("0.5.20"), HIP, 1},
    /* prefill-only, with model-init checks (query heads per rank) kvcheck does not replay in full */
    {"flashmla_sparse_q8", SINCE("0.5.16"), SM90, 0},
    {"triton_sparse_mla", SINCE("0.5.22"), SM90 | SM100 | SM120, 0},
    {"intel_xpu", SINCE("0.5.22"), 0, 0}, /* Intel GPUs, which kvcheck does not model */
};

unsigned rules_backend_count(void) { return COUNT_OF(BACKENDS); }
const char *rules_backend_name(unsigned i) { return BACKENDS[i].name; }

static unsigned platform_of(const gpu_info *gpu)
{
    return gpu->hip ? HIP : gpu->major >= 12 ? SM120 : gpu->major >= 10 ? SM100 : SM90;
}

int rules_backend_suggestable(unsigned i, const gpu_info *gpu, unsigned rel)
{
    return BACKENDS[i].suggest && in_span(rel, BACKENDS[i].offered) && (BACKENDS[i].suits & platform_of(gpu)) != 0;
}

/* SGLang starts some backends on GPUs their kernels do not support: said,
 * not refused (ERAS.md §7.8). */
static void warn_platform(const ctx *c)
{
    if (!c->gpu->hip && c->gpu->major < 9)
        notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
                  "%s (compute capability %u.%u) is older than Hopper: SGLang's MLA backends may not run on it",
                  c->gpu->name, c->gpu->major, c->gpu->minor);
    for (int side = 0; c->dsa && side < 2; side++)
        for (size_t i = 0; i < COUNT_OF(BACKENDS); i++)
            if (strcmp(BACKENDS[i].name, c->backend[side]) == 0 && !(BACKENDS[i].suits & platform_of(c->gpu)))
                notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
                          "%s is not known to run on %s (compute capability %u.%u): SGLang %s does not refuse it "
                          "at start-up; check that the worker starts",
                          c->backend[side], c->gpu->name, c->gpu->major, c->gpu->minor, SGLANG_VERSIONS[c->rel]);
}

/* --------------------------------------------------- hybrid linear layers */

/* The dtypes SGLang's linear-attention state takes by name (mamba2_state_dtype's dtype_map). */
static const struct state_dtype {
    const char *name;
    unsigned itemsize;
} STATE_DTYPES[] = {{"float32", 4}, {"bfloat16", 2}, {"float16", 2}};

static const struct state_dtype *state_dtype(const char *name)
{
    for (size_t i = 0; i < COUNT_OF(STATE_DTYPES); i++)
        if (strcmp(STATE_DTYPES[i].name, name) == 0) return &STATE_DTYPES[i];
    return NULL;
}

static const char STATE_DTYPE_CITE[] = "sglang 0.5.20-0.5.23: python/sglang/srt/configs/mamba_utils.py:47-107, :112";

/* One state dtype: the flag (SGLang copies --mamba-ssm-dtype into the
 * environment variable, sglang 0.5.20: python/sglang/srt/arg_groups/
 * serving_hook.py:397; sglang 0.5.23: :439-440), else the launch's
 * environment assignment, else SGLang's default. An environment value
 * outside STATE_DTYPES falls back to the default. */
static const struct state_dtype *resolve_state_dtype(const ctx *c, const char *name, const setting *flag,
                                                     const setting *env, const char *env_name, const char *dflt)
{
    kvc_setting *v = rules_get(c->out, name);
    char from[900];
    const setting *s = flag && flag->set ? flag : env->set ? env : NULL;
    if (s) rules_from_text(s, from, sizeof from);
    const struct state_dtype *t = s ? state_dtype(s->value) : NULL;
    if (t) {
        setting_set(v, t->name, "set by %s (%s)", from, STATE_DTYPE_CITE);
        setting_origin(v, &s->origin);
    } else if (s) {
        t = state_dtype(dflt);
        setting_set(v, t->name, "%s '%s' is none of float32, bfloat16, float16: SGLang uses %s (%s)", from, s->value,
                    t->name, STATE_DTYPE_CITE);
        setting_origin(v, &s->origin);
    } else {
        t = state_dtype(dflt);
        setting_set(v, t->name, "SGLang's default: %s not set%s (%s)", env_name,
                    flag ? " and no --mamba-ssm-dtype; the model's mamba_ssm_dtype is not read for this model" : "",
                    STATE_DTYPE_CITE);
    }
    return t;
}

/* The attention-DP size: --dp with DP attention on, which DSA forces up to
 * 0.5.7 with dp = tp up to 0.5.5.post3 (sglang 0.5.3: python/sglang/srt/
 * server_args.py:815-818; 0.5.6: :949-951), or --attn-dp-size (0.5.22+);
 * SGLang turns DP attention off again at a size of 1. */
int rules_dp_attention_forced(const ctx *c)
{
    return c->defaults && rel_until(c->rel, "0.5.7") && !c->set->s[SET_ATTN_DP_SIZE].set;
}
const char *rules_attention_dp_text(const ctx *c)
{
    const char *adp, *dp;
    settings_attn_dp_text(c->set, &adp, &dp);
    if (!rules_dp_attention_forced(c)) return adp;
    /* forced on whatever --enable-dp-attention says, over --dp-size (up to 0.5.5.post3: dp_size = tp_size) */
    return settings_size_text(c->set, rel_until(c->rel, "0.5.5.post3") ? SET_TP : SET_DP);
}
unsigned long rules_attention_dp(const ctx *c) { return strtoul(rules_attention_dp_text(c), NULL, 10); }


/* --attn-dp-size 0 as given (0.5.22+), which the DeepSeek family's adjustments divide by before the data parallelism
 * handler checks it: a DSA model's attention TP size outside prefill CP (sglang 0.5.22: python/sglang/srt/arg_groups/
 * model_hook.py:319; 0.5.23: :325, python/sglang/srt/runtime_context.py:76), or prefill CP's attention CP size (0.5.22:
 * python/sglang/srt/arg_groups/model_overrides/deepseek_v2.py:129-133, :210; 0.5.23: :129-133, :209), except DSA CP
 * under interleave with --attn-cp-size above 1, which keeps the size given. */
static kvc_status check_attn_dp_zero(const ctx *c)
{
    const setting *a = &c->raw->s[SET_ATTN_DP_SIZE];
    if (!rel_since(c->rel, "0.5.22") || !a->set || strtol(a->value, NULL, 10) != 0 || !(c->dsa || c->cp.enabled) ||
        !rules_arch_defaults(c->model->architecture, c->rel))
        return KVC_OK;
    int kept = c->cp.enabled && c->cp.kind == CP_DSA && c->cp.strategy && strcmp(c->cp.strategy, "interleave") == 0 &&
               settings_size(c->raw, SET_ATTN_CP) > 1;
    if (kept) return KVC_OK;
    return rules_refuse(c, a, "ZeroDivisionError: integer division or modulo by zero (the DeepSeek family's "
                        "adjustments divide by --attn-dp-size before SGLang checks it: %s)", c->cp.enabled ?
                        "prefill CP's attention CP size tp_size // attn_dp_size, sglang 0.5.22: python/sglang/srt/"
                        "arg_groups/model_overrides/deepseek_v2.py:129-133, :210; 0.5.23: :129-133, :209" :
                        "the attention TP size tp_size // attn_dp_size // attn_cp_size, sglang 0.5.22: python/sglang/"
                        "srt/arg_groups/model_hook.py:319; 0.5.23: :325, python/sglang/srt/runtime_context.py:76");
}

/* The data parallelism handler with attention DP on (CP turns it on too): a bare `assert tp_size % dp_size == 0`
 * (attn_dp_size from 0.5.22), before the context parallelism handler (sglang 0.5.3rc2: python/sglang/srt/
 * server_args.py:956; 0.5.14: :5052; 0.5.19: python/sglang/srt/arg_groups/parallel_hook.py:197; 0.5.23: :326). */
static kvc_status check_attention_dp(const ctx *c)
{
    const setting *a = &c->raw->s[SET_ATTN_DP_SIZE]; /* as given: prefill CP rewrites it */
    long given = a->set ? strtol(a->value, NULL, 10) : 1;
    if (rel_since(c->rel, "0.5.22") && given < 1) /* the data parallelism handler's first check */
        return rules_refuse(c, a, "ValueError: --attn-dp-size must be positive (got %ld). (sglang 0.5.22: "
                            "python/sglang/srt/arg_groups/parallel_hook.py:280; 0.5.23: :286)", given);
    unsigned long given_adp, dp;
    settings_attn_dp(c->set, &given_adp, &dp);
    /* 0.5.22+ refuses data-parallel replicas beside attention DP first (sglang 0.5.22: python/sglang/srt/arg_groups/
     * parallel_hook.py:281-286; 0.5.23: :287-292) */
    if (rel_since(c->rel, "0.5.22") && given_adp > 1 && dp > 1)
        return rules_refuse(c, &c->set->s[SET_DP], "ValueError: --dp-size %lu with --attn-dp-size %lu: data-parallel "
                            "replicas combined with attention data parallelism are not supported. (sglang 0.5.22: "
                            "python/sglang/srt/arg_groups/parallel_hook.py:281-286; 0.5.23: :287-292)", dp, given_adp);
    /* with attention DP on, tp % adp: Python's ints of any size and sign, which strtoul reads up to 19 digits */
    const setting *s = settings_attn_dp_flag(c->set);
    const char *tp_text = settings_size_text(c->set, SET_TP), *adp_text = rules_attention_dp_text(c);
    unsigned long tp = strtoul(tp_text, NULL, 10), adp = strtoul(adp_text, NULL, 10);
    if (adp > 1 && (strlen(tp_text) > 19 || tp_text[0] == '-' || strlen(adp_text) > 19 || adp_text[0] == '-'))
        return diag_set(c->diag, KVC_ERR_CONFIG, s->set ? &s->origin : NULL, "--tp-size %s with an attention data "
                        "parallel size of %s: SGLang's data parallelism handler takes the one modulo the other (sglang "
                        "0.5.23: python/sglang/srt/arg_groups/parallel_hook.py:326), which kvcheck does not model for "
                        "sizes past 19 digits or below 0, so it cannot judge this worker", tp_text, adp_text);
    if (adp > 1 && tp % adp != 0)
        return rules_refuse(c, s->set ? s : NULL, "AssertionError: (a bare assert in the data parallelism handler: "
                            "--tp-size %lu is not a multiple of the attention data parallel size %lu; sglang 0.5.3rc2: "
                            "python/sglang/srt/server_args.py:956; 0.5.14: :5052; 0.5.19: python/sglang/srt/arg_groups/"
                            "parallel_hook.py:197; 0.5.23: :326)", tp, adp);
    return lm_head_check(c); /* the handler's last checks */
}

/* The chunked prefill size's check (chunk.c), with the page size settled; an architecture without a model class
 * runs SGLang's MHA defaults, whose page kvcheck does not derive. */
static kvc_status check_chunked_prefill(const ctx *c)
{
    const kvc_setting *page = rules_get(c->out, "page_size");
    /* ROCm's DSA page from 0.5.12 is 64 with aiter's preshuffle paged-MQA path, else 1 (resolve_page_size warns) */
    int page_one_too = page && c->gpu->hip && page->number != 1 && rel_since(c->rel, "0.5.12") &&
                       !strncmp(page->reason, "forced for DSA", 14);
    return chunk_check(c, rules_get(c->out, "chunked_prefill_size"), page ? (unsigned long)page->number : 1,
                       page && !unserved(c->model->architecture, c->rel), page_one_too);
}

/* check_server_args, once the resolution has run: its checks around the page size's, HiSparse's validation (at
 * the slot after the page size's check in every release: sglang 0.5.10: python/sglang/srt/server_args.py:6180-6202;
 * 0.5.19: python/sglang/srt/arg_groups/validation_hook.py:171; 0.5.23: :312), LoRA's, two-batch overlap's and the
 * gRPC port's, in SGLang's order, for every model; a DeepSeek-V4 worker's HiSparse kvcheck does not model. */
static kvc_status check_server_args(const ctx *c)
{
    kvc_status st;
    if (rel_since(c->rel, "0.5.21") && size_of(c, SET_PP) > 1 && c->set->s[SET_SPEC_ALGO].set)
        rules_env_warn(c, SET_PP_SPEC_ENV); /* check_pipeline_parallel_compat reads it */
    if ((st = server_check(c, SERVER_BEFORE_PAGE))) return st;
    if ((st = lora_check(c))) return st;
    if ((st = check_chunked_prefill(c))) return st; /* with the page size settled */
    if ((st = server_check(c, SERVER_AFTER_PAGE))) return st;
    const setting *h = &c->set->s[SET_HISPARSE];
    const struct hisparse_rule *r = hisparse_rule(c->rel);
    if (h->set && r && rules_dsv4(c->model->architecture, c->rel)) { /* the radix check, then what kvcheck declines */
        if ((st = hisparse_radix(c, r))) return st;
        return diag_set(c->diag, KVC_ERR_CONFIG, &h->origin, "%s: HiSparse for DeepSeek-V4 (its validation and "
                        "host pools, sglang 0.5.23: python/sglang/srt/arg_groups/hisparse_hook.py:87-160); kvcheck "
                        "does not model it, so it cannot judge this worker", h->flag);
    }
    if ((st = check_hisparse(c))) return st;
    if ((st = server_check(c, SERVER_AFTER_HISPARSE))) return st;
    if ((st = a2a_check(c, A2A_SERVER_ARGS))) return st; /* its two-batch overlap checks */
    if ((st = server_check(c, SERVER_AFTER_TBO))) return st;
    if ((st = grpc_check(c, GRPC_SERVER))) return st; /* the gRPC port is not the HTTP port */
    if ((st = server_check(c, SERVER_AFTER_GRPC))) return st;
    if ((st = watermark_check(c, WATERMARK_SERVER))) return st;
    return publish_check(c);
}

/* The attention-TP size a pool splits KV heads over: tp / the attention-DP
 * size, then / --attn-cp-size from 0.5.9 (sglang 0.5.9:
 * python/sglang/srt/layers/dp_attention.py:230-244; 0.5.23:
 * python/sglang/srt/runtime_context.py:73-76). 1 for sizes SGLang refuses
 * itself. */
static unsigned long attention_tp(const ctx *c, int with_cp)
{
    unsigned long tp = size_of(c, SET_TP);
    unsigned long dp = rules_attention_dp(c);
    if (dp > 1 && tp % dp == 0) tp /= dp;
    unsigned long cp = size_of(c, SET_ATTN_CP);
    if (with_cp && rel_since(c->rel, "0.5.9") && cp > 1 && tp % cp == 0) tp /= cp;
    return tp == 0 || tp > 65536 ? 1 : tp;
}

/* The linear layers' split and per-request state (KimiLinearStateShape.create,
 * sglang 0.5.23: python/sglang/srt/configs/mamba_utils.py:323-370): conv
 * (K - 1) x 3·H·D/tp, temporal H/tp x D x D, over the attention-TP ranks
 * (get_parallel().attn_tp_size in 0.5.20-0.5.22, linear_attn_tp_size() in
 * 0.5.23). */
static kvc_status resolve_hybrid(ctx *c)
{
    kvc_resolved *out = c->out;
    const model_info *m = c->model;
    const struct hybrid_row *h = c->hybrid;
    uint32_t linear = m->linear_split ? m->linear_layers : m->num_hidden_layers - m->num_hidden_layers / 4;
    static const char *const SOURCE[] = {
        ("every layer i with i % 4 != 3 (the config has neither linear_attn_config nor layer_types)"),
        "linear_attn_config's kda_layers",
        "layer_types' \"linear_attention\" entries",
    };
    out->attn_layers = m->num_hidden_layers - linear;
    out->state_layers = linear;
    char value[KVC_NAME_LEN];
    str_printf(value, sizeof value, "%u DSA, %u KDA", out->attn_layers, linear);
    setting_set(rules_get(out, "layer_split"), value, "KDA linear layers (per-request state, no KV): %s; the other %u "
                "are DSA layers (%s)", SOURCE[m->linear_split], out->attn_layers, h->cite);
    const settings *set = c->set;
    const struct state_dtype *ssm = resolve_state_dtype(c, "mamba_ssm_dtype", &set->s[SET_MAMBA_SSM],
                                                        &set->s[SET_MAMBA_SSM_ENV], "SGLANG_MAMBA_SSM_DTYPE", "float32");
    const struct state_dtype *conv = resolve_state_dtype(c, "mamba_conv_dtype", NULL, &set->s[SET_MAMBA_CONV_ENV],
                                                         "SGLANG_MAMBA_CONV_DTYPE", "bfloat16");
    char unread[80] = "";
    if (!set->s[SET_MAMBA_SSM].set && !set->s[SET_MAMBA_SSM_ENV].set)
        str_join_add(unread, sizeof unread, " and ", "SGLANG_MAMBA_SSM_DTYPE");
    if (!set->s[SET_MAMBA_CONV_ENV].set) str_join_add(unread, sizeof unread, " and ", "SGLANG_MAMBA_CONV_DTYPE");
    if (unread[0])
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                  "the linear layers' state dtypes also follow %s in the server's environment, which kvcheck reads "
                  "only from the launch command's assignments: it takes SGLang's default here; make sure both "
                  "workers' environments agree",
                  unread);
    unsigned long tp = attention_tp(c, 0);
    uint64_t H = m->linear_heads ? m->linear_heads : h->heads, D = m->linear_head_dim ? m->linear_head_dim : h->head_dim;
    uint64_t K = m->linear_conv_kernel ? m->linear_conv_kernel : h->conv_kernel;
    /* divide() asserts, first for the conv projection, then for the heads
     * (sglang 0.5.23: python/sglang/srt/distributed/utils.py:68-79) */
    uint64_t bad = (H * D) % tp ? H * D : H % tp ? H : 0;
    if (linear && bad)
        return rules_refuse(c, set->s[SET_TP].set ? &set->s[SET_TP] : NULL,
                      "AssertionError: %llu is not divisible by %lu (at model init: the linear layers' state splits "
                      "%llu heads of %llu over attention TP %lu; sglang 0.5.23: "
                      "python/sglang/srt/configs/mamba_utils.py:344-349)",
                      (unsigned long long)bad, tp, (unsigned long long)H, (unsigned long long)D, tp);
    out->state_tp = (uint32_t)tp;
    out->nstate = linear ? 2 : 0;
    const struct state_dtype *dt[2] = {conv, ssm};
    const char *const NAME[2] = {"conv", "temporal"};
    uint64_t dims[2][3] = {{K - 1, 3 * H * D / tp, 1}, {H / tp, D, D}};
    char text[2][160];
    for (unsigned i = 0; i < 2; i++) {
        struct engine_state *st = &out->state[i];
        str_copy(st->name, sizeof st->name, NAME[i]);
        str_copy(st->dtype, sizeof st->dtype, dt[i]->name);
        if (i == 0) str_printf(st->shape, sizeof st->shape, "%llux%llu", (unsigned long long)dims[i][0],
                               (unsigned long long)dims[i][1]);
        else str_printf(st->shape, sizeof st->shape, "%llux%llux%llu", (unsigned long long)dims[i][0],
                        (unsigned long long)dims[i][1], (unsigned long long)dims[i][2]);
        st->item_len = dims[i][0] * dims[i][1] * dims[i][2] * dt[i]->itemsize;
        str_printf(text[i], sizeof text[i], "%s %s %s = %llu B", st->name, st->shape, st->dtype,
                   (unsigned long long)st->item_len);
    }
    char value2[KVC_NAME_LEN];
    str_printf(value2, sizeof value2, "%llu + %llu B", (unsigned long long)out->state[0].item_len,
               (unsigned long long)out->state[1].item_len);
    setting_set(rules_get(out, "linear_state"), linear ? value2 : "",
                "per request and linear layer: %s, %s (%llu heads of %llu split over attention TP %lu, conv kernel "
                "%llu; sglang 0.5.23: python/sglang/srt/configs/mamba_utils.py:323-370); it travels to decode as "
                "its own state entries",
                text[0], text[1], (unsigned long long)H, (unsigned long long)D, tp, (unsigned long long)K);
    return KVC_OK;
}

/* ------------------------------------------------- separate draft model */

/* The dtypes a draft pool can hold: each name's dtype as one name, and its bytes. */
static const struct elem_dtype {
    const char *name, *same;
    unsigned bytes;
} ELEM_DTYPES[] = {{"fp8_e4m3", "fp8_e4m3", 1}, {"fp8_e5m2", "fp8_e5m2", 1}, {"bfloat16", "bfloat16", 2},
                   {"bf16", "bfloat16", 2},     {"float16", "float16", 2},   {"half", "float16", 2},
                   {"float32", "float32", 4},   {"float", "float32", 4}};

static const struct elem_dtype *elem_dtype(const char *name)
{
    for (size_t i = 0; i < COUNT_OF(ELEM_DTYPES); i++)
        if (strcmp(ELEM_DTYPES[i].name, name) == 0) return &ELEM_DTYPES[i];
    return NULL;
}

/* The draft pool's KV dtype as the draft runner resolves it, into `name`
 * and `why`; NULL when it is the draft's own and kvcheck cannot read it
 * (`why` says so). The draft runner resolves the server's --kv-cache-dtype
 * string as the target left it (after the DSA overrides), or from 0.5.18
 * --speculative-draft-kv-cache-dtype when given (sglang 0.5.18:
 * python/sglang/srt/mem_cache/kv_cache_dtype.py:33-36; 0.5.23: :45-48).
 * "auto" is the draft's own: FP8 when its quantization config says so,
 * else the draft model's dtype (model_dtype). */
static const char *draft_model_dtype(const ctx *c, const model_info *m, char *why, size_t size)
{
    const setting *flag = &c->set->s[SET_SPEC_DRAFT_KV_DTYPE];
    const char *dtype = c->dtype;
    if (flag->set && rel_since(c->rel, "0.5.18")) {
        dtype = flag->value;
        str_printf(why, size, "%s %s", flag->flag, dtype);
    } else {
        str_printf(why, size, "--kv-cache-dtype %s as the server resolved it", dtype);
    }
    if (strcmp(dtype, "auto") != 0) {
        const struct dtype_alias *a = dtype_alias(c, dtype);
        if (!a) return elem_dtype(dtype) ? dtype : NULL;
        str_printf(why + strlen(why), size - strlen(why), ", stored as %s on %s (%s)", a->stored, c->gpu->name, a->cite);
        return elem_dtype(a->stored) ? a->stored : NULL;
    }
    if (m->has_quantization) {
        str_printf(why + strlen(why), size - strlen(why), ": the draft's own, which follows its "
                   "quantization_config (FP8 when its kv_cache_quant_algo is FP8), not read by kvcheck");
        return NULL;
    }
    char how[KVC_REASON_LEN];
    const char *model = model_dtype(c->rel, c->model->architecture, &c->set->s[SET_MODEL_DTYPE], m, how, sizeof how);
    str_printf(why + strlen(why), size - strlen(why), ": the draft model's dtype, %s (%s)", model ? model : "unknown",
               how);
    return model;
}

/* A draft model runner's attention backends: its own
 * (--speculative-draft-attention-backend, 0.5.7+), else the process's
 * (built_backends), through the registry, their factories' checks and the
 * DSA backend's assertion, for a draft `arch` of kind `runner`, DSA or not
 * (`dsa`) (sglang 0.5.7: python/sglang/srt/model_executor/model_runner.py:
 * 1591-1601). */
static kvc_status check_draft_runner(const ctx *c, const char *algo, const char *arch, unsigned runner, int dsa)
{
    const setting *dab = &c->set->s[SET_SPEC_DRAFT_ATTN];
    struct built run = {0};
    built_backends(c, &run);
    if (dab->set) run.n = 1, run.backend[0] = dab->value, run.side[0] = -1;
    if (dab->set && !offered_backend(c->rel, dab->value))
        return rules_refuse(c, dab, "ValueError: Invalid attention backend: %s (at draft model init: SGLang %s has no such "
                      "attention backend)", dab->value, SGLANG_VERSIONS[c->rel]);
    for (unsigned k = 0; k < run.n; k++) {
        const setting *by = dab->set ? dab : built_flag(c, run.side[k]);
        if (!by->set) /* SGLang's default: the flags that bring the draft in */
            by = c->set->s[SET_SPEC_DRAFT_MODEL].set ? &c->set->s[SET_SPEC_DRAFT_MODEL] : &c->set->s[SET_SPEC_ALGO];
        const char *whose = dab->set ? "its" : "the target's";
        const struct factory_rule *f = factory_refusal(c, run.backend[k], runner, run.decode);
        if (f)
            return rules_refuse(c, by, "%s (at draft model init: the %s draft %s, an %s model, runs %s attention backend %s "
                          "on %s; %s)", f->message, algo, arch, runner == MLA_RUNNER ? "MLA" : "MHA", whose,
                          run.backend[k], c->gpu->name, f->cite);
        const struct dsa_assert_row *a = dsa_refusal(c->rel, run.backend[k], dsa);
        if (a)
            return rules_refuse(c, by, "%s (at draft model init: the %s draft %s, which SGLang %s does not take as a DSA "
                          "model, runs %s attention backend %s; %s)%s", a->message, algo, arch,
                          SGLANG_VERSIONS[c->rel], whose, run.backend[k], a->cite,
                          !dab->set && rel_since(c->rel, "0.5.7")
                              ? "; give the draft its own with --speculative-draft-attention-backend"
                              : "");
    }
    return KVC_OK;
}

/* A separate draft model's pool kvcheck does not derive (`why`). A PD
 * worker sends it after the target's (sglang 0.5.23:
 * python/sglang/srt/disaggregation/prefill.py:301-325), so a pair could not
 * be judged without it: declined. A unified worker keeps it: warned. */
static kvc_status draft_underived(const ctx *c, const char *algo, const char *why)
{
    const setting *mode = &c->set->s[SET_DISAGG_MODE], *path = &c->set->s[SET_SPEC_DRAFT_MODEL];
    if (mode->set && (strcmp(mode->value, "prefill") == 0 || strcmp(mode->value, "decode") == 0))
        return diag_set(c->diag, KVC_ERR_CONFIG, path->set ? &path->origin : &c->set->s[SET_SPEC_ALGO].origin,
                        "--speculative-algorithm %s: kvcheck does not derive this draft model's KV pool (%s), which "
                        "PD sends after the target's (sglang 0.5.23: python/sglang/srt/disaggregation/prefill.py:"
                        "301-325), so it cannot judge the pair: give it an MHA draft's config.json it can read (a "
                        "local directory or the Hugging Face cache)",
                        algo, why);
    notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
              "--speculative-algorithm %s: the draft model's KV pool is not derived (%s); a unified worker keeps it "
              "to itself, but a PD worker's is declined",
              algo, why);
    return KVC_OK;
}

/* STANDALONE drafts refuse attention DP, in the server arguments' handling
 * of speculative decoding, before that of PD (sglang 0.5.3rc2:
 * python/sglang/srt/server_args.py:1054-1058, called at :503 before :509;
 * 0.5.23: python/sglang/srt/arg_groups/speculative_hook.py:1078-1084). */
static kvc_status check_standalone_dp(const ctx *c)
{
    const setting *algo = &c->set->s[SET_SPEC_ALGO];
    unsigned long attn_dp = rules_attention_dp(c);
    if (!algo->set || !str_ieq(algo->value, "STANDALONE") || attn_dp <= 1) return KVC_OK;
    return rules_refuse(c, algo,
                  "Currently standalone speculative decoding does not support dp attention. (attention DP size "
                  "%lu%s; sglang 0.5.3rc2: python/sglang/srt/server_args.py:1054-1058; 0.5.23: "
                  "python/sglang/srt/arg_groups/speculative_hook.py:1078-1084)",
                  attn_dp, c->defaults && rel_until(c->rel, "0.5.7") && !c->set->s[SET_DP_ATTENTION].set
                               ? ": SGLang turns DP attention on for DSA models up to 0.5.7"
                               : "");
}

/* The separate draft model's pool (EAGLE3, STANDALONE): the draft runner
 * builds it from the draft's own config (tools/sglang-oracle/DRAFT_POOL.md
 * §1; sglang 0.5.23: python/sglang/srt/mem_cache/kv_cache_configurator.py:
 * 1866-1920). An MHA draft (a Llama EAGLE3 head) keeps, per layer, a K and
 * a V buffer of page_size x heads x head_dim elements, heads being its KV
 * heads over the attention TP (at least 1), all K entries first (sglang
 * 0.5.23: python/sglang/srt/mem_cache/memory_pool.py:2657-2693,
 * 2775-2789); PD appends them after the target's (sglang 0.5.23:
 * python/sglang/srt/disaggregation/prefill.py:301-325). */
static kvc_status resolve_draft_model(const ctx *c, const char *algo)
{
    kvc_resolved *out = c->out;
    const settings *set = c->set;
    const setting *path = &set->s[SET_SPEC_DRAFT_MODEL];
    char pool[KVC_NAME_LEN];
    if (!c->draft || !c->draft->found)
        return draft_underived(c, algo, !path->set ? "no --speculative-draft-model-path given" : c->draft->why);
    const model_info *m = &c->draft->model;
    /* the draft's model class checks it, whatever the algorithm, when the draft runner loads the model: before
     * it builds its attention backend (sglang 0.5.8: python/sglang/srt/model_executor/model_runner.py:460, 573) */
    unsigned layers = m->num_nextn_predict_layers ? m->num_nextn_predict_layers : m->num_hidden_layers;
    if (strcmp(m->architecture, "LlamaForCausalLMEagle3") == 0 && layers != 1 && rel_until(c->rel, "0.5.11"))
        return rules_refuse(c, path, "ValueError: EAGLE3 currently only supports 1 layer (at draft model init: %s has %u; "
                      "sglang 0.5.3rc2: python/sglang/srt/models/llama_eagle3.py:193-194; 0.5.11: :212-213)",
                      m->name, layers);
    kvc_status st = check_draft_runner(c, algo, m->architecture, m->kv_lora_rank ? MLA_RUNNER : MHA_RUNNER,
                                       draft_dsa(m, c->rel));
    if (st) return st;
    char why[700];
    if (m->kv_lora_rank) {
        str_printf(why, sizeof why, "%s is an MLA model: kvcheck derives MHA draft pools only", m->architecture);
        return draft_underived(c, algo, why);
    }
    const setting *dcp = &set->s[SET_DCP];
    const char *dtype = draft_model_dtype(c, m, why, sizeof why);
    if (!dtype) return draft_underived(c, algo, why);
    if (dcp->set && strtoul(dcp->value, NULL, 10) > 1)
        return draft_underived(c, algo, "--dcp-size multiplies its page (0.5.17+), which kvcheck does not model");
    unsigned long tp = attention_tp(c, 1);
    uint64_t kv_heads = total_kv_heads(m), heads = kv_heads_per_rank(kv_heads, tp);
    uint64_t D = m->head_dim ? m->head_dim : m->num_attention_heads ? m->hidden_size / m->num_attention_heads : 0;
    /* the V width is the config's v_head_dim from 0.5.11 (sglang 0.5.11:
     * python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py:559), else head_dim */
    uint64_t Dv = m->v_head_dim && rel_since(c->rel, "0.5.11") ? m->v_head_dim : D;
    const struct elem_dtype *e = elem_dtype(dtype);
    uint64_t b = e->bytes, page = rules_get(out, "page_size")->number;
    if (!kv_heads || !D || heads * (D > Dv ? D : Dv) * b > UINT32_MAX)
        return draft_underived(c, algo, "its config gives no KV heads or head width (num_key_value_heads or "
                               "num_attention_heads; head_dim or hidden_size), or widths past 4 GiB a token");
    out->draft_model_layers = layers;
    out->draft_model_bytes[0] = (uint32_t)(heads * D * b);
    out->draft_model_bytes[1] = (uint32_t)(heads * Dv * b);
    const uint64_t item[2] = {page * out->draft_model_bytes[0], page * out->draft_model_bytes[1]};
    /* what decode reads the bytes as: compared between the sides */
    char dims[64], v[32] = "";
    if (Dv != D) str_printf(v, sizeof v, "/%llu", (unsigned long long)Dv);
    str_printf(dims, sizeof dims, "%ux%llux%llu%s", layers, (unsigned long long)heads, (unsigned long long)D, v);
    /* FP8 is fnuz where the platform's is (the bytes of one side read as the other's differ) */
    const char *name = fp8_stored_name(c, e->same);
    if (Dv == D)
        str_printf(pool, sizeof pool, "%s %s: %llu B/page", name, dims, (unsigned long long)item[0]);
    else
        str_printf(pool, sizeof pool, "%s %s: K %llu + V %llu B/page", name, dims,
                   (unsigned long long)item[0], (unsigned long long)item[1]);
    setting_set(rules_get(out, "draft_model_pool"), pool,
                "%s (%s, MHA): layers x KV heads (%llu over attention TP %lu, at least 1) x head_dim (sglang "
                "0.5.23: python/sglang/srt/mem_cache/memory_pool.py:2657-2693); dtype: %s%s",
                m->name, m->architecture, (unsigned long long)kv_heads, tp, why,
                name == e->same ? "" : "; its fnuz variant on this GPU (sglang 0.5.5: python/sglang/srt/model_executor/"
                                       "model_runner.py:1522-1530; 0.5.9: python/sglang/srt/layers/quantization/"
                                       "fp8_kernel.py:90-98)");
    setting_origin(rules_get(out, "draft_model_pool"), &path->origin);
    kvc_setting *par = rules_get(out, "parallelism");
    char value[KVC_NAME_LEN], reason[KVC_REASON_LEN];
    str_copy(value, sizeof value, par->value);
    str_copy(reason, sizeof reason, par->reason);
    setting_set(par, value, "%s; the draft model's MHA entries are not: their KV heads are split over attention TP "
                "(draft_model_pool)", reason);
    return KVC_OK;
}

/* ------------------------------------------------------------- the rest */

static const struct spec_row {
    const char *name;
    int mtp;      /* the draft pool holds the model's own MTP layers */
    int separate; /* the draft is a model of its own (--speculative-draft-model-path), with its own pool */
    int no_kv;    /* the algorithm keeps no draft KV cache */
    int eagle;    /* SGLang checks EAGLE's parameters (is_eagle() or is_standalone()) */
} SPEC_ALGOS[] = {{"EAGLE", 1, 0, 0, 1},      {"NEXTN", 1, 0, 0, 1}, {"EAGLE3", 0, 1, 0, 1},
                  {"STANDALONE", 0, 1, 0, 1}, {"NGRAM", 0, 0, 1, 0}};

/* The SPEC_ALGOS row of `name` (the resolved speculative_algorithm), or NULL. */
static const struct spec_row *spec_row(const char *name)
{
    for (size_t i = 0; i < COUNT_OF(SPEC_ALGOS); i++)
        if (str_ieq(SPEC_ALGOS[i].name, name)) return &SPEC_ALGOS[i];
    return NULL;
}

/* 1 when the resolved speculative algorithm drafts with a separate model. */
static int separate_draft(const kvc_resolved *out)
{
    const struct spec_row *row = spec_row(resolved_value(out, "speculative_algorithm"));
    return row && row->separate;
}

/* SGLang's checks of EAGLE's parameters (EAGLE, EAGLE3, NEXTN,
 * STANDALONE), in its speculative hook once the page size is resolved.
 * Without --speculative-num-steps (and, from 0.5.14, without
 * --speculative-adaptive) SGLang picks all three parameters, asserting the
 * other two were not given; it picks top-k 1 for every model kvcheck serves
 * (sglang 0.5.23: python/sglang/srt/arg_groups/speculative_hook.py:
 * 1430-1460); --speculative-num-steps without a top-k fails its comparison
 * with 1. A top-k above 1 (NGRAM's is its BFS breadth) with pages above
 * one token needs an attention backend that drafts a tree per page
 * (PAGE_TREE). */
static const char EAGLE_ASSERT_CITE[] = "sglang 0.5.3rc2: python/sglang/srt/server_args.py:1088-1092; 0.5.12: "
                                        ":3807-3811; 0.5.13: python/sglang/srt/arg_groups/speculative_hook.py:"
                                        "340-344; 0.5.14 on, not with --speculative-adaptive: 0.5.16: :555-562; "
                                        "0.5.23: :1159-1163";
static const char EAGLE_TOPK_CITE[] = "sglang 0.5.3rc2: python/sglang/srt/server_args.py:1118-1125; 0.5.23: "
                                      "python/sglang/srt/arg_groups/speculative_hook.py:1273-1282";
static const char PAGE_TREE_UNSTABLE[] = "speculative_eagle_topk > 1 with page_size > 1 is unstable and produces "
                                         "incorrect results for paged attention backends. This combination is only "
                                         "supported for the 'flashinfer' backend.";
static const struct page_tree_rule {
    span when;
    int ngram;            /* NGRAM's check (its top-k is --speculative-ngram-max-bfs-breadth), else EAGLE's */
    const char *backends; /* the attention backends that take it */
    const char *message;  /* SGLang's, {backend} the attention backend as Python prints it, {topk} {page} */
    const char *cite;
} PAGE_TREE[] = {
    {UNTIL("0.5.5.post3"), 0, "flashinfer", PAGE_TREE_UNSTABLE,
     "sglang 0.5.3rc2: python/sglang/srt/server_args.py:1118-1125; 0.5.5: :1606-1613"},
    {FROM_TO("0.5.6", "0.5.12.post1"), 0, "flashinfer fa3", PAGE_TREE_UNSTABLE,
     "sglang 0.5.6: python/sglang/srt/server_args.py:1752-1759; 0.5.9: :2452-2459; 0.5.12: :3837-3844"},
    {SINCE("0.5.13"), 0, "flashinfer fa3 triton",
     "speculative_eagle_topk > 1 with page_size > 1 is only supported on ('flashinfer', 'fa3', 'triton'); got "
     "attention_backend={backend}. Use page_size == 1 or one of those backends.",
     "sglang 0.5.13: python/sglang/srt/arg_groups/speculative_hook.py:377-386; 0.5.16: :639-648; 0.5.23: "
     ":1273-1282"},
    {SINCE("0.5.3rc2"), 1, "flashinfer",
     "speculative_eagle_topk({topk}) > 1 with page_size({page}) > 1 is unstable and produces incorrect results for "
     "paged attention backends. This combination is only supported for the 'flashinfer' backend.",
     "sglang 0.5.3rc2: python/sglang/srt/server_args.py:1146-1156; 0.5.9: :2485-2495; 0.5.13: "
     "python/sglang/srt/arg_groups/speculative_hook.py:432-442; 0.5.23: :1356-1366"},
};

/* The attention backend SGLang's speculative hook reads, or NULL (Python's
 * None), or "" when kvcheck does not know it: the flag it comes from
 * (attention_flag); a DSA model of the DeepSeek family with no attention
 * flag runs its own (nsa up to 0.5.12.post1, dsa after); otherwise, from
 * 0.5.4.post1, the model's default (ATTN_DEFAULTS), else SGLang's platform
 * default for MLA models (MLA_DEFAULTS), also when only one of the
 * prefill/decode backends is given (sglang 0.5.5:
 * python/sglang/srt/server_args.py:1124-1130; 0.5.23:
 * python/sglang/srt/arg_groups/overrides.py:1126-1140); before, None. fa3
 * with --kv-cache-dtype fp8_e5m2 becomes triton first (sglang 0.5.4.post1:
 * python/sglang/srt/server_args.py:1179-1184; 0.5.23:
 * python/sglang/srt/arg_groups/overrides.py:1262-1270). A model the
 * release has no class for (SERVED) it takes for MHA: its MHA default
 * where MHA_DEFAULTS knows it, else "". */
static const char *hook_attention_backend(const ctx *c)
{
    const setting *p = &c->set->s[SET_PREFILL_ATTENTION_BACKEND], *d = &c->set->s[SET_DECODE_ATTENTION_BACKEND];
    const setting *flag = attention_flag(c);
    const struct attn_default *dflt;
    const char *b;
    if (!flag && unserved(c->model->architecture, c->rel)) {
        const struct mha_default *mha = mha_default(c);
        return mha ? mha->backend : "";
    }
    if (flag) b = flag->value;
    else if (c->dsa && c->defaults && !p->set && !d->set) b = rel_until(c->rel, "0.5.12.post1") ? "nsa" : "dsa";
    else if (!rel_since(c->rel, "0.5.4.post1")) return NULL;
    else if (!(b = attn_backend(c, &dflt))[0]) b = mla_default(c);
    /* FA3 keeps no fp8_e5m2 KV: SGLang falls back to triton before the hook */
    if (rel_since(c->rel, "0.5.4.post1") && strcmp(b, "fa3") == 0 && strcmp(c->dtype, "fp8_e5m2") == 0) b = "triton";
    return b;
}

/* SGLang's automatic EAGLE parameters up to 0.5.7: (3, 1, 4) for the
 * architectures listed, (5, 4, 8), top-k 4, for the others (0.5.8 made
 * that (3, 1, 4)); STANDALONE always (3, 1, 4). */
static const struct auto_topk_row {
    span when;
    const char *top1; /* the architectures that get top-k 1 */
} AUTO_TOPK[] = {
    {UNTIL("0.5.6"), "DeepseekV32ForCausalLM DeepseekV3ForCausalLM DeepseekV2ForCausalLM"},
    {FROM_TO("0.5.6.post1", "0.5.7"), "DeepseekV32ForCausalLM DeepseekV3ForCausalLM DeepseekV2ForCausalLM "
                                      "MistralLarge3ForCausalLM PixtralForConditionalGeneration"},
};
static const char AUTO_TOPK_CITE[] =
    "sglang 0.5.3rc2: python/sglang/srt/server_args.py:3301-3330; 0.5.6.post1: :4579-4611; 0.5.7: :5151-5183";

/* The top-k SGLang picks when --speculative-num-steps is not given. */
static const char *auto_topk(const ctx *c, const struct spec_row *row)
{
    for (size_t i = 0; i < COUNT_OF(AUTO_TOPK); i++)
        if (in_span(c->rel, AUTO_TOPK[i].when))
            return strcmp(row->name, "STANDALONE") == 0 || word_in(c->model->architecture, AUTO_TOPK[i].top1) ? "1"
                                                                                                                : "4";
    return "1";
}

static const char NGRAM_DP_CITE[] = "sglang 0.5.3rc2: python/sglang/srt/server_args.py:1157-1161; 0.5.23: "
                                    "python/sglang/srt/arg_groups/speculative_hook.py:1367-1371";
static kvc_status check_page_tree(const ctx *c, const struct spec_row *row, const setting *at, const char *k,
                                  unsigned page, const char *why);

/* trtllm_mha keeps a top-k of 1 only: the EAGLE family's check once SGLang
 * has picked the parameters, of the attention backend and both side flags
 * up to 0.5.14, of the sides (a side's flag, else the attention backend:
 * attention_backends_of) from 0.5.15. */
static const struct trtllm_topk_row {
    span when;
    int sides; /* reads the sides, not the three flags */
    const char *cite;
} TRTLLM_MHA_TOPK[] = {
    {UNTIL("0.5.14"), 0, "sglang 0.5.3rc2: python/sglang/srt/server_args.py:1099-1107; 0.5.12.post1: :3818-3826; "
                         "0.5.13: python/sglang/srt/arg_groups/speculative_hook.py:353-361; 0.5.14: :331-339"},
    {SINCE("0.5.15"), 1, "sglang 0.5.15: python/sglang/srt/arg_groups/speculative_hook.py:390-394; 0.5.23: "
                         ":1176-1180"},
};

/* The flag that names trtllm_mha where TRTLLM_MHA_TOPK's row `r` looks
 * (the KV dtype's where SGLang's NVFP4 rows set a side to it), or NULL. Pure. */
static const setting *trtllm_mha_named(const ctx *c, const struct trtllm_topk_row *r)
{
    const char *mha = TRTLLM_MHA.backend;
    if (r->sides) {
        struct kv4_sides sides;
        kv4_sides(c, &sides);
        for (int k = PREFILL; k <= DECODE; k++)
            if (strcmp(sides.side[k], mha) == 0) return flag_of(c, k, mha);
        return NULL;
    }
    const char *attention = hook_attention_backend(c);
    const setting *p = &c->set->s[SET_PREFILL_ATTENTION_BACKEND], *d = decode_flag(c);
    if (attention && strcmp(attention, mha) == 0) return flag_of(c, -1, mha);
    if (d->set && strcmp(d->value, mha) == 0) return d;
    return p->set && strcmp(p->value, mha) == 0 ? p : NULL;
}

/* --speculative-num-steps without --speculative-eagle-topk leaves the top-k None, which SGLang's comparison with 1
 * fails on: at trtllm_mha's check (`beside`: " as <flag> <backend> runs") or the page's (`beside` ""), `cite`. */
static kvc_status refuse_none_topk(const ctx *c, const char *beside, const char *cite)
{
    const setting *steps = &c->set->s[SET_SPEC_NUM_STEPS];
    return rules_refuse(c, steps, "TypeError: '>' not supported between instances of 'NoneType' and 'int' (%s is given "
                        "without --speculative-eagle-topk, which SGLang then compares with 1%s: %s); give all three "
                        "or none", steps->flag, beside, cite);
}

/* TRTLLM_MHA_TOPK's check of the top-k `k` (given, else SGLang's pick: `why`; NULL: None, --speculative-num-steps
 * given without it, which the comparison with 1 fails on). */
static kvc_status check_trtllm_mha_topk(const ctx *c, const char *k, const char *why)
{
    for (size_t i = 0; i < COUNT_OF(TRTLLM_MHA_TOPK); i++) {
        const struct trtllm_topk_row *r = &TRTLLM_MHA_TOPK[i];
        const setting *by = in_span(c->rel, r->when) && (!k || strtol(k, NULL, 10) > 1) ? trtllm_mha_named(c, r) : NULL;
        if (by && !k) {
            char beside[KVC_NAME_LEN * 2 + 16];
            str_printf(beside, sizeof beside, " as %s %s runs", by->flag,
                       by->value[0] ? by->value : TRTLLM_MHA.backend);
            return refuse_none_topk(c, beside, r->cite);
        }
        if (by)
            return rules_refuse(c, by, "ValueError: trtllm_mha backend only supports topk = 1 for speculative decoding. "
                          "(%s %s; the top-k is %s%s; %s)", by->flag, by->value[0] ? by->value : TRTLLM_MHA.backend,
                          k, why, r->cite);
    }
    return KVC_OK;
}

static kvc_status check_spec_params(const ctx *c)
{
    const setting *algo = &c->set->s[SET_SPEC_ALGO], *topk = &c->set->s[SET_SPEC_EAGLE_TOPK];
    const setting *steps = &c->set->s[SET_SPEC_NUM_STEPS], *tokens = &c->set->s[SET_SPEC_DRAFT_TOKENS];
    const setting *breadth = &c->set->s[SET_NGRAM_BREADTH];
    const struct spec_row *row = algo->set ? spec_row(algo->value) : NULL;
    if (!row) return KVC_OK;
    int ngram = !row->eagle;
    const setting *adaptive = &c->set->s[SET_SPEC_ADAPTIVE];
    if (!ngram && adaptive->set)
        return diag_set(c->diag, KVC_ERR_CONFIG, &adaptive->origin,
                        "%s: kvcheck does not model SGLang's adaptive speculative decoding (which algorithms, top-k, "
                        "DP attention and draft layers keep it on, its candidate steps, and the parameters it picks), "
                        "so it cannot judge this worker's speculative parameters; leave it out to check the rest",
                        adaptive->flag);
    /* SGLANG_ENABLE_SPEC_V2 on (an EnvBool, off by default) with a top-k above 1 given: refused before SGLang picks
     * the parameters (0.5.7-0.5.10.post1; NEXTN is EAGLE by then) */
    static const struct {
        span when;
        const char *algos;
    } SPEC_V2[] = {{FROM_TO("0.5.7", "0.5.7"), "EAGLE NEXTN EAGLE3"},
                   {FROM_TO("0.5.8", "0.5.10.post1"), "EAGLE NEXTN EAGLE3 STANDALONE"}};
    for (size_t i = 0; i < COUNT_OF(SPEC_V2); i++) {
        if (!in_span(c->rel, SPEC_V2[i].when) || !word_in(row->name, SPEC_V2[i].algos)) continue;
        rules_env_warn(c, SET_SPEC_V2_ENV);
        if (rules_env_bool(&c->set->s[SET_SPEC_V2_ENV]) == 1 && topk->set && strtol(topk->value, NULL, 10) > 1)
            return rules_refuse(c, topk, "ValueError: Spec v2 currently only supports topk = 1 for speculative "
                                "decoding. (SGLANG_ENABLE_SPEC_V2 is on; sglang 0.5.7: python/sglang/srt/"
                                "server_args.py:2001-2014; 0.5.10: :3000-3013)");
    }
    if (!ngram) {
        if (!steps->set && (topk->set || tokens->set))
            return rules_refuse(c, topk->set ? topk : tokens,
                          "AssertionError, with no message: %s is given without --speculative-num-steps, which "
                          "SGLang then picks with --speculative-eagle-topk and --speculative-num-draft-tokens (%s); "
                          "give all three or none",
                          topk->set ? topk->flag : tokens->flag, EAGLE_ASSERT_CITE);
    }
    int none = !ngram && steps->set && !topk->set; /* Python's None: the top-k checks below fail on it */
    /* NGRAM's top-k is its BFS breadth; EAGLE's, unless given, the one SGLang picks */
    const setting *at = ngram ? breadth : topk;
    const char *k = at->set ? at->value : ngram ? NGRAM_BREADTH_DEFAULT : auto_topk(c, row);
    unsigned page = (unsigned)rules_get(c->out, "page_size")->number;
    char why[500] = "";
    if (!at->set && ngram)
        str_copy(why, sizeof why, "; NGRAM's top-k is --speculative-ngram-max-bfs-breadth, 10 unless given");
    else if (!at->set)
        str_printf(why, sizeof why, "; the top-k is SGLang's own pick for %s (%s)", c->model->architecture,
                   AUTO_TOPK_CITE);
    if (c->defaults && c->gpu->hip && rel_since(c->rel, "0.5.12") && page != 1 && rocm_preshuffle(c) < 0)
        str_printf(why + strlen(why), sizeof why - strlen(why), "; a DSA page on ROCm is %u tokens only with aiter's "
                   "preshuffle paged-MQA path, else 1, which this check passes", page);
    kvc_status st = ngram ? KVC_OK : check_trtllm_mha_topk(c, none ? NULL : k, why);
    if (!st && !ngram) st = spec_hook_check(c, SPEC_HOOK_EAGLE);
    if (!st && none) return refuse_none_topk(c, "", EAGLE_TOPK_CITE);
    if (!st && strtol(k, NULL, 10) > 1 && page > 1) st = check_page_tree(c, row, at->set ? at : algo, k, page, why);
    if (!st && ngram && rules_attention_dp(c) > 1)
        return rules_refuse(c, algo, "Currently ngram speculative decoding does not support dp attention. (attention DP size "
                      "%lu; %s)", rules_attention_dp(c), NGRAM_DP_CITE);
    return st;
}

/* PAGE_TREE's check of a top-k `k` above 1 with a page of `page` tokens;
 * `why` says where the top-k came from. */
static kvc_status check_page_tree(const ctx *c, const struct spec_row *row, const setting *at, const char *k,
                                  unsigned page, const char *why)
{
    int ngram = !row->eagle;
    const char *backend = hook_attention_backend(c);
    for (size_t i = 0; i < COUNT_OF(PAGE_TREE); i++) {
        const struct page_tree_rule *r = &PAGE_TREE[i];
        if (!in_span(c->rel, r->when) || r->ngram != ngram) continue;
        /* a model without a class: SGLang refuses it at model load (check_model_class, which says its MHA checks
         * may refuse first) */
        if (backend && !backend[0] && unserved(c->model->architecture, c->rel)) return KVC_OK;
        if (backend && !backend[0])
            return diag_set(c->diag, KVC_ERR_CONFIG, &at->origin,
                            "%s with a top-k of %s and a page of %u tokens: SGLang %s refuses it unless the attention "
                            "backend is one of %s (%s), and kvcheck does not know which backend SGLang picks for %s "
                            "on %s; give --attention-backend",
                            row->name, k, page, SGLANG_VERSIONS[c->rel], r->backends, r->cite,
                            c->model->architecture, c->gpu->name);
        if (backend && word_in(backend, r->backends)) return KVC_OK;
        char repr[KVC_NAME_LEN + 2] = "None", num[16], msg[400];
        if (backend) str_printf(repr, sizeof repr, "'%s'", backend);
        str_printf(num, sizeof num, "%u", page);
        const char *const f[][2] = {{"backend", repr}, {"topk", k}, {"page", num}};
        sglang_expand(r->message, f, COUNT_OF(f), msg, sizeof msg);
        return rules_refuse(c, at, "%s (%s; the page is %u tokens%s)", msg, r->cite, page, why);
    }
    return KVC_OK;
}

static kvc_status resolve_speculative(const ctx *c)
{
    const setting *s = &c->set->s[SET_SPEC_ALGO];
    kvc_resolved *out = c->out;
    out->draft_entries = 0;
    if (!s->set) {
        setting_set(rules_get(out, "speculative_algorithm"), "", "no speculative decoding: no draft entries");
        return KVC_OK;
    }
    const struct spec_row *row = spec_row(s->value);
    if (!row)
        return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin,
                        "%s %s: kvcheck does not model this speculative algorithm's draft pool", s->flag, s->value);
    const struct draft_layers_row *set_by;
    unsigned layers = draft_layers(c->model, c->rel, &set_by);
    /* an MLA target whose draft SGLang renames to an architecture it does not run as MLA (a row of DRAFT_ARCHS) */
    const struct draft_arch_row *renamed = draft_arch_row(c->model->architecture, c->rel);
    if (row->mtp && layers && renamed && mla_arch(c->model->architecture, c->rel) && !mla_arch(renamed->draft, c->rel))
        return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin,
                        "%s %s: SGLang %s loads the MTP draft of %s as %s, which it does not run as an MLA model (%s): "
                        "kvcheck does not model that draft pool, so it cannot judge this worker",
                        s->flag, s->value, SGLANG_VERSIONS[c->rel], c->model->architecture, renamed->draft,
                        renamed->cite);
    if (row->mtp && layers) {
        out->draft_entries = layers;
        if (set_by && layers != c->model->num_nextn_predict_layers)
            setting_set(rules_get(out, "speculative_algorithm"), row->name,
                        "%s (MTP): the draft pool adds %u entries after the %u target layers: SGLang sets the draft's "
                        "num_nextn_predict_layers to %u (%s)",
                        row->name, layers, c->model->num_hidden_layers, layers, set_by->cite);
        else
            setting_set(rules_get(out, "speculative_algorithm"), row->name,
                        "%s (MTP): the draft pool adds num_nextn_predict_layers = %u entries after the %u target "
                        "layers",
                        row->name, layers, c->model->num_hidden_layers);
    } else if (row->no_kv) {
        setting_set(rules_get(out, "speculative_algorithm"), row->name, "NGRAM keeps no draft KV cache");
    } else {
        setting_set(rules_get(out, "speculative_algorithm"), row->name, "%s drafts with a separate model", row->name);
    }
    return KVC_OK;
}

/* The draft worker's attention backends (DRAFT_WORKER_BACKENDS). */
static kvc_status check_draft_worker(const ctx *c)
{
    const setting *algo = &c->set->s[SET_SPEC_ALGO], *own = &c->set->s[SET_SPEC_DRAFT_ATTN];
    const struct spec_row *spec = algo->set ? spec_row(algo->value) : NULL;
    const struct draft_worker_row *row = NULL;
    for (size_t i = 0; i < COUNT_OF(DRAFT_WORKER_BACKENDS); i++)
        if (in_span(c->rel, DRAFT_WORKER_BACKENDS[i].when)) row = &DRAFT_WORKER_BACKENDS[i];
    if (!spec || !spec->eagle || !row) return KVC_OK;
    /* a draft of the model's own layers (MTP) has its model runner build its own backend, else the target's (whose
     * factories the target's runner has run: an MHA target's are not modelled), with the draft's model config */
    kvc_status st;
    if (!spec->separate && (own->set || runs_mla(c)) &&
        (st = check_draft_runner(c, algo->value, draft_arch(c->model->architecture, c->rel),
                                 runs_mla(c) ? MLA_RUNNER : MHA_RUNNER, draft_dsa(c->model, c->rel))))
        return st;
    const setting *multi = &c->set->s[SET_MULTI_LAYER_EAGLE];
    if (multi->set)
        return diag_set(c->diag, KVC_ERR_CONFIG, &multi->origin,
                        "%s: kvcheck does not model SGLang's multi-layer EAGLE worker (a draft model runner per step, "
                        "each building draft-extend backends only, and the draft KV entries they keep; sglang 0.5.7: "
                        "python/sglang/srt/speculative/multi_layer_eagle_worker.py:191-204), so it cannot judge this "
                        "worker",
                        multi->flag);
    struct built b = {0};
    built_backends(c, &b);
    const setting *steps = &c->set->s[SET_SPEC_NUM_STEPS];
    /* unless given, SGLang picks 3 or 5 steps (auto_choose_speculative_params) */
    int multi_step = !steps->set || !decode_skipped(c->rel, strtol(steps->value, NULL, 10));
    const char *extend_side = set_to(c, SET_SPEC_ATTN_MODE, "decode") ? b.decode : b.prefill;
    const struct {
        int built;
        const char *backend, *what, *side;
    } made[] = {{multi_step, own->set ? own->value : b.decode, "decode ", "the decode side"},
                {1, own->set ? own->value : extend_side, "",
                 set_to(c, SET_SPEC_ATTN_MODE, "decode") ? "the decode side (--speculative-attention-mode decode)"
                                                          : "the prefill side"}};
    for (size_t k = 0; k < COUNT_OF(made); k++) {
        /* "": a default kvcheck does not name, one of fa3, flashinfer, triton, aiter, ascend (the model runner's
         * up to 0.5.4: sglang 0.5.3rc2: python/sglang/srt/model_executor/model_runner.py:504-550) or, later, those
         * and the server args' trtllm_mla/trtllm_mha, all in every release's list (the conformance tables' default
         * cases agree) */
        if (!made[k].built || !made[k].backend[0] || word_in(made[k].backend, row->backends)) continue;
        const setting *side = flag_of(c, k == 0 || set_to(c, SET_SPEC_ATTN_MODE, "decode") ? DECODE : PREFILL, NULL);
        /* the decode backend: SGLang's own step count, and the one step that builds none where the draft-extend
         * backend is in the list */
        int one_step = k == 0 && decode_skipped(c->rel, 1) &&
                       (!made[1].backend[0] || word_in(made[1].backend, row->backends));
        return rules_refuse(c, own->set ? own : side->set && side != &c->set->s[SET_KV_CACHE_DTYPE] ? side : algo,
                      "ValueError: EAGLE is not supported in %sattention backend %s (when the %s draft worker builds "
                      "its %s backend from %s, %s%s; the draft worker's backends are %s; %s); %s%s", made[k].what,
                      made[k].backend, algo->value, k == 0 ? "multi-step decode" : "draft-extend",
                      own->set ? own->flag : made[k].side, made[k].backend,
                      k == 0 && !steps->set ? ", for the 3 or 5 steps SGLang picks without --speculative-num-steps" : "",
                      row->backends, row->cite,
                      rel_since(c->rel, "0.5.7") ? "give the draft one of them with --speculative-draft-attention-backend"
                                                 : "choose an attention backend among them",
                      one_step ? ", or draft one step, which builds no decode backend (--speculative-eagle-topk 1 "
                                 "--speculative-num-steps 1 --speculative-num-draft-tokens 2)"
                               : "");
    }
    return KVC_OK;
}

/* The indexer entries SGLang's DSA pool keeps rows for, once the layouts are derived (topk.c). */
static void count_indexer(const ctx *c)
{
    kvc_resolved *out = c->out;
    const model_info *m = c->model;
    char why[KVC_NOTE_LEN];
    unsigned kept;
    if (!out->has_indexer) return;
    int fields = m->topk_freq || m->topk_freq_null || m->topk_offset || m->cli_factor || m->topk_pattern_kind ||
                 m->topk_types_kind;
    if (topk_layers(m, c->rel, out->indexer_layers, sizeof out->indexer_layers) < 0) {
        str_copy(out->indexer_layers, sizeof out->indexer_layers, "?");
        if (fields)
            notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES, "kvcheck cannot tell which layers SGLang %s "
                      "gives their own DSA indexer from this config's top-k sharing fields (a pattern or list it does "
                      "not read, or a config SGLang's model code fails on): a pair is not checked for it",
                      SGLANG_VERSIONS[c->rel]);
    }
    if (topk_index_layers(c, out->indexer_entries, &kept, why, sizeof why) == 0) return;
    notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES, "%s", why);
    out->indexer_entries = kept;
    out->indexer_bytes_per_token_all = (uint64_t)out->indexer.bytes_per_token * kept;
}

/* The draft (MTP) pool's KV dtype: --speculative-draft-kv-cache-dtype when
 * given (0.5.18+; "auto" is the draft model's dtype, not the DSA default),
 * else the target's resolved string (sglang 0.5.23:
 * python/sglang/srt/mem_cache/kv_cache_dtype.py:45-48). Its entries travel
 * with their own item length (sglang 0.5.23:
 * python/sglang/srt/disaggregation/prefill.py:301-317). */
static kvc_status resolve_draft(ctx *c)
{
    const setting *s = &c->set->s[SET_SPEC_DRAFT_KV_DTYPE];
    kvc_setting *v = rules_get(c->out, "speculative_draft_kv_cache_dtype");
    if (!c->out->draft_entries && s->set && separate_draft(c->out)) {
        char from[900];
        rules_from_text(s, from, sizeof from);
        setting_set(v, s->value, "set by %s: the draft model pool's dtype", from);
        return KVC_OK;
    }
    if (!c->out->draft_entries) {
        if (s->set)
            notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
                      "%s has no effect here: the worker keeps no draft KV entries", s->flag);
        setting_set(v, "", "%s", "");
        return KVC_OK;
    }
    const char *dtype = c->dtype;
    if (!s->set && torch_row(c, dtype)->fp4)
        return diag_set(c->diag, KVC_ERR_CONFIG, &c->set->s[SET_KV_CACHE_DTYPE].origin,
                        "--kv-cache-dtype %s with draft (MTP) entries: the draft pool follows it, and kvcheck does not "
                        "model an FP4 draft pool and its scale buffer",
                        dtype);
    if (s->set) {
        char from[900];
        rules_from_text(s, from, sizeof from);
        dtype = s->value;
        const struct dtype_row *t = torch_row(c, dtype);
        if (!t || !t->plain_layout)
            return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin,
                            "%s %s: kvcheck does not model this KV dtype's MLA layout", s->flag, s->value);
        if (strcmp(dtype, "auto") == 0 && c->model->kv_quant[0] && !c->auto_dtype)
            return kv_quant_unjudged(c, s->flag, from);
        setting_set(v, dtype, "set by %s: the draft pool's dtype%s", from,
                    strcmp(dtype, "auto") == 0 ? " is the draft model's own (the DSA default does not apply)" : "");
    } else {
        setting_set(v, "", "not set: the draft pool follows --kv-cache-dtype");
    }
    decide_row(c, dtype, draft_dsa(c->model, c->rel), &c->out->draft_row);
    return KVC_OK;
}

static void describe_parallelism(const settings *set, kvc_resolved *out)
{
    char text[KVC_NAME_LEN] = "", item[KVC_NAME_LEN];
    const setting *tp = &set->s[SET_TP], *dp = &set->s[SET_DP];
    if (tp->set) str_printf(item, sizeof item, "tp %s", tp->value), str_join_add(text, sizeof text, ", ", item);
    if (dp->set) str_printf(item, sizeof item, "dp %s", dp->value), str_join_add(text, sizeof text, ", ", item);
    if (set->s[SET_DP_ATTENTION].set) str_join_add(text, sizeof text, ", ", "dp-attention");
    setting_set(rules_get(out, "parallelism"), text,
                "does not change MLA bytes: the MLA cache is replicated across attention-TP ranks, and any prefill "
                "TP can feed any decode TP");
}

static kvc_status derive_layouts(const model_info *model, kvc_resolved *out, kvc_diag *diag)
{
    kvc_layout_params p = {model->kv_lora_rank, model->qk_rope_head_dim, model->index_head_dim,
                           (uint32_t)rules_get(out, "page_size")->number};
    /* The layout's own diagnostic is read back to add the model, so it goes
     * to a local: the caller's may be NULL (the fix search passes NULL). */
    kvc_diag why;
    kvc_status st = layout_build(out->row.value, &p, &out->kv, &why);
    if (st) {
        kvc_origin o;
        origin_set(&o, why.file, why.line, why.column, why.where);
        return diag_set(diag, st, &o, "model %s with %s: %s (%s)", model->name, resolved_value(out, "kv_cache_dtype"),
                        why.message, out->row.reason);
    }
    if (out->has_scales && (st = layout_build("fp4_mx16_scales", &p, &out->scales, diag))) return st;
    out->kv_entries = out->attn_layers + out->draft_entries + 2 * out->draft_model_layers;
    out->kv_bytes_per_token_all = (uint64_t)out->kv.bytes_per_token * out->attn_layers +
                                  (uint64_t)(out->draft_model_bytes[0] + out->draft_model_bytes[1]) *
                                      out->draft_model_layers;
    if (out->draft_entries) {
        st = layout_build(out->draft_row.value, &p, &out->draft, &why);
        if (st) {
            kvc_origin o;
            origin_set(&o, why.file, why.line, why.column, why.where);
            return diag_set(diag, st, &o, "model %s, draft entries: %s (%s)", model->name, why.message,
                            out->draft_row.reason);
        }
        out->kv_bytes_per_token_all += (uint64_t)out->draft.bytes_per_token * out->draft_entries;
    }
    out->has_indexer = out->model.dsa;
    if (!out->model.dsa) return KVC_OK;
    kvc_origin o;
    origin_set(&o, "", 0, 0, "index_head_dim");
    RETURN_ERROR_IF(model->index_head_dim != 128, diag, KVC_ERR_CONFIG, &o,
                    "index_head_dim is %u: SGLang's DSA indexer K cache needs 128", model->index_head_dim);
    st = layout_build("dsa_indexer", &p, &out->indexer, diag);
    /* a separate draft model's MHA entries keep no indexer state */
    out->indexer_entries = out->kv_entries - 2 * out->draft_model_layers;
    out->indexer_bytes_per_token_all = (uint64_t)out->indexer.bytes_per_token * out->indexer_entries;
    return st;
}

/* The settings a worker shows, in display order, added before any is decided. */
static void add_settings(int dsa, int hybrid, int dsv4, kvc_resolved *out)
{
    const unsigned pair = KVC_SETTING_PAIR, decides = KVC_SETTING_DECIDES;
    resolved_add(out, "kv_cache_dtype", KVC_VALUE_TEXT, KVC_SETTING_COMPARED | KVC_SETTING_DTYPE | pair | decides);
    if (dsa) {
        resolved_add(out, "dsa_prefill_backend", KVC_VALUE_TEXT, pair | decides);
        resolved_add(out, "dsa_decode_backend", KVC_VALUE_TEXT, pair | decides);
    }
    /* the model's dtype, where the KV dtype is auto (model_dtype_auto) */
    resolved_add(out, "dtype", KVC_VALUE_TEXT, pair | KVC_SETTING_IF_SET);
    /* the KV dtype string the model runner resolves auto to, where it is not the flag's (model_dtype_auto) */
    resolved_add(out, "kv_cache_dtype_str", KVC_VALUE_TEXT, pair | KVC_SETTING_IF_SET | KVC_SETTING_DTYPE);
    resolved_add(out, "disaggregation_mode", KVC_VALUE_TEXT, pair);
    resolved_add(out, "transfer_backend", KVC_VALUE_TEXT, KVC_SETTING_COMPARED | pair | KVC_SETTING_IF_SET);
    resolved_add(out, "kv_checksum", KVC_VALUE_BOOL, pair | KVC_SETTING_IF_SET);
    resolved_add(out, "decode_alloc_policy", KVC_VALUE_TEXT, pair | KVC_SETTING_IF_SET);
    resolved_add(out, "page_size", KVC_VALUE_UINT, decides);
    resolved_add(out, "speculative_algorithm", KVC_VALUE_TEXT, KVC_SETTING_IF_SET);
    resolved_add(out, "speculative_draft_kv_cache_dtype", KVC_VALUE_TEXT, KVC_SETTING_IF_SET);
    resolved_add(out, "draft_model_pool", KVC_VALUE_TEXT, pair | KVC_SETTING_IF_SET);
    resolved_add(out, "enable_hisparse", KVC_VALUE_BOOL, KVC_SETTING_IF_SET);
    resolved_add(out, "parallelism", KVC_VALUE_TEXT, KVC_SETTING_IF_SET);
    resolved_add(out, "chunked_prefill_size", KVC_VALUE_TEXT, KVC_SETTING_IF_SET);
    if (hybrid) {
        resolved_add(out, "layer_split", KVC_VALUE_TEXT, KVC_SETTING_IF_SET);
        resolved_add(out, "mamba_ssm_dtype", KVC_VALUE_TEXT, KVC_SETTING_COMPARED | pair);
        resolved_add(out, "mamba_conv_dtype", KVC_VALUE_TEXT, KVC_SETTING_COMPARED | pair);
        resolved_add(out, "linear_state", KVC_VALUE_TEXT, KVC_SETTING_IF_SET);
    }
    if (dsv4) {
        resolved_add(out, "dsv4_compressed", KVC_VALUE_TEXT, KVC_SETTING_IF_SET);
        resolved_add(out, "dsv4_kv_layout", KVC_VALUE_TEXT, KVC_SETTING_COMPARED | pair | KVC_SETTING_IF_SET);
        resolved_add(out, "dsv4_state", KVC_VALUE_TEXT, KVC_SETTING_COMPARED | pair);
    }
}

static void resolve_hisparse_setting(const setting *s, kvc_resolved *out)
{
    char from[900] = "";
    if (s->set) rules_from_text(s, from, sizeof from);
    if (s->set) setting_set(rules_get(out, "enable_hisparse"), "true", "set by %s", from);
    if (s->set) setting_origin(rules_get(out, "enable_hisparse"), &s->origin);
    else setting_set(rules_get(out, "enable_hisparse"), "false", "%s", "");
}

/* Parallelism kvcheck does not model is unjudged: prefill context parallelism for DeepSeek-V4, whose own hook and
 * pools take it (sglang 0.5.23: python/sglang/srt/arg_groups/deepseek_v4_hook.py), and for Glm5Next from 0.5.22, whose
 * CP-TP group sharing hook has its own checks and settings; the pools that split the KV cache
 * by layer or page across the CP ranks (sglang 0.5.16: python/sglang/srt/mem_cache/kv_cache_configurator.py:1117;
 * 0.5.23: :2334-2339, :3412-3440); MoE data parallelism and DWDP, which SGLang checks and applies to --ep-size before
 * the MoE runner's checks (sglang 0.5.11: python/sglang/srt/server_args.py:2923-2926; 0.5.18: _handle_dwdp). A size
 * of 1 is none. Multi-item scoring (--enable-mis) is unjudged too. */
static kvc_status check_unmodelled(const ctx *c, int dsv4)
{
    static const struct {
        setting_key key;
        const char *what;
    } UNJUDGED[] = {
        {SET_KV_SPLIT, "a KV pool split across the ranks by layer or page, which SGLang builds only with prefill "
                       "context parallelism"},
        {SET_MOE_DP, "MoE data parallelism, which SGLang checks against --ep-size and --tp-size"},
        {SET_DWDP, "DWDP, which sets the expert parallel size and the all-to-all backend"},
        {SET_ENABLE_MIS, "multi-item scoring, which turns CUDA graphs, the radix cache and chunked prefill off and "
                         "checks the attention backends SGLang picks (sglang 0.5.11: python/sglang/srt/server_args.py:"
                         "1263-1292; 0.5.23: python/sglang/srt/arg_groups/attention_hook.py:526-575)"},
    };
    const setting *cp = c->cp.on;
    int group_sharing = rel_since(c->rel, "0.5.22") && strcmp(c->model->architecture, "Glm5NextForConditionalGeneration")
                                                           == 0;
    if (cp && (dsv4 || group_sharing))
        return diag_set(c->diag, KVC_ERR_CONFIG, &cp->origin, "%s: prefill context parallelism for %s; kvcheck does "
                        "not model it, so it cannot judge this worker", cp->flag,
                        dsv4 ? "DeepSeek-V4, which its own hook and pools take"
                             : "Glm5NextForConditionalGeneration, which SGLang's CP-TP group sharing checks and sets "
                               "(sglang 0.5.22: python/sglang/srt/arg_groups/cp_tp_group_sharing_hook.py:20-80)");
    for (size_t i = 0; i < COUNT_OF(UNJUDGED); i++) {
        const setting *s = &c->set->s[UNJUDGED[i].key];
        if (s->set && strcmp(s->value, "1") != 0)
            return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin, "%s: %s; kvcheck does not model it, so it cannot "
                            "judge this worker", s->flag, UNJUDGED[i].what);
    }
    /* SGLang's device is "cuda" on CUDA and ROCm GPUs when --device is not given (sglang 0.5.3rc2: python/sglang/srt/
     * server_args.py:537-538; 0.5.23: python/sglang/srt/arg_groups/serving_hook.py:648) */
    const setting *dev = &c->set->s[SET_DEVICE];
    if (dev->set && strcmp(dev->value, "cuda") != 0)
        return diag_set(c->diag, KVC_ERR_CONFIG, &dev->origin, "%s %s: SGLang runs this worker on that device, not on "
                        "a CUDA or ROCm GPU (its \"cuda\"), and checks and builds its pools for it; kvcheck does not "
                        "model that, so it cannot judge this worker", dev->flag, dev->value);
    /* SGLANG_USE_CPU_ENGINE=1 runs SGLang's CPU engine on an x86 or arm64 host, whatever --device says (sglang
     * 0.5.3rc2: python/sglang/srt/utils/common.py:148; 0.5.23: :221-224, :1073-1081) */
    const setting *cpu = &c->set->s[SET_CPU_ENGINE_ENV];
    if (cpu->set && strcmp(cpu->value, "1") == 0)
        return diag_set(c->diag, KVC_ERR_CONFIG, &cpu->origin, "SGLANG_USE_CPU_ENGINE=1: SGLang runs this worker on "
                        "its CPU engine on an x86 or arm64 host (sglang 0.5.23: python/sglang/srt/utils/common.py:"
                        "221-224), not on a CUDA or ROCm GPU; kvcheck does not model that, so it cannot judge this "
                        "worker");
    /* an expert pack: its handler checks the model type, the parallel sizes, the CUDA graphs and the pack's files on
     * disk, and refuses every model type but deepseek_v4 (sglang 0.5.19: python/sglang/srt/arg_groups/
     * expert_pack_hook.py:32-191; 0.5.23: :32-192) */
    if (set_to(c, SET_LOAD_FORMAT, "expert_pack"))
        return diag_set(c->diag, KVC_ERR_CONFIG, &c->set->s[SET_LOAD_FORMAT].origin, "%s expert_pack: SGLang %s "
                        "checks the model type (it takes only deepseek_v4), the parallel sizes, the CUDA graphs and "
                        "the pack's files on disk (sglang 0.5.23: python/sglang/srt/arg_groups/expert_pack_hook.py:"
                        "32-192); kvcheck does not model it, so it cannot judge this worker",
                        c->set->s[SET_LOAD_FORMAT].flag, SGLANG_VERSIONS[c->rel]);
    const setting *dllm = &c->set->s[SET_DLLM];
    if (dllm->set)
        return diag_set(c->diag, KVC_ERR_CONFIG, &dllm->origin, "%s %s: SGLang %s serves a diffusion LLM: it turns "
                        "CUDA graphs, the overlap schedule and the radix cache off, and from 0.5.21 the algorithm "
                        "checks and sets the server arguments itself (sglang 0.5.6: python/sglang/srt/server_args.py:"
                        "2013-2035; 0.5.21: python/sglang/srt/arg_groups/dllm_hook.py:23-29); kvcheck does not model "
                        "it, so it cannot judge this worker", dllm->flag, dllm->value, SGLANG_VERSIONS[c->rel]);
    const setting *aux = &c->set->s[SET_AUX_HIDDEN];
    if (aux->set && rel_since(c->rel, "0.5.23"))
        return diag_set(c->diag, KVC_ERR_CONFIG, &aux->origin, "%s: SGLang %s reads --speculative-algorithm as the "
                        "capture method and clears it before anything else reads it (sglang 0.5.23: python/sglang/srt/"
                        "arg_groups/validation_hook.py:697-740); kvcheck does not model it, so it cannot judge this "
                        "worker", aux->flag, SGLANG_VERSIONS[c->rel]);
    return KVC_OK;
}

/* Refuses, as unjudged, an architecture whose pools kvcheck does not model
 * (UNMODELLED), or one SGLang does not run as MLA (MLA_ARCHS) unless the
 * release has no model class for it (SERVED: the argument checks take it
 * for MHA, then the model loader refuses it: check_model_class). */
static kvc_status check_modelled(const ctx *c)
{
    const char *arch = c->model->architecture;
    if (rules_dsv4(arch, c->rel)) return KVC_OK;
    kvc_origin o;
    origin_set(&o, "", 0, 0, "model");
    for (size_t i = 0; i < COUNT_OF(UNMODELLED); i++)
        if (strcmp(UNMODELLED[i].arch, arch) == 0)
            return diag_set(c->diag, KVC_ERR_CONFIG, &o,
                            "%s (%s): SGLang serves it with %s, which kvcheck does not model yet; it cannot judge "
                            "this worker",
                            c->model->name, arch, UNMODELLED[i].why);
    if (!mla_arch(arch, c->rel) && !unserved(arch, c->rel))
        return diag_set(c->diag, KVC_ERR_CONFIG, &o,
                        "%s (%s): SGLang %s does not run this architecture as an MLA model (the MLA architectures: %s), "
                        "so it would give it another KV cache or refuse it at model load; kvcheck cannot judge this "
                        "worker",
                        c->model->name, arch, SGLANG_VERSIONS[c->rel], MLA_ARCHS_CITE);
    return KVC_OK;
}

/* 1 when the release's KV4 checks take the worker's KV dtype down their MHA
 * branch (a KV4 row of K_MHA_BACKEND names it). Pure. */
static int kv4_mha_checked(const ctx *c)
{
    for (size_t i = 0; i < COUNT_OF(KV4); i++)
        if (KV4[i].test == K_MHA_BACKEND && in_span(c->rel, KV4[i].when) && word_in(c->dtype, KV4[i].dtypes)) return 1;
    return 0;
}

/* The model class SGLang loads, first thing in the model runner. A release
 * without one takes the model for an MHA model during argument resolution
 * (check_mha_default, and for KV4 dtypes the MHA rows of KV4 on the backend
 * mha_backend picks); given an attention backend, a topk, or a KV dtype
 * whose MHA checks kvcheck does not model there, those checks may refuse
 * first, and the refusal says so. */
static kvc_status check_model_class(const ctx *c)
{
    const struct served_row *row = unserved(c->model->architecture, c->rel);
    if (!row) return KVC_OK;
    char msg[400];
    const char *const f[][2] = {{"arch", c->model->architecture}};
    sglang_expand(MODEL_CLASS_MESSAGE, f, COUNT_OF(f), msg, sizeof msg);
    const struct dtype_row *t = torch_row(c, c->dtype);
    const setting *given = mha_input_given(c);
    if (!given && !(t && t->plain_layout) && !(mha_backend(c) && kv4_mha_checked(c)))
        given = &c->set->s[SET_KV_CACHE_DTYPE];
    char hedge[200] = "";
    if (given)
        str_printf(hedge, sizeof hedge, " With %s %s, its MHA argument checks, which kvcheck does not model, may "
                   "refuse first", given->set ? given->flag : "--kv-cache-dtype", given->set ? given->value : c->dtype);
    kvc_origin o;
    origin_set(&o, "", 0, 0, "model");
    return diag_set(c->diag, KVC_ERR_CONFIG, &o,
                    "SGLang %s refuses to start: %s (at model load, %s): SGLang %s has no model class for %s (%s), "
                    "the first is in %s (%s); pass --sglang-version %s or newer.%s",
                    SGLANG_VERSIONS[c->rel], msg, MODEL_CLASS_CITE, SGLANG_VERSIONS[c->rel], c->model->name,
                    c->model->architecture, row->since, row->cite, row->since, hedge);
}

/* SGLang's first stage renames deprecated attention backends in the four
 * attention flags (_handle_deprecated_args): tokenspeed_mla becomes
 * cutedsl_mla, on the prefill side (cutedsl_mla being decode-only)
 * trtllm_mla; named by --attention-backend or the decode side, it also sets
 * --kv-cache-dtype fp8_e4m3 and, with a speculative algorithm, a
 * --speculative-attention-mode of prefill to decode. */
static const struct backend_alias {
    span when;
    const char *old, *renamed, *prefill; /* prefill: what the prefill side becomes */
    const char *cite;
} BACKEND_ALIASES[] = {
    {SINCE("0.5.23"), "tokenspeed_mla", "cutedsl_mla", "trtllm_mla",
     "sglang 0.5.23: python/sglang/srt/arg_groups/serving_hook.py:303-335"},
};
static const setting_key ALIASED[] = {SET_ATTENTION_BACKEND, SET_DECODE_ATTENTION_BACKEND,
                                      SET_PREFILL_ATTENTION_BACKEND, SET_SPEC_DRAFT_ATTN};

/* The BACKEND_ALIASES row renaming one of `set`'s attention flags, or NULL. Pure. */
static const struct backend_alias *backend_alias(const settings *set, unsigned rel)
{
    for (size_t i = 0; i < COUNT_OF(BACKEND_ALIASES); i++)
        for (size_t k = 0; in_span(rel, BACKEND_ALIASES[i].when) && k < COUNT_OF(ALIASED); k++)
            if (set->s[ALIASED[k]].set && strcmp(set->s[ALIASED[k]].value, BACKEND_ALIASES[i].old) == 0)
                return &BACKEND_ALIASES[i];
    return NULL;
}

/* Sets `s` to `value` as SGLang's rename `a` of the flag `by` does. */
static void alias_set(setting *s, setting_key key, const char *value, const setting *by, unsigned rel)
{
    const char *flag = setting_flag(key, rel);
    s->set = 1;
    str_copy(s->value, sizeof s->value, value);
    str_copy(s->flag, sizeof s->flag, flag ? flag : "");
    s->origin = by->origin;
    str_printf(s->origin.where, sizeof s->origin.where, "which %s %s sets", by->flag, by->value);
}

/* `set` with row `a`'s renames applied, saying so among its warnings. */
static void apply_alias(settings *set, const struct backend_alias *a, unsigned rel)
{
    const setting *implied = NULL; /* the flag that asks for FP8 KV */
    for (size_t k = 0; k < COUNT_OF(ALIASED); k++) {
        setting *s = &set->s[ALIASED[k]];
        if (!s->set || strcmp(s->value, a->old) != 0) continue;
        int prefill = ALIASED[k] == SET_PREFILL_ATTENTION_BACKEND;
        notes_add(set->warnings, &set->nwarnings, SETTINGS_MAX_WARNINGS, "%s %s: SGLang %s reads it as %s, a deprecated "
                  "alias (%s)", s->flag, a->old, SGLANG_VERSIONS[rel], prefill ? a->prefill : a->renamed, a->cite);
        if (!implied && (ALIASED[k] == SET_ATTENTION_BACKEND || ALIASED[k] == SET_DECODE_ATTENTION_BACKEND))
            implied = s;
        str_copy(s->value, sizeof s->value, prefill ? a->prefill : a->renamed);
    }
    if (!implied) return;
    setting by = *implied;
    str_copy(by.value, sizeof by.value, a->old);
    setting *dtype = &set->s[SET_KV_CACHE_DTYPE], *mode = &set->s[SET_SPEC_ATTN_MODE];
    if (!dtype->set || strcmp(dtype->value, "fp8_e4m3") != 0) {
        notes_add(set->warnings, &set->nwarnings, SETTINGS_MAX_WARNINGS, "%s %s: SGLang %s sets --kv-cache-dtype fp8_e4m3%s "
                  "(%s)", by.flag, a->old, SGLANG_VERSIONS[rel], dtype->set ? ", replacing the one given" : "",
                  a->cite);
        alias_set(dtype, SET_KV_CACHE_DTYPE, "fp8_e4m3", &by, rel);
    }
    if (set->s[SET_SPEC_ALGO].set && (!mode->set || strcmp(mode->value, "prefill") == 0))
        alias_set(mode, SET_SPEC_ATTN_MODE, "decode", &by, rel);
}

static kvc_status resolve_settings(const gpu_info *gpu, const model_info *model, const draft_model *draft,
                                   const settings *set, const settings *raw, const cp_state *cp, unsigned release,
                                   kvc_resolved *out, kvc_diag *diag);

/* Resolves the worker from its settings as SGLang's handlers leave them: with the deprecated backend names renamed
 * (BACKEND_ALIASES) and what prefill context parallelism sets (cp.c), both before the handlers that read them. */
kvc_status rules_resolve(const gpu_info *gpu, const model_info *model, const draft_model *draft, const settings *set,
                         unsigned release, kvc_resolved *out, kvc_diag *diag)
{
    const struct backend_alias *a = backend_alias(set, release);
    int dsa = model->index_topk && arch_dsa(model->architecture, release);
    cp_state cp;
    cp_settle(set, model, release, dsa, rules_arch_defaults(model->architecture, release), &cp);
    if (!a && !cp_rewrites(&cp)) return resolve_settings(gpu, model, draft, set, set, &cp, release, out, diag);
    settings *given = malloc(sizeof *given);
    if (!given) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    memcpy(given, set, sizeof *given);
    if (a) apply_alias(given, a, release);
    if (cp_rewrites(&cp)) cp_apply(given, &cp, release);
    kvc_status st = resolve_settings(gpu, model, draft, given, set, &cp, release, out, diag);
    free(given);
    return st;
}

static kvc_status resolve_settings(const gpu_info *gpu, const model_info *model, const draft_model *draft,
                                   const settings *set, const settings *raw, const cp_state *cp, unsigned release,
                                   kvc_resolved *out, kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    str_copy(out->engine, sizeof out->engine, "sglang");
    str_copy(out->release, sizeof out->release, SGLANG_VERSIONS[release]);
    str_copy(out->release_source, sizeof out->release_source,
             "SGLang's own code of that release, read from PyPI (tools/sglang-oracle/ERAS.md) and replayed in "
             "tests/conformance/sglang");
    out->gpu = *gpu;
    out->model = *model;
    ctx c = {.rel = release, .gpu = gpu, .model = model, .draft = draft, .set = set, .raw = raw, .out = out,
             .diag = diag, .cp = *cp};
    settle_decode(&c);
    c.mdtype = model_dtype(release, model->architecture, &set->s[SET_MODEL_DTYPE], model, c.mdtype_why,
                           sizeof c.mdtype_why);
    c.dsa = model->index_topk && arch_dsa(model->architecture, release);
    c.defaults = c.dsa && rules_arch_defaults(model->architecture, release);
    quant_settle(&c);
    kvc_status st;
    if ((st = a2a_check(&c, A2A_EARLY))) return st; /* MegaMoE's compatibility, first in 0.5.21+'s resolution */
    if ((st = media_check(&c))) return st; /* handle_media_url_security, next but one */
    if ((st = watermark_check(&c, WATERMARK_LOAD))) return st; /* handle_watermark_config, right after it */
    if ((st = early_check(&c))) return st;                     /* the single-flag checks that follow */
    if (c.quant.early && (c.quant.how == QUANT_REFUSED || c.quant.how == QUANT_UNJUDGED)) return quant_check_loader(&c);
    quant_auto_kv_dtype(&c);
    out->model.dsa = c.dsa;
    out->nignored = set->nignored;
    memcpy(out->ignored, set->ignored, sizeof out->ignored);
    for (unsigned i = 0; i < set->nwarnings; i++)
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES, "%s", set->warnings[i]);
    c.hybrid = hybrid_row(model->architecture, release);
    out->attn_layers = model->num_hidden_layers;
    int dsv4 = rules_dsv4(model->architecture, release);
    add_settings(c.dsa, c.hybrid != NULL, dsv4, out);
    str_copy(out->row.name, sizeof out->row.name, "row");
    str_copy(out->draft_row.name, sizeof out->draft_row.name, "draft_row");
    resolve_hisparse_setting(&set->s[SET_HISPARSE], out);
    describe_parallelism(set, out);

    st = check_modelled(&c);
    if (!st) st = check_unmodelled(&c, dsv4);
    if (!st) st = cp_check(&c, CP_EARLY);
    if (!st) st = grpc_check(&c, GRPC_BEFORE_PD);
    if (!st) st = resolve_mode(&c);
    if (!st) st = resolve_allocation_policy(&c); /* the hook's order */
    if (!st) st = resolve_host_receive(&c);
    if (!st) st = check_pd_decode(&c, 0);
    if (!st) st = resolve_transfer(&c);
    if (!st) st = check_staging_backend(&c);
    if (!st) st = check_rust_bootstrap(&c); /* the PD hook's, before role switching's */
    if (!st) st = check_role_switch(&c);
    if (!st) st = prefill_only_flags(&c); /* after the PD hook, before the model's adjustments */
    if (!st) st = grpc_check(&c, GRPC_AFTER_PD);
    if (!st) st = run_dcp_rules(&c, DCP_VALIDATION, COUNT_OF(DCP_VALIDATION));
    if (!st && dsv4) st = dsv4_resolve(&c);
    if (!st && dsv4) st = check_int8_mamba(&c);
    if (!st && dsv4) st = prefill_only_backend(&c, "dsv4"); /* the attention backend its hook sets */
    if (!st && dsv4) st = check_hicache_layout(&c);
    if (!st && dsv4) st = check_attention_dp(&c);
    if (!st && dsv4) st = quant_check_moe_runner(&c);
    if (!st && dsv4) st = a2a_check(&c, A2A_HANDLER);
    if (!st && dsv4) st = check_pd_decode(&c, 1); /* 0.5.23's speculative hook, which begins with it */
    if (!st && dsv4) st = spec_hook_check(&c, SPEC_HOOK_EARLY);
    if (!st && dsv4) st = check_spec_params(&c); /* the speculative handler's, after the hook's top-k of 1 */
    if (!st && dsv4) st = model_only_check(&c, MODEL_ONLY_SPEC);
    if (!st && dsv4) st = model_only_check(&c, MODEL_ONLY_ENCODER);
    if (!st && dsv4) st = server_check(&c, SERVER_TOKENIZERS);
    if (!st && dsv4) st = check_cache_compatibility(&c);
    if (!st && dsv4) st = check_page_major(&c, 1);
    if (!st && dsv4) st = check_optimistic_prefill(&c);
    if (!st && dsv4) st = model_only_check(&c, MODEL_ONLY_CAPABILITY);
    if (!st && dsv4) st = a2a_check(&c, A2A_LAST);
    if (!st && dsv4) st = check_server_args(&c);
    if (!st && dsv4) st = address_check(&c); /* when the engine starts */
    if (!st && dsv4) st = a2a_check(&c, A2A_SCHEDULER);
    if (!st && dsv4) st = quant_check_kernels(&c, KERNEL_SCHEDULER);
    if (!st && dsv4) st = a2a_check(&c, A2A_RUNNER);              /* the model runner's initialize */
    if (!st && dsv4) st = model_only_check(&c, MODEL_ONLY_LOAD); /* the model's load */
    if (!st && dsv4) st = quant_check_startup_load(&c);
    if (!st && dsv4) st = quant_check_loader(&c);                 /* at model load */
    if (!st && dsv4) st = quant_check_kernels(&c, KERNEL_MODEL);  /* building the model */
    if (!st && dsv4) st = quant_check_torchao(&c);                /* then torchao's quantization */
    if (!st && dsv4) st = lora_manager_check(&c);                 /* after the model's load */
    if (!st && dsv4) st = dsv4_pool_check(&c);   /* then its pool */
    if (!st && dsv4) st = decline_fi_a2a(&c); /* the model runner's warm-up */
    if (!st && dsv4) st = check_startup(&c, 1);
    if (dsv4) return st ? st : decline_dcp(&c);
    if (!st) st = run_dcp_rules(&c, DSA_DCP, COUNT_OF(DSA_DCP)); /* the DeepSeek family's, before the dtype */
    if (!st) st = topk_check_tbo(&c, 0); /* the DeepSeek family's, around its prefill CP section */
    if (!st) st = check_attn_dp_zero(&c);
    if (!st) st = cp_check(&c, CP_MODEL);
    if (!st) st = topk_check_tbo(&c, 1);
    if (!st) st = resolve_dtype(&c);
    if (st) return st;
    c.fp8 = strcmp(c.dtype, "fp8_e4m3") == 0;
    if (c.dsa && !c.defaults)
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                  "SGLang %s takes %s as DSA but applies no DSA defaults to it (not in its DeepSeek family list): "
                  "the KV dtype, the DSA backends and the page size stay as given",
                  SGLANG_VERSIONS[release], model->architecture);
    if (c.dsa && (st = resolve_backends(&c))) return st;
    if ((st = cp_check(&c, CP_MODEL_DECODE))) return st;
    if ((st = resolve_attention(&c))) return st;
    if ((st = check_mha_default(&c))) return st;
    if ((st = check_int8_mamba(&c))) return st; /* after the attention and mamba backends' handlers */
    if ((st = check_kv4(&c, 0))) return st;
    const char *attention = hook_attention_backend(&c);
    if ((st = prefill_only_backend(&c, attention ? attention : ""))) return st; /* after the attention backends */
    if ((st = check_hicache_layout(&c))) return st; /* handle_hicache: before the speculative hook */
    if ((st = check_attention_dp(&c))) return st;   /* the data parallelism handler */
    if ((st = cp_check(&c, CP_HANDLER))) return st;  /* after the data parallelism handler */
    if ((st = quant_check_moe_runner(&c))) return st; /* after the hicache and data parallelism handlers */
    if ((st = a2a_check(&c, A2A_HANDLER))) return st;  /* the all-to-all handler, then EPLB */
    if ((st = check_pd_decode(&c, 1))) return st; /* 0.5.23's speculative hook */
    if ((st = spec_hook_check(&c, SPEC_HOOK_EARLY))) return st;
    if ((st = check_standalone_dp(&c))) return st;
    if ((st = resolve_page_size(&c))) return st;
    if ((st = check_spec_params(&c))) return st;
    if ((st = check_pd_handler(&c))) return st; /* up to 0.5.9, after the speculative handler */
    if ((st = resolve_speculative(&c))) return st;
    if ((st = model_only_check(&c, MODEL_ONLY_SPEC))) return st; /* LayerNorm SP, right after the speculative hook */
    if ((st = a2a_check(&c, A2A_BUDGET))) return st; /* the token budgets, after speculative decoding */
    if ((st = model_only_check(&c, MODEL_ONLY_ENCODER))) return st; /* the encoder disaggregation handler */
    if ((st = server_check(&c, SERVER_TOKENIZERS))) return st;      /* the tokenizer batching handler */
    if ((st = check_cache_compatibility(&c))) return st;
    if ((st = server_check(&c, SERVER_AFTER_CACHE))) return st; /* up to 0.5.6.post2, the metrics handlers */
    if ((st = check_page_major(&c, 0))) return st;
    if ((st = check_optimistic_prefill(&c))) return st;
    if ((st = model_only_check(&c, MODEL_ONLY_CAPABILITY))) return st; /* after the other validations */
    if ((st = a2a_check(&c, A2A_LAST))) return st;
    warn_platform(&c);
    cp_note_inert(&c);
    cp_note_decode(&c);
    if (c.dsa) {
        setting_set(rules_get(out, "dsa_prefill_backend"), c.backend[PREFILL], "%s", c.backend_why[PREFILL]);
        setting_set(rules_get(out, "dsa_decode_backend"), c.backend[DECODE], "%s", c.backend_why[DECODE]);
        setting_origin(rules_get(out, "dsa_prefill_backend"), c.backend_from[PREFILL]);
        setting_origin(rules_get(out, "dsa_decode_backend"), c.backend_from[DECODE]);
    } else {
        for (int k = SET_PREFILL_BACKEND; k <= SET_DECODE_BACKEND; k++)
            if (set->s[k].set)
                notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES, "%s has no effect: SGLang %s does not take "
                          "%s as a DSA model", set->s[k].flag, SGLANG_VERSIONS[release], model->architecture);
    }
    if ((st = check_server_args(&c))) return st;
    if ((st = address_check(&c))) return st; /* PortArgs when the engine starts, then the schedulers' parse */
    if ((st = a2a_check(&c, A2A_SCHEDULER))) return st; /* the scheduler's MoE config, before its model worker */
    if ((st = quant_check_kernels(&c, KERNEL_SCHEDULER))) return st; /* then its GEMM config */
    if ((st = check_runner_attention(&c))) return st; /* ModelRunner.__init__, before it loads the model */
    if ((st = a2a_check(&c, A2A_RUNNER))) return st;              /* its initialize: the LP dispatch's solvers */
    if ((st = model_only_check(&c, MODEL_ONLY_LOAD))) return st; /* its load, before the architecture */
    if ((st = quant_check_startup_load(&c))) return st;           /* then its loader, overlapped or not */
    if ((st = check_model_class(&c))) return st;
    if ((st = quant_check_loader(&c))) return st;
    if ((st = quant_check_kernels(&c, KERNEL_MODEL))) return st; /* building the model: its kernels' flags */
    if ((st = quant_check_torchao(&c))) return st; /* the loaded model quantized with torchao */
    if ((st = lora_manager_check(&c))) return st; /* after the model's load, before its KV dtype */
    if ((st = check_dtype_mapping(&c, c.dtype, &set->s[SET_KV_CACHE_DTYPE]))) return st;
    const struct dtype_row *t = torch_row(&c, c.dtype);
    if (!t || (!t->plain_layout && !t->fp4)) {
        const setting *s = &set->s[SET_KV_CACHE_DTYPE];
        return diag_set(diag, KVC_ERR_CONFIG, &s->origin,
                        "--kv-cache-dtype %s: kvcheck does not model this KV dtype's MLA layout on %s under SGLang "
                        "%s, so it cannot judge this worker", c.dtype, gpu->name, SGLANG_VERSIONS[release]);
    }
    if (t->fp4) {
        if ((st = fp4_pool(&c, c.dtype, &out->row))) return st;
        out->has_scales = 1;
        out->scales_left = FP4_TRANSFER_CITE;
    } else {
        decide_row(&c, c.dtype, c.dsa, &out->row);
    }
    if ((st = check_hisparse_swap(&c))) return st; /* the HiSparse coordinator, after the KV pool */
    if ((st = check_init(&c))) return st;
    if ((st = check_attention_build(&c))) return st;
    if (c.hybrid && ((st = decline_int8_store(&c)) || (st = resolve_hybrid(&c)))) return st;
    /* the draft worker starts after the target's model runner (its checks come after the target's) */
    if (separate_draft(out) && (st = resolve_draft_model(&c, resolved_value(out, "speculative_algorithm"))))
        return st;
    if ((st = check_draft_worker(&c))) return st;
    if ((st = resolve_draft(&c))) return st;
    if ((st = derive_layouts(model, out, diag))) return st;
    count_indexer(&c);
    if ((st = decline_fi_a2a(&c))) return st; /* the model runner's warm-up */
    if ((st = check_startup(&c, 0))) return st;
    return decline_dcp(&c);
}

/* ------------------------------------------------------------------ eras */

/* The releases this file's code tests by version (rel_since, rel_until),
 * as spans: a release where one starts or stops begins an era (test_rules
 * checks none is missing). */
static const span VERSION_TESTS[] = {
    SINCE("0.5.4.post1"), SINCE("0.5.6"), SINCE("0.5.6.post2"), SINCE("0.5.7"), SINCE("0.5.9"), SINCE("0.5.10"),
    SINCE("0.5.11"), SINCE("0.5.12"), SINCE("0.5.13"), SINCE("0.5.14"), SINCE("0.5.18"), SINCE("0.5.21"),
    SINCE("0.5.22"), SINCE("0.5.23"), UNTIL("0.5.5.post3"), UNTIL("0.5.6.post1"), UNTIL("0.5.7"),
    UNTIL("0.5.8.post1"), UNTIL("0.5.11"), UNTIL("0.5.12.post1"), UNTIL("0.5.13.post1"), UNTIL("0.5.17"),
    UNTIL("0.5.19"),
};

/* Every span of the rule tables: rules.c's, quant.c's and pd.c's, with
 * the version tests of their code; for eras and the table check. */
#define RULE_SPANS(X)                                                                                                  \
    X(ARCHS, dsa) X(ARCHS, defaults) X(DSA_DTYPE, when) X(FIELD_DEFAULTS, when) X(DEFAULTS, when) X(CHECKS, when)      \
    X(HISPARSE, when) X(PAGES, when) X(RAW, when) X(BACKENDS, offered) X(INIT, when) X(ATTN_DEFAULTS, when)            \
    X(ATTN_RULES, when) X(UNMODELLED_ATTN, when) X(DTYPE_BACKENDS, when) X(HISPARSE_MODEL, when) X(PD_DECODE, when)    \
    X(DRAFT_ARCHS, when) X(MLA_RUNNER_BACKENDS, when) X(FACTORY_RULES, when) X(LMCACHE_RULES, when)                \
    X(HICACHE_DECODE, when) X(DRAFT_WORKER_BACKENDS, when) X(HYBRID, when) X(MHA_DEFAULTS, when)                   \
    X(DTYPE_ALIASES, when) X(KV4, when) X(DTYPE_REFUSALS, when)                                                        \
    X(MLA_DEFAULTS, when) X(NVFP4_PREFILL, when) X(CACHE_RULES, when) X(DSA_DCP, when) X(DCP_VALIDATION, when)        \
    X(DRAFT_LAYERS, when) X(MODEL_DTYPE_OVERRIDES, when) X(HISPARSE_COMBOS, when) X(MHA_BACKENDS, when)               \
    X(PAGE_MAJOR, when) X(LINKER_RULES, when) X(INT8_MAMBA_RULES, when)                                                \
    X(DECODE_SKIP, when) X(DSA_ASSERT, when) X(PAGE_TREE, when) X(AUTO_TOPK, when) X(TRTLLM_MHA_TOPK, when) X(BACKEND_ALIASES, when)

/* Puts up to `max` of the spans in `out`; returns how many there are. */
static size_t rule_spans(span *out, size_t max)
{
    size_t n = 0;
#define COLLECT(table, field) SPAN_EACH(table, table[i].field);
    RULE_SPANS(COLLECT)
#undef COLLECT
    SPAN_EACH(MLA_ARCHS, ((span){MLA_ARCHS[i].since, NULL}));
    SPAN_EACH(SERVED, ((span){SERVED[i].since, NULL}));
    SPAN_EACH(VERSION_TESTS, VERSION_TESTS[i]);
    n += quant_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += cp_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += chunk_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += a2a_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += server_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += grpc_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += lora_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += media_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += watermark_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += spec_hook_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += early_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += model_only_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += lm_head_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += publish_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += prefill_only_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += dsv4_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += pd_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    n += delayer_spans(out + (n < max ? n : max), n < max ? max - n : 0);
    return n;
}

#define MAX_SPANS 1024 /* room for rule_spans' list; rules_tables_valid fails when it has more */

/* 1 when releases `a` and `b` meet the same rows: every one of the `n`
 * spans holds for both or for neither. Pure. */
static int same_rules(const span *spans, size_t n, unsigned a, unsigned b)
{
    for (size_t i = 0; i < n; i++)
        if (in_span(a, spans[i]) != in_span(b, spans[i])) return 0;
    return 1;
}

const char *rules_release_era(unsigned rel)
{
    span spans[MAX_SPANS];
    size_t n = rule_spans(spans, MAX_SPANS);
    n = n < MAX_SPANS ? n : MAX_SPANS;
    unsigned oldest = rel;
    while (oldest + 1 < SGLANG_NRELEASES && same_rules(spans, n, rel, oldest + 1)) oldest++;
    return SGLANG_VERSIONS[oldest];
}

/* 1 when every version a table names is one of SGLANG_VERSIONS (test_rules). */
int rules_tables_valid(void)
{
    span spans[MAX_SPANS];
    size_t n = rule_spans(spans, MAX_SPANS);
    if (n > MAX_SPANS) return 0; /* eras would lose rows */
    for (size_t i = 0; i < n; i++)
        if ((spans[i].since && sglang_release_index(spans[i].since) < 0) ||
            (spans[i].until && strcmp(spans[i].until, "never") && sglang_release_index(spans[i].until) < 0))
            return 0;
    return 1;
}
