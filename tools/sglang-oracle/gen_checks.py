"""Generate src/engine/sglang/check_table.c: which launch flags each release's
start-up checks read.

    SGLANG_SRC=/tmp/oracle-work/src python3 gen_checks.py > ../../src/engine/sglang/check_table.c
    SGLANG_SRC=... python3 gen_checks.py --lines FIELD[,FIELD...]

The second form prints, for a review of a field's rows (check_review.c),
every check of each row in every release: "field file release line,...".

For every release in releases.c, every `raise` and `assert` of its server
arguments' resolution and checks (python/sglang/srt/server_args.py and,
where the release has the folder (0.5.12+), python/sglang/srt/arg_groups/**.py)
is read with Python's ast, and the ServerArgs fields (the dests of
flag_dumps.json's actions for that release) it reads are collected. A field
counts when an attribute of that name is read (`server_args.x`, `self.x`,
`cfg.x`) or getattr() names it. A check reads:

- an assert's test and message, a raise's exception;
- the tests guarding it in its function: those of the `if`/`while`
  statements around it (an `elif` counts its `if`), and those of the earlier
  `if` statements, in the blocks around it, that `return` or `continue`
  (`if not cfg.x: return` guards what follows);
- through the names those read, what the bindings of the names read, to a
  fixed point: assignments (`+=`, `:=`; each name of a tuple target takes
  all its value reads), `for` targets (from their iterable, as
  `for flag, name in ((cfg.x, "--x"), ...)`), and `.append()`/`.extend()`/
  `.add()` of a name, wherever in the function they stand; a name a
  function does not bind is its enclosing function's;
- through a call of one of the files' functions, what its return values
  read, its parameters bound to the call's arguments (`tokens =
  helper(cfg)`, `return cfg.max_prefill_tokens`). An assignment from a call
  of a plain function (not getattr(), bool() and the like) reads only that:
  the arguments of one outside the files configure what it builds
  (get_config(..., trust_remote_code=...)), while a method's (`.strip()`)
  keeps what it is called on and with;
- through a function's parameters, the arguments its calls in the files
  bind to them (`validate_buckets_rule("--x", cfg.x)`), up to MAX_DEPTH
  calls out; and a check of a function that so reads no field reads the
  tests guarding the function's calls instead, when it has at most
  MAX_GUARDED_CALLS of them.

A call is bound to every function of the files of its name but a dunder's
(Python calls those itself): a plain name to the module-level functions and
those nested in a function around the call, an attribute to the methods
(past their self or cls) and the module-level functions.

Calls are also followed out of the files into the release's other
sglang.srt modules (utils/common.py, utils/network.py, ...), by the names
the calling scope or one around it imports: `from sglang.srt.X import f`
(or a relative import) binds `f()` to X's module-level function f, `import
sglang.srt.X as m` binds `m.f()` to it, and an imported class C binds
`C.f()` to its method f (past cls for a classmethod); a name a package
re-exports (`from sglang.srt.utils.common import *` in utils/__init__.py)
is followed to its module. In those modules a plain name is bound the same
way by the nearest scope that defines or imports it, and `self.f()` or
`cls.f()` in a method to its class's methods. A class called (`C(...)`) and
a call of a function of the files from another module are not followed. A
function so bound to a call of the files is reached, one bound to a call in
a reached function is reached one call further out, up to MAX_DEPTH calls
out. The raises and asserts of reached functions are checks, in their own
files, and no other of those modules' are; they are read as above except
that:

- a reached function's parameters are bound by its calls in the files and
  in reached functions only;
- what a reached function returns is not followed (a call of one is a call
  outside the files), and in a reached function a method's value reads only
  what it is called on, not its arguments
  (`AutoConfig.from_pretrained(model, trust_remote_code=...)`,
  `ModelConfig.from_server_args(server_args, model_path=...)` build what a
  check then reads);
- a check of a reached function that reads no field reads nothing: the
  tests guarding its calls do not stand in (a memory probe's raise, called
  under a test of --device, is a check of the machine).

This over-approximates what a flag reaches: a check reads the field, which
does not mean every value of it is refused, nor that no caller catches what
it raises, nor, in another module, that an attribute of its name is
ServerArgs' (`model_config.model_impl`). kvcheck uses the table to say which
given flags it does not model SGLang's checks of (a warning), never to
refuse.

The table has one row per (field, file of the check) with the mask of the
releases whose checks in that file read the field (bit i: SGLANG_VERSIONS[i])
and, as its citation, the first such check of the newest of them. A field's
rows of the files come before its rows of other modules (kvcheck cites a
field's first row that holds for the release)."""
import ast
import json
import os
from collections import namedtuple

