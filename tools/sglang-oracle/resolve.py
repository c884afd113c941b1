"""Run one SGLang release's own code for one worker.

usage: python3 resolve.py VERSION GPU MODEL [--spec] -- <sglang launch flags>
  MODEL: a name in $KVCHECK_SGLANG_MODELS (default tests/conformance/sglang/models/)
  GPU:   one of oracle.GPUS
Prints RESULT {json}: "ok" (resolved kv_cache_dtype, page_size, backends,
row bytes, torch dtype, draft) or "refused" (text as in the tables)."""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import Oracle, load_models, default_model_dir

ver, gpu, model = sys.argv[1:4]
spec = "--spec" in sys.argv[4:sys.argv.index("--")]
argv = sys.argv[sys.argv.index("--") + 1:]
o = Oracle(ver, gpu)
r = o.run(load_models(default_model_dir())[model], argv, spec=spec or "--speculative-algorithm" in argv)
r.update(version=ver, gpu=gpu, model=model, argv=argv, prefill_flag=o.pflag, decode_flag=o.dflag)
print("RESULT " + json.dumps(r, default=str))
