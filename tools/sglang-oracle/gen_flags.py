"""Generate src/engine/sglang/flag_table.c from the parser dumps.

    # per release (dump_parser.py), then merge and generate:
    for v in $(releases); do python dump_parser.py $v > /tmp/dumps/$v.json; done
    python3 gen_flags.py merge /tmp/dumps > flag_dumps.json   # committed: every action of every release
    python3 gen_flags.py c flag_dumps.json > ../../src/engine/sglang/flag_table.c

flag_dumps.json keeps each distinct action once ("actions") and, per release,
the parser's settings and its actions and option strings in argparse's order.
The C table has one row per distinct (option string, definition) with the
mask of releases it holds for (bit i: SGLANG_VERSIONS[i]), one definition
per distinct action, one list per distinct set of choices, and per release
the rows in argparse's registration order (what "ambiguous option" lists)."""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RELEASES_C = os.path.join(HERE, "..", "..", "src", "engine", "sglang", "releases.c")


def releases():
    """SGLANG_VERSIONS, newest first, as releases.c lists them."""
    text = open(RELEASES_C).read()
    body = text[text.index("SGLANG_VERSIONS"):]
    return re.findall(r'"([^"]+)"', body[:body.index("};")])


def merge(folder):
    actions, index, out = [], {}, {}
    for v in releases():
        d = json.load(open(os.path.join(folder, v + ".json")))
        ids = []
        for a in d["actions"]:
            key = json.dumps(a, sort_keys=True)
            if key not in index:
                index[key] = len(actions)
                actions.append(a)
            ids.append(index[key])
        out[v] = {k: d[k] for k in ("python", "prog", "allow_abbrev", "prefix_chars", "parser_class",
                                    "has_negative_number_optionals", "option_order")}
        out[v]["actions"] = ids
    json.dump({"releases": out, "actions": actions}, sys.stdout, separators=(",", ":"), sort_keys=True)
    print()


NARGS = {None: "SGN_ONE", "?": "SGN_OPTIONAL", "*": "SGN_ANY", "+": "SGN_SOME"}
TYPES = {"str": "SGT_STR", "int": "SGT_INT", "float": "SGT_FLOAT", "custom:loads": "SGT_JSON",
         "custom:json_list_type": "SGT_JSON", "custom:human_readable_int": "SGT_HUMAN_INT"}


def c_str(s):
    if s is None:
        return "NULL"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def array(w, decl, numbers):
    """`decl = {n, n, ...};` wrapped at 110 columns."""
    w(decl + " = {")
    line = "   "
    for n in numbers:
        if len(line) > 110:
            w(line)
            line = "   "
        line += f" {n},"
    w(line)
    w("};")


