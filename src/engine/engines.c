/* The engines kvcheck models (one row per folder under src/engine/), and
 * the resolved worker's settings table every engine fills. */
#include "engine/engine.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const engine_def *const ENGINES[] = {&ENGINE_SGLANG};

const engine_def *engine_at(unsigned i) { return i < COUNT_OF(ENGINES) ? ENGINES[i] : NULL; }

const engine_def *engine_default(void) { return ENGINES[0]; }

const engine_def *engine_find(const char *name)
{
    for (size_t i = 0; i < COUNT_OF(ENGINES); i++)
        if (strcmp(ENGINES[i]->name, name) == 0) return ENGINES[i];
    return NULL;
}

int engine_release_index(const engine_def *e, const char *name)
{
    for (unsigned i = 0; i < e->nreleases; i++)
        if (strcmp(e->releases[i], name) == 0) return (int)i;
    return -1;
}

const char *kvc_engine_release_era(const char *name, unsigned i)
{
    const engine_def *e = name ? engine_find(name) : engine_default();
    return e && i < e->nreleases ? e->release_era(i) : NULL;
}

const char *kvc_engine_release(const char *name, unsigned i)
{
    const engine_def *e = name ? engine_find(name) : engine_default();
    return e && i < e->nreleases ? e->releases[i] : NULL;
}

/* --------------------------------------------------------------- settings */

kvc_setting *resolved_add(kvc_resolved *r, const char *name, kvc_value_type type, unsigned flags)
{
    if (r->nsettings >= ENGINE_MAX_SETTINGS) return NULL;
    kvc_setting *s = &r->settings[r->nsettings++];
    memset(s, 0, sizeof *s);
    str_copy(s->name, sizeof s->name, name);
    s->type = type;
    s->flags = flags;
    return s;
}

void setting_set(kvc_setting *s, const char *value, const char *fmt, ...)
{
    if (!s) return;
    str_copy(s->value, sizeof s->value, value);
    if (s->type == KVC_VALUE_UINT) s->number = strtoull(value, NULL, 10);
    if (s->type == KVC_VALUE_BOOL) s->number = strcmp(value, "true") == 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->reason, sizeof s->reason, fmt, ap);
    va_end(ap);
}

void setting_origin(kvc_setting *s, const kvc_origin *origin)
{
    if (!s || !origin) return;
    str_copy(s->file, sizeof s->file, origin->file);
    s->line = origin->line;
    s->column = origin->column;
}

const kvc_setting *resolved_find(const kvc_resolved *r, const char *name)
{
    for (unsigned i = 0; i < r->nsettings; i++)
        if (strcmp(r->settings[i].name, name) == 0) return &r->settings[i];
    return NULL;
}

const char *resolved_value(const kvc_resolved *r, const char *name)
{
    const kvc_setting *s = resolved_find(r, name);
    return s ? s->value : "";
}

const char *resolved_dtype(const kvc_resolved *r)
{
    const char *v = "";
    for (unsigned i = 0; i < r->nsettings; i++)
        if ((r->settings[i].flags & KVC_SETTING_DTYPE) && r->settings[i].value[0]) v = r->settings[i].value;
    return v;
}

int state_sizes_compare(const kvc_resolved *p, const kvc_resolved *d)
{
    if (!p->nstate || p->nstate != d->nstate || p->state_tp != d->state_tp) return 0;
    for (unsigned i = 0; i < p->nstate; i++)
        if (strcmp(p->state[i].name, d->state[i].name) != 0) return 0;
    return 1;
}
