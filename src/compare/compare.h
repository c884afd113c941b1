/* compare: two resolved workers field by field, what decode reads, whether
 * the engine notices, and the fixes. */
#ifndef KVC_COMPARE_H
#define KVC_COMPARE_H

#include "worker/worker.h"

#endif /* KVC_COMPARE_H */
