"""What each release's own parser makes of a list of launch commands: the
oracle test_flags replays against kvcheck's argparse emulation.

usage: SGLANG_SRC=/work/sglang-src python parse_oracle.py VERSION CASES >> out.jsonl

Each case is one line of flag_cases.txt: shell words, or "yaml: TEXT | WORDS"
for a --config file (TEXT with \\n for newlines). The release's own
prepare_server_args runs up to its parse_args call (so the --config merge is
the release's), then argparse runs on the merged words. One JSON line per
case: the error line argparse prints, the ValueError raised, or the values
of the dests kvcheck keeps that an option set (as argparse stored them) and
the warnings."""
import argparse
import contextlib
import io
import json
import logging
import os
import re
import shlex
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ver, cases_path = sys.argv[1], sys.argv[2]
LAUNCHER = "launch_server.py"  # sys.argv[0] under python -m sglang.launch_server: argparse's default prog
sys.path.insert(0, HERE)
from oracle import Oracle  # noqa: E402

with contextlib.redirect_stderr(io.StringIO()):
    sa = Oracle(ver, "H200").sa  # the release imported with the oracle's stubs
logging.disable(logging.NOTSET)  # the oracle silences logging: the release's warnings are recorded here
for _h in list(logging.getLogger().handlers):
    logging.getLogger().removeHandler(_h)
warnings = []


class Grab(logging.Handler):
    def emit(self, record):
        warnings.append(re.sub(r"\x1b\[[0-9;]*m", "", record.getMessage()))


logging.getLogger().addHandler(Grab())
# the dests kvcheck keeps: flags.c's DESTS table, read from the source so the two never differ
_FLAGS_C = os.path.join(HERE, "..", "..", "src", "engine", "sglang", "flags.c")
DESTS = re.findall(r'\{"(\w+)", SET_\w+\}', open(_FLAGS_C).read().split("DESTS[] = {", 1)[1].split("};", 1)[0])


class Caught(Exception):
    pass


real_parse_args = argparse.ArgumentParser.parse_args
caught = {}


def catch(self, args=None, namespace=None):
    caught["parser"], caught["argv"] = self, list(args)
    raise Caught()


def stored(v):
    if v is True:
        return ""
    if isinstance(v, list):
        return " ".join(str(x) for x in v)
    return str(v)


def run(line):
    words, yaml_text = line, None
    if line.startswith("yaml: "):
        yaml_text, words = line[6:].split(" | ", 1)
    argv = ["--model-path", "m"] + shlex.split(words)
    tmp = None
    if yaml_text is not None:
        tmp = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
        tmp.write(yaml_text.replace("\\n", "\n"))
        tmp.close()
        argv = ["--config", tmp.name] + argv
    out = {"version": ver, "case": line}
    del warnings[:]
    argparse.ArgumentParser.parse_args = catch
    sys.argv[0] = LAUNCHER
    try:
        sa.prepare_server_args(argv)
    except Caught:
        pass
    except ValueError as e:
        out["raise"] = str(e)
        return out
    finally:
        argparse.ArgumentParser.parse_args = real_parse_args
        if tmp:
            os.unlink(tmp.name)
    p = caught["parser"]
    # argparse leaves an attribute the namespace already has when no option
    # sets it: what is still UNSET was not given
    unset = object()
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            ns = vars(real_parse_args(p, caught["argv"], argparse.Namespace(**{d: unset for d in DESTS})))
    except SystemExit:
        out["error"] = err.getvalue().rstrip("\n").splitlines()[-1]
        return out
    except ValueError as e:
        out["raise"] = str(e)
        return out
    out["values"] = {d: stored(ns[d]) for d in DESTS if ns[d] is not unset and d != "model_path" and ns[d] is not False}
    out["warnings"] = list(warnings)
    return out


for line in open(cases_path):
    line = line.rstrip("\n")
    if line and not line.startswith("#"):
        print(json.dumps(run(line), sort_keys=True))
