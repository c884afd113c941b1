"""Print the parser's definition of the flags that matter, for one release.
usage: python3 flags.py VERSION > flagdump/VERSION.json"""
import argparse, json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import Oracle

ver = sys.argv[1]
p = Oracle(ver, "H200").parser
want = ("kv-cache-dtype", "nsa", "dsa-", "hisparse", "page-size", "disaggregation-mode", "disaggregation-transfer-backend",
        "speculative-draft-kv-cache-dtype", "speculative-algorithm", "attention-backend")
rows = {}
for a in p._actions:
    for o in a.option_strings:
        if any(w in o for w in want) and not any(x in o for x in ("context-parallel", "cp-mode", "topk", "paged-mqa", "triton-union", "fused-indexer", "cache-layer-split", "hisparse-config")):
            rows[o] = {"dest": a.dest, "choices": list(a.choices) if a.choices else None, "nargs": a.nargs,
                       "default": None if a.default is argparse.SUPPRESS else a.default, "action": type(a).__name__}
print(json.dumps({"version": ver, "n_options": sum(len(a.option_strings) for a in p._actions), "flags": rows}, default=str))
