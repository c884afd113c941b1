"""Write the ModelOpt checkpoint variants matrix.py --modelopt runs (the
conformance models MODELOPT_*) into tests/conformance/sglang/models (or DIR):
DeepSeek-V3's and -V3.2's NVFP4 configs and GLM-5's with their
quantization_config changed one way each: quant_algo spelled otherwise,
other algorithms, KV algorithms and schemes (objects, strings, a
number), no or null fields, the
method's name capitalised, a float16 model, a group size only in
config_groups.

usage: python3 modelopt_variants.py [DIR]
"""
import copy, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "..", "tests", "conformance", "sglang", "models")
DROP = object()  # the key is left out
NVFP4 = {"quant_method": "modelopt", "quant_algo": "NVFP4", "kv_cache_quant_algo": "FP8", "group_size": 16,
         "exclude_modules": ["lm_head"]}
SCHEME = {"type": "float", "num_bits": 8}

# name -> (changes to NVFP4's quantization_config, changes to the config's top level)
VARIANTS = {
    "ALGO_LOWER": ({"quant_algo": "nvfp4"}, {}),
    "NVFP4_AWQ": ({"quant_algo": "NVFP4_AWQ"}, {}),
    "W4A16_NVFP4": ({"quant_algo": "W4A16_NVFP4"}, {}),
    "MXFP8": ({"quant_algo": "MXFP8", "group_size": DROP}, {}),
    "MIXED_PRECISION": ({"quant_algo": "MIXED_PRECISION"}, {}),
    "FP8_PB_WO": ({"quant_algo": "FP8_PB_WO", "group_size": DROP}, {}),
    "FP8_LOWER": ({"quant_algo": "fp8", "group_size": DROP}, {}),
    "FP4": ({"quant_algo": "FP4"}, {}),
    "KV_LOWER": ({"kv_cache_quant_algo": "fp8"}, {}),
    "KV_NVFP4": ({"kv_cache_quant_algo": "NVFP4"}, {}),
    "KV_NULL": ({"kv_cache_quant_algo": None}, {}),
    "NO_GROUP_SIZE": ({"group_size": DROP}, {}),
    "IGNORE_NULL": ({"exclude_modules": DROP, "ignore": None}, {}),
    "NO_ALGO": ({"quant_algo": DROP}, {}),
    "ALGO_NULL": ({"quant_algo": None}, {}),
    "KV_SCHEME": ({"kv_cache_quant_algo": DROP, "kv_cache_scheme": SCHEME}, {}),
    "KV_SCHEME_AND_ALGO": ({"kv_cache_scheme": SCHEME}, {}),
    "METHOD_CAPITALISED": ({"quant_method": "ModelOpt"}, {}),
    "FP8": ({"quant_algo": "FP8", "group_size": DROP}, {}),
    "FP8_NO_KV": ({"quant_algo": "FP8", "group_size": DROP, "kv_cache_quant_algo": DROP}, {}),
    "FP8_KV_NVFP4": ({"quant_algo": "FP8", "group_size": DROP, "kv_cache_quant_algo": "NVFP4"}, {}),
    "FLOAT16": ({}, {"torch_dtype": "float16"}),
    "GROUP_SIZE_IN_GROUPS": ({"group_size": DROP, "config_groups": {"g0": {"weights": {"group_size": 16}}}}, {}),
    # kv_cache_scheme as the config classes read it: a string, another object, a number; ModelOpt's FP8 export
    "KV_SCHEME_STRING": ({"kv_cache_quant_algo": DROP, "kv_cache_scheme": " fp8 "}, {}),
    "KV_SCHEME_STRING_NVFP4": ({"kv_cache_quant_algo": DROP, "kv_cache_scheme": "nvfp4"}, {}),
    "KV_SCHEME_INT": ({"kv_cache_scheme": {"type": "int", "num_bits": 8}}, {}),
    "KV_SCHEME_NUMBER": ({"kv_cache_quant_algo": DROP, "kv_cache_scheme": 8}, {}),
    "FP8_KV_SCHEME": ({"quant_algo": "FP8", "group_size": DROP, "kv_cache_quant_algo": DROP, "kv_cache_scheme": SCHEME},
                      {}),
    "FP8_KV_SCHEME_STRING": ({"quant_algo": "FP8", "group_size": DROP, "kv_cache_scheme": "fp8"}, {}),
}
# base config -> (prefix, the variants made of it)
BASES = {
    "DEEPSEEK_V3_NVFP4": ("MODELOPT_V3_", list(VARIANTS)),
    "DEEPSEEK_V32_NVFP4": ("MODELOPT_V32_", ["ALGO_LOWER", "MXFP8", "FP8", "KV_NVFP4", "KV_SCHEME", "NO_GROUP_SIZE",
                                              "W4A16_NVFP4", "FP8_NO_KV", "NVFP4_AWQ", "FP8_KV_SCHEME"]),
    "GLM5": ("MODELOPT_GLM5_", ["NVFP4", "FP8"]),  # GLM-5 (a DSA model outside DeepSeek V3's SM100 defaults)
}
VARIANTS["NVFP4"] = ({}, {})


def variant(base, name):
    quant_changes, top = VARIANTS[name]
    q = dict(NVFP4)
    q.update(quant_changes)
    d = copy.deepcopy(base)
    d["quantization_config"] = {k: v for k, v in q.items() if v is not DROP}
    d.update(top)
    return d


def names():
    """The variants' model names, in the order matrix.py runs them."""
    return [prefix + v for prefix, vs in BASES.values() for v in vs]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else MODELS
    for base, (prefix, vs) in BASES.items():
        with open(os.path.join(MODELS, base + ".json")) as f:
            cfg = json.load(f)
        for v in vs:
            with open(os.path.join(out, prefix + v + ".json"), "w") as f:
                json.dump(variant(cfg, v), f, indent=1)
                f.write("\n")


if __name__ == "__main__":
    main()