from gen_flags import HERE, c_str, releases

SRC = os.environ.get("SGLANG_SRC", "/tmp/oracle-work/src")

# calls whose result is their argument's value, not something it configures
VALUE_CALLS = {"getattr", "bool", "int", "float", "str", "len", "list", "tuple", "set", "any", "all", "min", "max"}
# methods that add their arguments to the collection named by what they are called on
COLLECT_METHODS = {"append", "extend", "add"}
# how many calls out a check is followed through parameters and call sites, and calls are followed into other
# modules
MAX_DEPTH = 4
# a function called from more places (declare_resolution(), a pass runner) is plumbing: its checks of its own
# contract are not checks of what its callers test
MAX_GUARDED_CALLS = 3
FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)

Param = namedtuple("Param", "function name")  # a read of a function's parameter, as yet unbound


def check_files(version):
    """The files of `version`'s server-argument resolution, relative to srt/, in a fixed order."""
    srt = os.path.join(SRC, version, "sglang", "srt")
    files = ["server_args.py"]
    groups = os.path.join(srt, "arg_groups")
    for folder, _, names in sorted(os.walk(groups)):
        files += sorted(os.path.relpath(os.path.join(folder, n), srt) for n in names if n.endswith(".py"))
    return srt, files


def check_file(f):
    """1 when srt/ file `f` is one of a release's check files (check_files())."""
    return f == "server_args.py" or f.startswith("arg_groups/")


def parameters(fn):
    """The names of function `fn`'s parameters (none for a module)."""
    if not isinstance(fn, FUNCS):
        return []
    a = fn.args
    rest = [x for x in (a.vararg, a.kwarg) if x is not None]
    return [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + rest]


def target_names(target):
    """The plain names an assignment to `target` binds (`a`, `a, (b, *c)`; not `a.b` or `a[0]`)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for e in target.elts for name in target_names(e)]
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    return []


def bindings(node):
    """(names, values) when `node` binds names: the names and the expressions their values come from."""
    if isinstance(node, ast.Assign):
        return [n for t in node.targets for n in target_names(t)], [node.value]
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and node.value is not None:
        return target_names(node.target), [node.value]
    if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
        return target_names(node.target), [node.iter]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in COLLECT_METHODS
            and isinstance(node.func.value, ast.Name)):
        return [node.func.value.id], node.args
    return None


def dunder(name):
    """1 when `name` is a dunder's (`__init__`)."""
    return name.startswith("__") and name.endswith("__")


def decorated(fn, name):
    """1 when function `fn` is decorated with @`name`."""
    return any(isinstance(d, ast.Name) and d.id == name for d in fn.decorator_list)


def static(fn):
    """1 when function `fn` is a staticmethod."""
    return decorated(fn, "staticmethod")


def classmethod_(fn):
    """1 when function `fn` is a classmethod."""
    return decorated(fn, "classmethod")


def exits(block):
    """1 when statement list `block` returns or continues at its own level."""
    return any(isinstance(s, (ast.Return, ast.Continue)) for s in block)


def check_tests(node):
    """The expressions a raise or assert `node` itself reads."""
    return [node.test, node.msg] if isinstance(node, ast.Assert) else [node.exc]