def gen_c(path):
    data = json.load(open(path))
    rels = releases()
    assert list(data["releases"]) == rels or sorted(data["releases"]) == sorted(rels), "dumps and releases.c differ"
    for v in rels:
        r = data["releases"][v]
        # What flags.c models: argparse's defaults, no single-dash options but -h.
        assert r["allow_abbrev"] and r["prefix_chars"] == "-" and r["parser_class"] == "ArgumentParser", v
        assert not r["has_negative_number_optionals"], v
    choices, choice_ids = [], {}
    defs, def_ids = [], {}
    rows, row_ids = [], {}
    orders = {}
    for bit, v in enumerate(rels):
        r = data["releases"][v]
        acts = [data["actions"][i] for i in r["actions"]]
        by_option = {}
        for a in acts:
            ch = 0
            if a["choices"] is not None:
                key = tuple(a["choices"])
                if key not in choice_ids:
                    choice_ids[key] = len(choices) + 1
                    choices.append(key)
                ch = choice_ids[key]
            kind = a["kind"]
            if kind.startswith("custom:"):
                kind = "custom"
            message = a["message"]
            if message and message.startswith("error: "):
                kind, message = "deprecated_error", message[len("error: "):]
            elif message and message.startswith("raise: "):
                kind, message = "deprecated_raise", message[len("raise: "):]
            nargs = a["nargs"]
            terr = a.get("type_error") or {}
            typ = TYPES.get(a["type"], "SGT_OTHER")
            d = ("/".join(a["options"]), a["dest"], a["class"], kind, NARGS.get(nargs, str(nargs)), typ, ch,
                 a["stores"], message, a["type"].split(":")[-1] if typ != "SGT_OTHER" else "str",
                 terr.get("template") if typ != "SGT_OTHER" else None)
            if d not in def_ids:
                def_ids[d] = len(defs)
                defs.append(d)
            for o in a["options"]:
                by_option[o] = def_ids[d]
        order = []
        for o in r["option_order"]:
            key = (o, by_option[o])
            if key not in row_ids:
                row_ids[key] = len(rows)
                rows.append([o, by_option[o], 0])
            rows[row_ids[key]][2] |= 1 << bit
            order.append(row_ids[key])
        orders[v] = order
    out = []
    w = out.append
    w("/* GENERATED by tools/sglang-oracle/gen_flags.py from tools/sglang-oracle/flag_dumps.json:")
    w(" * every option of every release's own launch-flag parser, as dump_parser.py")
    w(" * read it from the parser prepare_server_args hands to parse_args. Do not edit;")
    w(" * regenerate. */")
    w('#include "engine/sglang/sglang.h"')
    w("")
    w("/* The releases the dumps are of, newest first: test_flags checks they are SGLANG_VERSIONS. */")
    w("const char *const SGLANG_FLAG_RELEASES[SGLANG_NRELEASES] = {")
    for v in rels:
        w(f"    {c_str(v)},")
    w("};")
    w("")
    for i, ch in enumerate(choices, 1):
        w(f"static const char *const CH{i}[] = {{{', '.join(c_str(c) for c in ch)}, NULL}};")
    w("")
    w(f"const char *const *const SGLANG_CHOICES[{len(choices) + 1}] = {{")
    w("    NULL,")
    for i in range(1, len(choices) + 1):
        w(f"    CH{i},")
    w("};")
    w("")
    w(f"const sglang_flag_def SGLANG_FLAG_DEFS[{len(defs)}] = {{")
    for d in defs:
        names, dest, cls, kind, nargs, typ, ch, stores, message, tname, tmsg = d
        w(f"    {{{c_str(names)}, {c_str(dest)}, {c_str(cls)}, SGA_{kind.upper()}, {nargs}, {typ}, {ch}, "
          f"{c_str(stores)}, {c_str(message)}, {c_str(tname)}, {c_str(tmsg)}}},")
    w("};")
    w("")
    w(f"const sglang_flag_row SGLANG_FLAG_ROWS[{len(rows)}] = {{")
    for o, d, mask in rows:
        w(f"    {{{c_str(o)}, {d}, 0x{mask:016x}u}},")
    w("};")
    w(f"const unsigned SGLANG_NFLAG_ROWS = {len(rows)};")
    w("")
    w("/* The rows in strcmp order of their options (all ASCII), so that a release's")
    w(" * sorted view is a filter, not a sort. */")
    array(w, f"const uint16_t SGLANG_FLAG_SORTED[{len(rows)}]",
          sorted(range(len(rows)), key=lambda i: (rows[i][0].encode(), i)))
    w("")
    seen = {}
    for v in rels:
        key = tuple(orders[v])
        if key in seen:
            continue
        seen[key] = "ORDER_" + re.sub(r"\W", "_", v)
        array(w, f"static const uint16_t {seen[key]}[]", key)
    w("")
    w("const sglang_parser_def SGLANG_PARSERS[SGLANG_NRELEASES] = {")
    for v in rels:
        r = data["releases"][v]
        name = seen[tuple(orders[v])]
        # prog None: argparse's default, basename(sys.argv[0]), "launch_server.py" under python -m
        w(f"    {{{c_str(r['prog'] or 'launch_server.py')}, {name}, {len(orders[v])}}},")
    w("};")
    print("\n".join(out))


if __name__ == "__main__":
    if sys.argv[1] == "merge":
        merge(sys.argv[2])
    else:
        gen_c(sys.argv[2])
