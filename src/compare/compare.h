/* compare: two resolved workers field by field, what decode reads, whether
 * the engine's own check notices, and the fixes. Engine-agnostic: the
 * engine interface supplies settings, fix candidates, bootstrap and transfer. */
#ifndef KVC_COMPARE_H
#define KVC_COMPARE_H

#include "worker/worker.h"

struct kvc_verdict {
    int compatible;
    kvc_resolved prefill;
    kvc_resolved decode;
    unsigned nmismatches;
    kvc_mismatch mismatches[KVC_MAX_MISMATCHES];
    unsigned nconsequences; /* what decode will actually read */
    char consequences[KVC_MAX_NOTES][KVC_NOTE_LEN];
    int bootstrap_catches; /* one of the engine's own checks before serving fails the pair */
    char caught_at[KVC_NAME_LEN]; /* which: "bootstrap", "NIXL handshake", "first state transfer"; "" when none */
    char bootstrap[4 * KVC_NOTE_LEN]; /* the KV checks, then the linear layers' state */
    unsigned nfixes;
    kvc_fix fixes[KVC_MAX_FIXES];
    unsigned nwarnings;
    char warnings[KVC_MAX_NOTES][KVC_NOTE_LEN];
};

/* 1 when both sides have draft entries and a side's draft pool has its own
 * layout: then the draft entries are compared on their own. */
int draft_own_layout(const kvc_resolved *prefill, const kvc_resolved *decode);
/* 1 when both sides' KV rows (and a draft's own rows) are the same bytes. */
int same_rows(const kvc_resolved *prefill, const kvc_resolved *decode);

#endif /* KVC_COMPARE_H */
