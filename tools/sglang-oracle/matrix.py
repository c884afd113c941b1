"""Run one release's own resolution over a matrix of worker settings for one GPU.
usage: python matrix.py VERSION GPU [limit]  -> JSON lines on stdout (prefix ROW )"""
import os
import sys, json, io, contextlib, itertools, time, logging, traceback
ver, gpu = sys.argv[1], sys.argv[2]
sys.argv = [sys.argv[0], ver, gpu, "DEEPSEEK_V32", "--"]
src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "resolve.py")).read().split("out = {")[0]
with contextlib.redirect_stderr(io.StringIO()):
    exec(compile(src, "resolve_head", "exec"))
logging.disable(logging.CRITICAL)
import argparse
p = argparse.ArgumentParser(); sa.ServerArgs.add_cli_args(p)
opts = {o: a for a in p._actions for o in a.option_strings}
def flag(*names):
    for n in names:
        if n in opts: return n
pf = flag("--dsa-prefill-backend", "--nsa-prefill-backend", "--nsa-prefill")
df = flag("--dsa-decode-backend", "--nsa-decode-backend", "--nsa-decode")
backends = [None] + list(opts[pf].choices)
dtypes = [None] + [d for d in opts["--kv-cache-dtype"].choices if d != "auto"]
modes = [None, "prefill", "decode"]
hs = [False, True] if "--enable-hisparse" in opts else [False]
models = ["DEEPSEEK_V32", "GLM5"]
n = 0; t0 = time.time()
for model, dt, pb, db, mode, h in itertools.product(models, dtypes, backends, backends, modes, hs):
    # keep the matrix small: backend pairs only where one side is unset or both equal, plus unset/unset
    if pb is not None and db is not None and pb != db: continue
    if dt not in (None, "bf16", "bfloat16", "fp8_e4m3", "fp8_e5m2") and (pb or db): continue
    argv = ["--model-path", "/fake/model", "--tp", "8"]
    if dt: argv += ["--kv-cache-dtype", dt]
    if pb: argv += [pf, pb]
    if db: argv += [df, db]
    if mode: argv += ["--disaggregation-mode", mode]
    if h: argv += ["--enable-hisparse", "--disable-radix-cache"]
    cfg.__dict__.clear(); cfg.__dict__.update(getattr(cfgs, model))
    rec = {"v": ver, "gpu": gpu, "model": model, "dtype": dt, "pb": pb, "db": db, "mode": mode, "hisparse": h}
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            args = p.parse_args(argv)
            args = sa.ServerArgs.from_cli_args(args) if hasattr(sa.ServerArgs, "from_cli_args") else None
            if hasattr(args, "resolve_once"): args.resolve_once()
            view = args
            try:
                from sglang.srt.arg_groups.model_override_base import resolved_view
                view = resolved_view(args)
            except ImportError: pass
            args.check_server_args()
            r = {k: getattr(view, k, None) for k in ("kv_cache_dtype", "page_size")}
            for k in ("dsa_prefill_backend", "nsa_prefill_backend", "nsa_prefill"):
                if hasattr(view, k): r["prefill"] = getattr(view, k); break
            for k in ("dsa_decode_backend", "nsa_decode_backend", "nsa_decode"):
                if hasattr(view, k): r["decode"] = getattr(view, k); break
            r["row"] = row_bytes(args, view)["bytes"]
        rec["out"] = r
    except SystemExit as e:
        rec["refused"] = f"argparse exit {e}"
    except BaseException as e:
        rec["refused"] = f"{type(e).__name__}: {e}"[:300]
    print("ROW " + json.dumps(rec, default=str)); n += 1
print(f"DONE {ver} {gpu} {n} rows {time.time()-t0:.1f}s", file=sys.stderr)
