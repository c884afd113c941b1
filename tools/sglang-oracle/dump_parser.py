"""Dump the complete launch-flag parser of one SGLang release, as the release
builds it: every action of the parser `prepare_server_args` hands to
`parse_args`, with all its option strings, dest, nargs, action type,
choices, type, default and deprecation behaviour.

usage: SGLANG_SRC=/work/sglang-src python dump_parser.py VERSION > dumps/VERSION.json

Runs from /work/sglang-oracle's venv (resolve.py's stubs). The parser is
caught at its parse_args call inside the release's own prepare_server_args,
so the prog name, allow_abbrev and any parser class are the release's."""
import argparse
import contextlib
import io
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ver = sys.argv[1]
sys.argv = [sys.argv[0], ver, "H200", "DEEPSEEK_V32", "--"]
src = open(os.path.join(HERE, "resolve.py")).read().split("out = {")[0]
with contextlib.redirect_stderr(io.StringIO()):
    exec(compile(src, "resolve_head", "exec"))


class Caught(Exception):
    pass


caught = {}
real_parse_args = argparse.ArgumentParser.parse_args


def catch(self, args=None, namespace=None):
    caught["parser"] = self
    caught["argv"] = list(args) if args is not None else None
    raise Caught()


argparse.ArgumentParser.parse_args = catch
try:
    sa.prepare_server_args(["--model-path", "/fake/model"])
except Caught:
    pass
argparse.ArgumentParser.parse_args = real_parse_args
p = caught["parser"]
import logging
for _h in list(logging.getLogger().handlers):  # resolve.py's basicConfig writes to stdout
    logging.getLogger().removeHandler(_h)


def type_name(t):
    if t is None:
        return "str"
    if t in (int, float, str):
        return t.__name__
    return "custom:" + getattr(t, "__name__", type(t).__name__)


def action_kind(a):
    """What the action does when its option is given."""
    cls = type(a)
    std = {
        argparse._StoreAction: "store",
        argparse._StoreTrueAction: "store_true",
        argparse._StoreFalseAction: "store_false",
        argparse._StoreConstAction: "store_const",
        argparse._AppendAction: "append",
        argparse._AppendConstAction: "append_const",
        argparse._CountAction: "count",
        argparse._HelpAction: "help",
        argparse._VersionAction: "version",
    }
    if cls in std:
        return std[cls]
    if hasattr(argparse, "BooleanOptionalAction") and cls is argparse.BooleanOptionalAction:
        return "boolean_optional"
    name = cls.__name__
    if name == "DeprecatedAction":
        return "deprecated_error" if getattr(a, "error_message", None) else "deprecated"
    if name == "DeprecatedStoreTrueAction":
        return "deprecated_store_true"
    if name == "DeprecatedStoreConstAction":
        return "deprecated_store_const"
    if name == "DeprecatedAliasStoreAction":
        return "deprecated_alias"
    return "custom:" + name


def deprecation_text(a, kind):
    """What a non-standard action prints when given, run through the action
    itself: its warning (or parser.error text), with {opt} standing for the
    option as written. None for argparse's own actions."""
    if not (kind.startswith("deprecated") or kind.startswith("custom:")):
        return None
    import logging
    records = []

    class Grab(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    class Stop(Exception):
        pass

    def error(message):
        records.append("error: " + message)
        raise Stop()

    h = Grab()
    logging.getLogger().addHandler(h)
    saved = p.error
    p.error = error
    try:
        value = [] if a.nargs == 0 else ("x" if a.nargs is None else ["x"])
        if kind.startswith("custom:"):
            value = []
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            a(p, argparse.Namespace(), value, option_string="{opt}")
    except Stop:
        pass
    except ValueError as e:  # <= 0.5.4: DeprecatedAction raises ValueError(self.help), a traceback
        records.append("raise: ValueError: " + str(e))
    finally:
        p.error = saved
        logging.getLogger().removeHandler(h)
    text = " ".join(records)
    return re.sub(r"\x1b\[[0-9;]*m", "", text) or None


def stored(a, kind):
    """What giving the option (without a value) stores in its dest, as str;
    None when it stores nothing or takes values."""
    if a.nargs != 0:
        return None
    ns = argparse.Namespace()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            p_error = p.error
            p.error = lambda m: (_ for _ in ()).throw(ValueError(m))
            try:
                a(p, ns, [], option_string=a.option_strings[0])
            finally:
                p.error = p_error
    except (ValueError, SystemExit):
        return None
    return str(getattr(ns, a.dest)) if hasattr(ns, a.dest) else None


PROBE = "\x01probe\x01"


def type_error(a):
    """How a custom `type=` refuses a value: argparse prints an
    ArgumentTypeError's own text, and "invalid NAME value: 'x'" for any
    other error. The text is read by running the type on a probe no type
    accepts, with {value} where the probe was; None when it accepts it."""
    if a.type is None or a.type in (int, float, str):
        return None
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            a.type(PROBE)
    except argparse.ArgumentTypeError as e:
        return {"class": "ArgumentTypeError", "template": str(e).replace(PROBE, "{value}")}
    except (TypeError, ValueError) as e:
        return {"class": type(e).__name__, "template": None}
    return None


def jsonable(v):
    if v is argparse.SUPPRESS:
        return "==SUPPRESS=="
    try:
        json.dumps(v)
        return v
    except TypeError:
        return repr(v)


actions = []
for a in p._actions:
    kind = action_kind(a)
    actions.append({
        "options": list(a.option_strings),
        "dest": a.dest,
        "kind": kind,
        "class": type(a).__name__,
        "stores": stored(a, kind) if kind not in ("help", "version") else None,
        "nargs": a.nargs,
        "const": jsonable(a.const),
        "type": type_name(a.type),
        "type_error": type_error(a),
        "choices": [str(c) for c in a.choices] if a.choices is not None else None,
        # how argparse's "invalid choice" message prints them (repr: quotes on strings only)
        "choices_repr": [repr(c) for c in a.choices] if a.choices is not None else None,
        # a set's order is the process's hash order: argparse lists it differently run to run
        "choices_unordered": isinstance(a.choices, (set, frozenset)),
        "default": jsonable(a.default),
        "required": a.required,
        "message": deprecation_text(a, kind),
    })
# The order argparse keeps its option strings in (what "ambiguous option"
# lists): insertion order of _option_string_actions.
order = list(p._option_string_actions)
print(json.dumps({
    "version": ver,
    "python": sys.version.split()[0],
    # None: argparse's default, the basename of sys.argv[0] ("launch_server.py" under python -m sglang.launch_server)
    "prog": None if p.prog == os.path.basename(sys.argv[0]) else p.prog,
    "allow_abbrev": p.allow_abbrev,
    "prefix_chars": p.prefix_chars,
    "parser_class": type(p).__name__,
    "has_negative_number_optionals": bool(p._has_negative_number_optionals),
    "option_order": order,
    "actions": actions,
}, separators=(",", ":")))
