/* A stand-in libcuda.so.1 for `kvcheck --gpu auto` end to end on machines
 * without a GPU (tests/cli/check_gpu_auto.sh puts it on LD_LIBRARY_PATH).
 * It answers the calls that name the first GPU from the environment:
 * FAKE_CUDA_NAME (the name nvidia-smi prints), FAKE_CUDA_CC ("10.3"),
 * FAKE_CUDA_COUNT (devices, default 1), FAKE_CUDA_INIT (cuInit's result).
 * Every other entry point exists and fails, so nothing else can use it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int result;

static int env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

static result version(int *v) { return *v = 12080, 0; }
static result init(unsigned flags) { return (void)flags, env_int("FAKE_CUDA_INIT", 0); }
static result count(int *n) { return *n = env_int("FAKE_CUDA_COUNT", 1), 0; }
static result get(int *d, int ordinal) { return *d = ordinal, 0; }
static result name(char *out, int len, int d)
{
    (void)d;
    const char *v = getenv("FAKE_CUDA_NAME");
    snprintf(out, (size_t)len, "%s", v ? v : "NVIDIA Fake");
    return 0;
}
static result attribute(int *v, int attr, int d)
{
    (void)d;
    const char *cc = getenv("FAKE_CUDA_CC");
    const char *dot = cc ? strchr(cc, '.') : NULL;
    *v = attr == 75 ? (cc ? atoi(cc) : 9) : attr == 76 ? (dot ? atoi(dot + 1) : 0) : 0;
    return 0;
}
static result error_name(result e, const char **out) { return *out = e == 100 ? "CUDA_ERROR_NO_DEVICE" : NULL, 0; }
static result error_string(result e, const char **out) { return *out = e == 100 ? "no CUDA-capable device is detected" : NULL, 0; }
static result unsupported(void) { return 801; /* CUDA_ERROR_NOT_SUPPORTED */ }

static const struct {
    const char *name;
    void (*fn)(void);
} TABLE[] = {
    {"cuDriverGetVersion", (void (*)(void))version}, {"cuInit", (void (*)(void))init},
    {"cuDeviceGetCount", (void (*)(void))count},     {"cuDeviceGet", (void (*)(void))get},
    {"cuDeviceGetName", (void (*)(void))name},       {"cuDeviceGetAttribute", (void (*)(void))attribute},
    {"cuGetErrorName", (void (*)(void))error_name},  {"cuGetErrorString", (void (*)(void))error_string},
};

result cuGetProcAddress_v2(const char *symbol, void **fn, int version_wanted, unsigned long long flags, int *status);
result cuGetProcAddress_v2(const char *symbol, void **fn, int version_wanted, unsigned long long flags, int *status)
{
    (void)version_wanted, (void)flags;
    void (*found)(void) = (void (*)(void))unsupported;
    for (size_t i = 0; i < sizeof TABLE / sizeof TABLE[0]; i++)
        if (strcmp(symbol, TABLE[i].name) == 0) found = TABLE[i].fn;
    memcpy(fn, &found, sizeof found);
    if (status) *status = 1;
    return 0;
}
