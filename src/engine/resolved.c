/* The resolved worker's public accessors. */
#include "engine/engine.h"

#include <stdlib.h>

void kvc_resolved_free(kvc_resolved *r) { free(r); }
const char *kvc_resolved_label(const kvc_resolved *r) { return r->label; }
const char *kvc_resolved_engine(const kvc_resolved *r) { return r->engine; }
const char *kvc_resolved_release(const kvc_resolved *r) { return r->release; }
const char *kvc_resolved_release_source(const kvc_resolved *r) { return r->release_source; }

const char *kvc_resolved_gpu(const kvc_resolved *r, unsigned *major, unsigned *minor)
{
    if (major) *major = r->gpu.major;
    if (minor) *minor = r->gpu.minor;
    return r->gpu.name;
}

const char *kvc_resolved_model(const kvc_resolved *r) { return r->model.name; }
unsigned kvc_resolved_setting_count(const kvc_resolved *r) { return r->nsettings; }
const kvc_setting *kvc_resolved_setting(const kvc_resolved *r, unsigned i)
{
    return i < r->nsettings ? &r->settings[i] : NULL;
}
const kvc_setting *kvc_resolved_find(const kvc_resolved *r, const char *name) { return resolved_find(r, name); }
const kvc_setting *kvc_resolved_decision(const kvc_resolved *r) { return &r->row; }
const kvc_layout *kvc_resolved_layout(const kvc_resolved *r) { return &r->kv; }
const kvc_layout *kvc_resolved_indexer(const kvc_resolved *r) { return r->has_indexer ? &r->indexer : NULL; }
const kvc_layout *kvc_resolved_scales(const kvc_resolved *r) { return r->has_scales ? &r->scales : NULL; }
const kvc_layout *kvc_resolved_draft_layout(const kvc_resolved *r) { return r->draft_entries ? &r->draft : NULL; }
uint32_t kvc_resolved_entries(const kvc_resolved *r) { return r->kv_entries; }
uint32_t kvc_resolved_draft_model(const kvc_resolved *r, uint64_t item_len[2])
{
    for (int k = 0; item_len && k < 2; k++) item_len[k] = (uint64_t)r->kv.page_size * r->draft_model_bytes[k];
    return r->draft_model_layers;
}
uint32_t kvc_resolved_attn_layers(const kvc_resolved *r) { return r->attn_layers; }
uint32_t kvc_resolved_state_layers(const kvc_resolved *r) { return r->state_layers; }
const char *kvc_resolved_state(const kvc_resolved *r, unsigned i, uint64_t *item_len)
{
    if (i >= r->nstate) return NULL;
    if (item_len) *item_len = r->state[i].item_len;
    return r->state[i].name;
}
unsigned kvc_resolved_warning_count(const kvc_resolved *r) { return r->nwarnings; }
const char *kvc_resolved_warning(const kvc_resolved *r, unsigned i) { return i < r->nwarnings ? r->warnings[i] : NULL; }
unsigned kvc_resolved_ignored_count(const kvc_resolved *r) { return r->nignored; }
const char *kvc_resolved_ignored(const kvc_resolved *r, unsigned i) { return i < r->nignored ? r->ignored[i] : NULL; }
