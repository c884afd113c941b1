/* Files that describe several workers: byte 0 picks the file's name
 * (bits 0-1: recipe.yaml, launch.sh, recipe.yml, recipe with no suffix,
 * so the content decides), the rest is the file: a deployment recipe
 * (Dynamo graph, Kubernetes manifests, srt-slurm recipe) or shell text. */
#include "fuzz.h"

static const char *const NAMES[] = {"recipe.yaml", "launch.sh", "recipe.yml", "recipe"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    fz_recipe(fz_write(NAMES[data[0] & 3], data + 1, size - 1));
    fz_cleanup();
    return 0;
}