class Release:
    """One release's check files, parsed and linked: each node's scope (the innermost function around it, else its
    module), each call's functions, and what each scope's names read."""

    def __init__(self, version, dests):
        self.dests = dests
        self.srt, self.files = check_files(version)
        self.trees, self.file = {}, {}  # srt/ file -> its tree (None: the release has no such file); tree -> file
        self.parent, self.scope, self.binders = {}, {}, {}
        self.defined, self.imports = {}, {}  # scope -> name -> [function or class]; -> [(module, name or None)]
        for f in self.files:
            self.load(f)
        # function name -> [function]; not dunders: Python calls them, and a call by name is a base class's
        # (object.__setattr__(self, ...))
        self.named = {}
        for fn in self.binders:
            if isinstance(fn, FUNCS) and not dunder(fn.name):
                self.named.setdefault(fn.name, []).append(fn)
        self.calls = {}  # function -> [(call, 1 when the call skips its self or cls)]
        # each function of the other modules reached -> how many calls out of the check files it is
        self.depth = {}
        sites = [n for f in self.files for n in ast.walk(self.trees[f]) if isinstance(n, ast.Call)]
        depth = 1
        while sites:
            reached = []
            for call in sites:
                for fn, skip in self.callees(call):
                    if self.outside(fn) and fn not in self.depth:
                        if depth > MAX_DEPTH:
                            continue
                        self.depth[fn] = depth
                        reached.append(fn)
                    self.calls.setdefault(fn, []).append((call, skip))
            sites = [n for fn in reached for n in ast.walk(fn) if isinstance(n, ast.Call) and self.scope[n] is fn]
            depth += 1
        self.envs, self.returns = {}, {}

    def load(self, f):
        """The tree of srt/ file `f`, parsed and linked on first use (None when the release has no such file)."""
        if f not in self.trees:
            path = os.path.join(self.srt, f)
            self.trees[f] = ast.parse(open(path).read(), f) if os.path.isfile(path) else None
            if self.trees[f] is not None:
                self.file[self.trees[f]] = f
                self.link(self.trees[f], self.trees[f])
        return self.trees[f]

    def link(self, node, scope):
        """Records the parent and scope of every node under `node`, in `scope`, each scope's binding nodes, and the
        functions, classes and imports of sglang.srt modules each scope binds."""
        self.binders.setdefault(scope, [])
        for child in ast.iter_child_nodes(node):
            self.parent[child] = node
            self.scope[child] = scope
            if bindings(child) is not None:
                self.binders[scope].append(child)
            if isinstance(child, FUNCS + (ast.ClassDef,)) and not isinstance(node, ast.ClassDef):
                self.defined.setdefault(scope, {}).setdefault(child.name, []).append(child)
            for name, target in self.import_bindings(child, scope):
                self.imports.setdefault(scope, {}).setdefault(name, []).append(target)
            self.link(child, child if isinstance(child, FUNCS) else scope)

    def import_bindings(self, node, scope):
        """(name, (module, name in it or None for the module itself)) for each name import `node`, in `scope`, binds
        to an sglang.srt module or to a name of one ("*" for a star import)."""
        if isinstance(node, ast.Import):
            return [(a.asname, (a.name, None)) for a in node.names if a.asname]
        if not isinstance(node, ast.ImportFrom):
            return []
        module = node.module or ""
        if node.level:
            here = self.module_of(scope).split("/")[:-1]  # the package of the file (of an __init__.py: its own)
            if node.level - 1 > len(here):
                return []
            package = here[:len(here) - (node.level - 1)]
            module = ".".join(["sglang", "srt"] + package + ([module] if module else []))
        return [(a.asname or a.name, (module, a.name)) for a in node.names]

    def module_of(self, node):
        """The srt/ file `node` is in."""
        while not isinstance(node, ast.Module):
            node = self.scope[node]
        return self.file[node]

    def outside(self, fn):
        """1 when function `fn` is not in the check files."""
        return self.module_of(fn) not in self.files

    def module_file(self, module):
        """The srt/ file of sglang.srt module `module` (dotted), if the release has it."""
        parts = module.split(".")
        if parts[:2] != ["sglang", "srt"]:
            return None
        for f in ("/".join(parts[2:]) + ".py", "/".join(parts[2:] + ["__init__.py"])):
            if not f.startswith("/") and self.load(f) is not None:
                return f
        return None

    def definitions(self, f, name, seen=None):
        """The module-level functions or classes `name` of srt/ file `f`, or, when `f` defines none, what its
        imports of the name bind (re-exports: `from sglang.srt.utils.common import *`)."""
        seen = set() if seen is None else seen
        if f is None or (f, name) in seen or dunder(name):
            return []
        seen.add((f, name))
        tree = self.trees[f]
        if name in self.defined.get(tree, {}):
            return self.defined[tree][name]
        out = []
        for module, what in self.imports.get(tree, {}).get(name, []):
            out += self.target(module, what, seen)
        for module, _ in self.imports.get(tree, {}).get("*", []):
            out += self.definitions(self.module_file(module), name, seen)
        return out

    def target(self, module, what, seen=None):
        """What an import of `what` from `module` (of `module` itself when None) binds: [module tree, function or
        class]."""
        f = self.module_file(module)
        if f is None:
            return []
        if what is None:
            return [self.trees[f]]
        found = self.definitions(f, what, seen)
        if not found:
            sub = self.module_file(module + "." + what)
            found = [self.trees[sub]] if sub else []
        return found

    def resolve(self, name, scope):
        """What plain name `name` read in `scope` is, by the nearest scope around that defines or imports it:
        functions, classes, module trees."""
        while scope is not None:
            if name in self.defined.get(scope, {}):
                return self.defined[scope][name]
            if name in self.imports.get(scope, {}):
                return [d for module, what in self.imports[scope][name] for d in self.target(module, what)]
            scope = self.enclosing(scope)
        return []

    def enclosing(self, scope):
        """The scope around function `scope` (None around a module)."""
        return self.scope.get(scope)

    def callees(self, call):
        """(function, 1 when binding skips its first parameter) for each function `call` may call: in the check
        files, those of the files of its name; in other modules, those its name resolves to (imports included); in
        both, the functions of other modules its imports name."""
        scope = self.scope[call]
        out = list(dict.fromkeys(x for x in self.imported_callees(call, scope) if self.outside(x[0])))
        if self.module_of(scope) not in self.files:
            return out
        f = call.func
        if isinstance(f, ast.Name):
            around = set()
            while scope is not None:
                around.add(scope)
                scope = self.enclosing(scope)
            return out + [(fn, 0) for fn in self.named.get(f.id, []) if not self.method(fn)
                          and (isinstance(self.scope[fn], ast.Module) or self.scope[fn] in around)]
        if isinstance(f, ast.Attribute):
            for fn in self.named.get(f.attr, []):
                if self.method(fn):
                    out.append((fn, 0 if static(fn) else 1))
                elif isinstance(self.scope[fn], ast.Module):
                    out.append((fn, 0))
        return out

    def imported_callees(self, call, scope):
        """The functions `call`, in `scope`, names by resolve(): `f()` a function, `m.f()` a module's, `C.f()` a
        class's method, and, in a method, `self.f()`/`cls.f()` its class's."""
        f = call.func
        if isinstance(f, ast.Name):
            return [(fn, 0) for fn in self.resolve(f.id, scope) if isinstance(fn, FUNCS)]
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)) or dunder(f.attr):
            return []
        out = []
        if (isinstance(scope, FUNCS) and self.method(scope) and self.outside(scope)
                and parameters(scope)[:1] == [f.value.id] and not static(scope)):
            out += [(fn, 0 if static(fn) else 1) for fn in self.members(self.parent[scope], f.attr)]
        for d in self.resolve(f.value.id, scope):
            if isinstance(d, ast.Module):
                out += [(fn, 0) for fn in self.definitions(self.file[d], f.attr) if isinstance(fn, FUNCS)]
            elif isinstance(d, ast.ClassDef):
                out += [(fn, 1 if classmethod_(fn) else 0) for fn in self.members(d, f.attr)]
        return out

    def members(self, cls, name):
        """The methods `name` of class `cls` (not its bases')."""
        return [fn for fn in cls.body if isinstance(fn, FUNCS) and fn.name == name]

    def method(self, fn):
        """1 when function `fn` is defined in a class."""
        return isinstance(self.parent[fn], ast.ClassDef)

    def bound(self, call, fn, skip):
        """The argument expressions of `call` that bind parameter name -> [expression] of `fn`."""
        a = fn.args
        positional = [x.arg for x in a.posonlyargs + a.args][skip:]
        keywords = {x.arg for x in a.args + a.kwonlyargs}
        out = {}
        for i, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                break
            name = positional[i] if i < len(positional) else a.vararg and a.vararg.arg
            if name:
                out.setdefault(name, []).append(arg)
        for kw in call.keywords:
            name = kw.arg if kw.arg in keywords else kw.arg and a.kwarg and a.kwarg.arg
            if name:
                out.setdefault(name, []).append(kw.value)
        return out

    def field_named(self, node):
        """The field an Attribute or a getattr() call `node` reads, if any."""
        if isinstance(node, ast.Attribute) and node.attr in self.dests:
            return node.attr
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in self.dests):
            return node.args[1].value
        return None

    def reads(self, expr, scope):
        """What `expr`, evaluated in `scope`, reads: fields (str) and parameters (Param), those of the names it
        reads and of the values of the files' functions it calls included."""
        out = set()
        for n in ast.walk(expr):
            field = self.field_named(n)
            if field:
                out.add(field)
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                out |= self.lookup(n.id, scope)
            elif isinstance(n, ast.Call):
                out |= self.returned(n, scope)
        return out

    def value_reads(self, value, scope):
        """What a binding's value reads: nothing of a plain function's arguments but what it returns (see
        VALUE_CALLS)."""
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id not in VALUE_CALLS:
            return self.returned(value, scope)
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and self.outside(scope):
            return self.reads(value.func.value, scope)
        return self.reads(value, scope)

    def lookup(self, name, scope):
        """What `name` read in `scope` reads: its bindings there, else in the nearest scope around that binds it."""
        while scope is not None:
            env = self.env(scope)
            if name in env:
                return env[name]
            scope = self.enclosing(scope)
        return set()

    def env(self, scope):
        """name -> what it reads, for the parameters and names `scope` binds, to a fixed point of all its bindings
        (wherever they stand: a binding after a check counts)."""
        if scope in self.envs:
            return self.envs[scope]
        env = {p: {Param(scope, p)} for p in parameters(scope)}
        self.envs[scope] = env
        binds = [bindings(n) for n in self.binders[scope]]
        for names, _ in binds:
            for name in names:
                env.setdefault(name, set())
        changed = True
        while changed:
            changed = False
            for names, values in binds:
                read = set().union(*(self.value_reads(v, scope) for v in values))
                for name in names:
                    if not read <= env[name]:
                        env[name] |= read
                        changed = True
        return env

    def returned(self, call, scope):
        """What the values returned by the files' functions `call` (in `scope`) may call read, their parameters
        bound to what `call`'s arguments read."""
        out = set()
        for fn, skip in self.callees(call):
            if self.outside(fn):
                continue
            args = self.bound(call, fn, skip)
            for r in self.returned_by(fn):
                if isinstance(r, Param) and r.function is fn:
                    for arg in args.get(r.name, []):
                        out |= self.reads(arg, scope)
                else:
                    out.add(r)
        return out

    def returned_by(self, fn):
        """What function `fn`'s return values read (nothing while being computed: a recursive call adds none)."""
        if fn not in self.returns:
            self.returns[fn] = set()
            values = [n.value for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value is not None
                      and self.scope[n] is fn]
            self.returns[fn] = set().union(*(self.reads(v, fn) for v in values))
        return self.returns[fn]

    def guards(self, node):
        """The tests guarding `node` in its scope: of the if/while around it, and of the earlier ifs, in the blocks
        around it, that return or continue."""
        out = []
        p = node
        while p in self.parent and not isinstance(p, FUNCS):
            q = self.parent[p]
            if isinstance(q, (ast.If, ast.While)) and p is not q.test:
                out.append(q.test)
            for _, block in ast.iter_fields(q):
                if isinstance(block, list) and p in block:
                    out += [s.test for s in block[:block.index(p)]
                            if isinstance(s, ast.If) and (exits(s.body) or exits(s.orelse))]
            p = q
        return out

    def fields(self, exprs, scope, depth=0):
        """The fields `exprs`, in `scope`, read: directly, through names, and through parameters what the arguments
        bound to them by their function's calls read."""
        read = set().union(*(self.reads(e, scope) for e in exprs if e is not None))
        out = {r for r in read if isinstance(r, str)}
        if depth < MAX_DEPTH:
            for param in read - out:
                for call, skip in self.calls.get(param.function, []):
                    args = self.bound(call, param.function, skip).get(param.name, [])
                    out |= self.fields(args, self.scope[call], depth + 1)
        return out

    def check_fields(self, exprs, scope, depth=0):
        """The fields a check's `exprs`, in `scope`, read: fields(), else, when `scope` has at most
        MAX_GUARDED_CALLS calls, those of the tests guarding them, read as a check's."""
        out = self.fields(exprs, scope, depth)
        calls = self.calls.get(scope, [])
        if not out and depth < MAX_DEPTH and len(calls) <= MAX_GUARDED_CALLS and not self.outside(scope):
            for call, _ in calls:
                out |= self.check_fields(self.guards(call), self.scope[call], depth + 1)
        return out

    def followed(self):
        """The files, other than the check files, of the functions reached, in a fixed order."""
        return sorted({self.module_of(fn) for fn in self.depth})

    def checks(self, f):
        """(line, fields) of every raise and assert of file `f` that reads at least one field: all of a check
        file's, those of the functions reached of another."""
        for n in ast.walk(self.trees[f]):
            if isinstance(n, (ast.Raise, ast.Assert)) and (f in self.files or self.scope[n] in self.depth):
                read = self.check_fields(check_tests(n) + self.guards(n), self.scope[n])
                if read:
                    yield n.lineno, read


