/* SGLang logs: the input is the log, read for its start-up server_args line
 * (kvc_recipe_load), its worker loaded, resolved and rendered. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_recipe(fz_write("worker.log", data, size));
    fz_cleanup();
    return 0;
}
