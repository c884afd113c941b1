"""Generate src/engine/sglang/check_table.c: which launch flags each release's
start-up checks read.

    SGLANG_SRC=/tmp/oracle-work/src python3 gen_checks.py > ../../src/engine/sglang/check_table.c

For every release in releases.c, every `raise` and `assert` of its server
arguments' resolution and checks (python/sglang/srt/server_args.py and,
where the release has the folder (0.5.12+), python/sglang/srt/arg_groups/**.py)
is read with Python's ast, and the ServerArgs fields (the dests of
flag_dumps.json's actions for that release) it reads are collected: an
assert's test and message, a raise's exception, and the tests of the
`if`/`while` statements around either up to its function (an `elif` counts
its `if`); and, one level deep, the right-hand sides of that function's own
assignments (not a nested function's; not a call's result, whose arguments
configure what it builds, but getattr(), bool() and the like) to the plain names those read
(`bad = sa.x and sa.y; if bad:`). A field counts when an attribute of that
name is read (`server_args.x`, `self.x`, `cfg.x`) or getattr() names it.

This over-approximates what a flag reaches: a check reads the field, which
does not mean every value of it is refused. kvcheck uses the table to say
which given flags it does not model SGLang's checks of (a warning), never to
refuse.

The table has one row per (field, file of the check) with the mask of the
releases whose checks in that file read the field (bit i: SGLANG_VERSIONS[i])
and, as its citation, the first such check of the newest of them."""
import ast
import json
import os
import sys

from gen_flags import HERE, c_str, releases

SRC = os.environ.get("SGLANG_SRC", "/tmp/oracle-work/src")


def check_files(version):
    """The files of `version`'s server-argument resolution, relative to srt/, in a fixed order."""
    srt = os.path.join(SRC, version, "sglang", "srt")
    files = ["server_args.py"]
    groups = os.path.join(srt, "arg_groups")
    for folder, _, names in sorted(os.walk(groups)):
        files += sorted(os.path.relpath(os.path.join(folder, n), srt) for n in names if n.endswith(".py"))
    return srt, files


def fields_read(node, dests):
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and n.attr in dests:
            out.add(n.attr)
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "getattr"
              and len(n.args) >= 2 and isinstance(n.args[1], ast.Constant) and n.args[1].value in dests):
            out.add(n.args[1].value)
    return out


def names_read(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


# calls whose result is their argument's value, not something it configures
VALUE_CALLS = {"getattr", "bool", "int", "float", "str", "len", "list", "tuple", "set", "any", "all", "min", "max"}


def configures(value):
    """1 when an assignment's right-hand side calls a function (other than VALUE_CALLS; a method of a field, such as
    .split(), keeps it): its arguments configure what it builds (get_config(..., trust_remote_code=...)), and a check
    of the result does not read them."""
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id not in VALUE_CALLS


def checks(tree, dests):
    """(line, fields) of every raise and assert of `tree` that reads at least one field."""
    parents = {c: p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}
    def owner(n):
        while n in parents and not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            n = parents[n]
        return n if n in parents or isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) else None

    assigned = {}  # function -> name -> the fields its own assignments read
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and not configures(n.value):
            table = assigned.setdefault(owner(n), {})
            for t in n.targets:
                if isinstance(t, ast.Name):
                    table.setdefault(t.id, set()).update(fields_read(n.value, dests))
    for n in ast.walk(tree):
        if not isinstance(n, (ast.Raise, ast.Assert)):
            continue
        tests = [n.test, n.msg] if isinstance(n, ast.Assert) else [n.exc]
        p, fn = n, None
        while p in parents:
            q = parents[p]
            if isinstance(q, (ast.If, ast.While)) and p is not q.test:
                tests.append(q.test)
            if isinstance(q, (ast.FunctionDef, ast.AsyncFunctionDef)):
                fn = q
                break
            p = q
        read = set()
        for t in tests:
            if t is None:
                continue
            read |= fields_read(t, dests)
            for name in names_read(t):
                read |= assigned.get(fn, {}).get(name, set())
        if read:
            yield n.lineno, read


def main():
    dumps = json.load(open(os.path.join(HERE, "flag_dumps.json")))
    rels = releases()
    rows = {}  # (field, file) -> [mask, newest version, line]
    for bit, v in enumerate(rels):  # newest first: a row's citation is its newest release's
        dests = {dumps["actions"][i]["dest"] for i in dumps["releases"][v]["actions"]}
        srt, files = check_files(v)
        first = {}  # (field, file) -> the line of this release's first check of it
        for f in files:
            tree = ast.parse(open(os.path.join(srt, f)).read(), f)
            for line, read in checks(tree, dests):
                for field in read:
                    first[(field, f)] = min(line, first.get((field, f), line))
        for key, line in first.items():
            rows.setdefault(key, [0, v, line])[0] |= 1 << bit
    out = []
    w = out.append
    w("/* GENERATED by tools/sglang-oracle/gen_checks.py from each release's own")
    w(" * python/sglang/srt/server_args.py and arg_groups/: the ServerArgs fields a")
    w(" * start-up check (raise, assert) reads, per file of the checks. Do not edit;")
    w(" * regenerate. */")
    w('#include "engine/sglang/sglang.h"')
    w("")
    w(f"const sglang_check_row SGLANG_CHECK_ROWS[{len(rows)}] = {{")
    for (field, f), (mask, v, line) in sorted(rows.items()):
        cite = f"sglang {v}: python/sglang/srt/{f}:{line}"
        w(f"    {{{c_str(field)}, 0x{mask:016x}u, {c_str(cite)}}},")
    w("};")
    w(f"const unsigned SGLANG_NCHECK_ROWS = {len(rows)};")
    print("\n".join(out))


if __name__ == "__main__":
    main()