def lines(fields):
    """Prints every check of `fields`, per row (field, file) and release, newest release first."""
    dumps = json.load(open(os.path.join(HERE, "flag_dumps.json")))
    for v in releases():
        release = Release(v, {dumps["actions"][i]["dest"] for i in dumps["releases"][v]["actions"]})
        found = {}
        for f in release.files + release.followed():
            for line, read in release.checks(f):
                for field in read & fields:
                    found.setdefault((field, f), []).append(line)
        for (field, f), at in sorted(found.items()):
            print(field, f, v, ",".join(map(str, sorted(at))))


def main():
    """Prints check_table.c."""
    dumps = json.load(open(os.path.join(HERE, "flag_dumps.json")))
    rels = releases()
    rows = {}  # (field, file) -> [mask, newest version, line]
    for bit, v in enumerate(rels):  # newest first: a row's citation is its newest release's
        release = Release(v, {dumps["actions"][i]["dest"] for i in dumps["releases"][v]["actions"]})
        first = {}  # (field, file) -> the line of this release's first check of it
        for f in release.files + release.followed():
            for line, read in release.checks(f):
                for field in read:
                    first[(field, f)] = min(line, first.get((field, f), line))
        for key, line in first.items():
            rows.setdefault(key, [0, v, line])[0] |= 1 << bit
    out = []
    w = out.append
    w("/* GENERATED by tools/sglang-oracle/gen_checks.py from each release's own")
    w(" * python/sglang/srt/server_args.py and arg_groups/, and the functions of")
    w(" * other sglang modules they call: the ServerArgs fields a start-up check")
    w(" * (raise, assert) reads, per file of the checks. Do not edit; regenerate. */")
    w('#include "engine/sglang/sglang.h"')
    w("")
    w(f"const sglang_check_row SGLANG_CHECK_ROWS[{len(rows)}] = {{")
    # a field's rows of the check files first: check_reading() in flags.c cites a field's first row
    for (field, f), (mask, v, line) in sorted(rows.items(), key=lambda r: (r[0][0], not check_file(r[0][1]), r[0][1])):
        cite = f"sglang {v}: python/sglang/srt/{f}:{line}"
        w(f"    {{{c_str(field)}, 0x{mask:016x}u, {c_str(cite)}}},")
    w("};")
    w(f"const unsigned SGLANG_NCHECK_ROWS = {len(rows)};")
    print("\n".join(out))


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--lines"]:
        lines(set(sys.argv[2].split(",")))
    else:
        main()
