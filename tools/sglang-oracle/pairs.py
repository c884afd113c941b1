"""PD pairs: the bootstrap between a prefill and a decode worker, run from
the two releases' own code (each side its own release, in its own process).

usage:
  pairs.py query REL                        the query REL's decode sends for the prefill server's info (JSON)
  pairs.py serve SCEN REL GPU QUERIES       per prefill case and query (QUERIES: a JSON list), REL's
                                            bootstrap server's reply (JSON lines); SCEN: a SCENARIOS name
  pairs.py receive SCEN REL GPU REPLIES...  per reply (serve's output) and decode case, what REL's decode
                                            does with it (JSON lines)
  pairs.py sweep WORKDIR OUT                all of it for SCENARIOS, then OUT (the table, format:
                                            write_table)

What runs, per side, from the release's source (disaggregation/):
  prefill: the worker's resolution (oracle.Oracle.run), the `kv_args.page_size` and
    `kv_args.kv_cache_dtype_str` statements of prefill.py, the model runner's kv_cache_dtype_str
    (Oracle.kv_cache_dtype_str), CommonKVManager's registration (register_to_bootstrap /
    _register_to_bootstrap) into CommonKVBootstrapServer's own __init__ and route handlers
    (_handle_route_put, then _handle_route_get with the decode's query); HTTP is a function call.
  decode: the same resolution and decode.py statements, then the release's fetch of the prefill's
    info and its sanity checks: CommonKVManager.try_ensure_parallel_info up to its last "mismatch"
    check (0.5.10+), or _get_prefill_parallel_info_from_server and the CommonKVReceiver.__init__
    statements from that call to the page-size check (0.5.8-0.5.9). A release with no "mismatch"
    check in common/conn.py (<= 0.5.7) is recorded as checking nothing. Then, once the info is in, the
    CommonKVReceiver.__init__ statements from `self.prefill_info = ...` through `if reason is not None`
    (0.5.22+: the decode allocation policy), which fail each request. A decode whose host receive
    threshold turns host receive on (0.5.21+) runs decode.py's check of the state types its pool adds,
    then its check that its KV manager writes to host destinations (Side._host_destination).
Stand-ins (not the release's code): one prefill rank (attention TP, CP, DP and PP sizes 1: the
registration count the server waits for is one); get_parallel() and get_serving() are fixed values
(only the reply's parallel fields come from them; get_disagg() is the worker's resolved view); the
pool's page size is server_args.page_size (the
model runner builds its pools with it); kv_layout is None (get_pd_kv_layout gives one for DeepSeek-V4
pools only: ERAS.md section 5); addresses and ports are placeholders; the state types a decode's pool adds are StateType.DSA for
a DSA model (what setup_state_kv_args adds for DSATokenToKVPool: checked) and none for MLA, with no
sidecar pools; the decode KV manager's supports_host_destination is BaseKVManager's (nothing else
defines it: checked), and decode.py's host-pool sizing and buffer checks between the two are not run.
Outcomes: {"pass": true}, {"refused": "<Type>: <message>"} (the decode raises at bootstrap),
{"no_info": "<the decode's log line>"} (it cannot read the prefill's info and retries),
{"request": "<reason>"} (the decode's receiver fails each request), {"worker": "<refusal>"} (a worker
is refused on its own; the table says which side).
"""
import ast, asyncio, contextlib, io, itertools, json, os, re, subprocess, sys, types, urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# name: (model, prefill's extra flags, decode's extra flags, releases (None: all), releases run against
# each other on H200). DeepSeek-V3.2 (DSA: the page size is forced to 64) and DeepSeek-V3 (MLA: the page
# size is the user's, so the bootstrap's page-size check is reached); the decode allocation policy
# (0.5.22+) on one side or both, at TP 1 (prefill_complete refuses attention TP above one) and at TP 8; the
# decode host receive threshold (0.5.21+; on above 0 in 0.5.21, below 1 after): on for the decode of a
# DSA and of an MLA model (the prefill's 0 is off in 0.5.21, on after), out of range for the decode (the prefill's 1 is on in 0.5.21,
# off after), and with the cpu_tensor retraction backup it refuses; the host_pool retraction backup (0.5.18+)
# on both sides.
CROSS = ["0.5.3rc2", "0.5.5", "0.5.7", "0.5.8", "0.5.9", "0.5.10", "0.5.12.post1", "0.5.13", "0.5.16", "0.5.17", "0.5.20", "0.5.21", "0.5.22", "0.5.23"]
_PC = ["--disaggregation-decode-allocation-policy", "prefill_complete"]
_POLICY_RELEASES = ["0.5.20", "0.5.21", "0.5.22", "0.5.23"]
_POLICY_CROSS = ["0.5.21", "0.5.22", "0.5.23"]
_HR = ["--disaggregation-decode-host-receive-threshold"]
_HP = ["--disaggregation-decode-retraction-backup", "host_pool"]
SCENARIOS = {
    "DEEPSEEK_V32": ("DEEPSEEK_V32", [], [], None, CROSS),
    "DEEPSEEK_V3": ("DEEPSEEK_V3", [], [], None, CROSS),
    "POLICY_PREFILL": ("DEEPSEEK_V32", ["--tp", "1"] + _PC, ["--tp", "1"], _POLICY_RELEASES, _POLICY_CROSS),
    "POLICY_DECODE": ("DEEPSEEK_V32", ["--tp", "1"], ["--tp", "1"] + _PC, _POLICY_RELEASES, _POLICY_CROSS),
    "POLICY_BOTH": ("DEEPSEEK_V32", ["--tp", "1"] + _PC, ["--tp", "1"] + _PC, _POLICY_RELEASES, _POLICY_CROSS),
    "POLICY_TP8": ("DEEPSEEK_V32", _PC, _PC, _POLICY_RELEASES, _POLICY_CROSS),
    "HOST_RECV": ("DEEPSEEK_V32", _HR + ["0"], _HR + ["0.5"], _POLICY_RELEASES, _POLICY_CROSS),
    "HOST_RECV_MLA": ("DEEPSEEK_V3", _HR + ["0"], _HR + ["0.5"], _POLICY_RELEASES, _POLICY_CROSS),
    "HOST_RECV_RANGE": ("DEEPSEEK_V32", _HR + ["1"], _HR + ["1.5"], _POLICY_RELEASES, _POLICY_CROSS),
    "HOST_RECV_CPU": ("DEEPSEEK_V32", [], _HR + ["0.5", "--disaggregation-decode-retraction-backup", "cpu_tensor"],
                      _POLICY_RELEASES, _POLICY_CROSS),
    "HOST_POOL": ("DEEPSEEK_V32", _HP, _HP, ["0.5.17", "0.5.18", "0.5.19"] + _POLICY_RELEASES, _POLICY_CROSS),
}
DTYPES = [None, "fp8_e4m3", "bf16", "bfloat16", "auto"]
PAGES = [None, 32]
PREFILL = [(dt, pg, False) for dt in DTYPES for pg in PAGES]
DECODE = [(dt, pg, hs) for dt in DTYPES for pg in PAGES for hs in (False, True)]
# (prefill release, decode release, prefill GPU, decode GPU): every release with itself on six GPU
# pairs, and pairs of releases on H200 (the release before and after each change of the bootstrap)
GPU_PAIRS = [("H200", "H200"), ("B300", "B300"), ("H200", "B300"), ("B300", "H200"), ("MI300X", "MI355X"),
             ("MI355X", "MI300X")]
ADDR = "127.0.0.1:8998"


def argv(mode, case, extra=()):
    dt, page, hs = case
    a = ["--tp", "8", "--disaggregation-mode", mode]
    if dt: a += ["--kv-cache-dtype", dt]
    if page: a += ["--page-size", str(page)]
    if hs: a += ["--enable-hisparse", "--disable-radix-cache"]
    return a + list(extra)


class Broken(BaseException):
    """The harness cannot run this release's code (never a verdict). A BaseException, so the release's own
    `except Exception` around its fetch cannot take it for a failed fetch."""


class Bare:
    """An instance of a release's class without its __init__: the attributes given, and a clear error
    for any other the code reads."""
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __getattr__(self, name):
        raise Broken(f"the code reads {name}, which the harness does not provide")


def bare(cls, **kw):
    """A subclass instance of cls (its methods) with only the attributes kw."""
    sub = type("Bare" + cls.__name__, (Bare, cls), {})
    sub.__abstractmethods__ = frozenset()  # the class's other methods are never called
    obj = object.__new__(sub)
    obj.__dict__.update(kw)
    return obj


class Log:
    """The release's logger: its error lines (what a user sees of a failed fetch)."""
    def __init__(self): self.lines = []
    def _rec(self, msg, *a, **k): self.lines.append(str(msg) % a if a else str(msg))
    def _skip(self, *a, **k): pass
    error = warning = exception = _rec
    info = debug = _skip


class Reply:
    def __init__(self, status, text="", data=None):
        self.status_code = self.status = status
        self.text = text if data is None else json.dumps(data)
        self._data = data

    def json(self):
        return self._data if self._data is not None else json.loads(self.text)


class Web:
    """aiohttp.web as the route handlers use it."""
    class Application:
        def __init__(self, *a, **k): self.router = types.SimpleNamespace(add_route=lambda *a, **k: None)

    @staticmethod
    def Response(text="", status=200, **k): return Reply(status, text)

    @staticmethod
    def json_response(data, status=200, **k): return Reply(status, data=json.loads(json.dumps(data)))


class Request:
    def __init__(self, payload=None, query=None):
        self._payload, self.query = payload, query or {}

    async def json(self): return self._payload


from oracle import _method, _tree as tree  # noqa: E402 (the release files' ASTs, parsed once)


def has_mismatch_raise(node):
    """1 when node has an `if` that raises with a "mismatch" message (the bootstrap's sanity checks)."""
    return any(isinstance(n, ast.If) and "mismatch" in ast.unparse(n) and
               any(isinstance(r, ast.Raise) for r in ast.walk(n)) for n in ast.walk(node))


def function(fn, body, path, g):
    """Compile fn's signature with `body` (statements of the release's source, lines kept) in globals g."""
    f = ast.FunctionDef(fn.name, fn.args, body, [], None, None)
    mod = ast.fix_missing_locations(ast.Module([f], []))
    exec(compile(mod, path, "exec"), g)
    return g[fn.name]


def block(path, g, name, first, last, or_next=False):
    """A function name(self) of a run of statements of the file at path, in globals g: the first block
    (a body or an else) with a statement `first` takes, from it through the next one `last` takes (or_next:
    through the statement after it when none does, if there is one); None when no block has such a run."""
    for n in ast.walk(tree(path)):
        for field in ("body", "orelse"):
            body = getattr(n, field, None)
            if not isinstance(body, list):
                continue
            start = next((i for i, st in enumerate(body) if first(st)), None)
            if start is None:
                continue
            end = next((i for i, st in enumerate(body) if i > start and last(st)), start + 1 if or_next else None)
            if end is not None and end < len(body):
                fake = ast.FunctionDef(name, ast.arguments([], [ast.arg("self")], None, [], [], None, []), [], [],
                                       None, None)
                return function(fake, body[start:end + 1], path, g)
    return None


class Side:
    """One release on one GPU: its worker resolution and its disaggregation code."""

    def __init__(self, ver, gpu, scenario="DEEPSEEK_V32"):
        from oracle import Oracle, load_models, default_model_dir
        self.ver = ver
        self.o = Oracle(ver, gpu, os.environ.get("SGLANG_SRC"))
        model, pextra, dextra = SCENARIOS[scenario][:3]
        self.model = load_models(default_model_dir())[model]
        self.extra = {"prefill": pextra, "decode": dextra}
        self.dis = os.path.join(self.o.root, "sglang/srt/disaggregation")
        import importlib
        self.conn = importlib.import_module("sglang.srt.disaggregation.common.conn")
        self.conn_path = os.path.join(self.dis, "common/conn.py")
        self.log = Log()
        self.workers = {}
        self.conn.logger = self.log
        self.conn.web = Web

    # ------------------------------------------------------------ a worker
    def worker(self, mode, case):
        """(view, kv_args, manager attributes) of the resolved worker, or a refusal string."""
        if (mode, case) not in self.workers:
            self.workers[(mode, case)] = self._worker(mode, case)
        return self.workers[(mode, case)]

    def _worker(self, mode, case):
        out = self.o.run(self.model, argv(mode, case, self.extra[mode]))
        if "refused" in out:
            if out["refused"].startswith("oracle: "):
                raise Broken(out["refused"])
            return out["refused"]
        view = self.o.view
        if mode == "decode" and (refusal := self._host_destination(view)):
            return refusal
        runner = types.SimpleNamespace(kv_cache_dtype_str=self.o.kv_cache_dtype_str(view))
        me = types.SimpleNamespace(
            token_to_kv_pool=types.SimpleNamespace(page_size=view.page_size),
            scheduler=types.SimpleNamespace(enable_hisparse=bool(getattr(view, "enable_hisparse", False)),
                                            tp_worker=types.SimpleNamespace(model_runner=runner)))
        kv_args = types.SimpleNamespace(kv_layout=None, state_types=())
        path = os.path.join(self.dis, f"{mode}.py")
        for st in sorted((n for n in ast.walk(tree(path)) if isinstance(n, ast.Assign) and
                          ast.unparse(n.targets[0]) in ("kv_args.page_size", "kv_args.kv_cache_dtype_str")),
                         key=lambda n: n.lineno):
            exec(compile(ast.Module([st], []), path, "exec"), {}, {"self": me, "kv_args": kv_args})
        attrs = {}
        init = _method(self.conn_path, "CommonKVManager", "__init__")
        if init is None:
            raise Broken("no CommonKVManager.__init__")
        for st in (n for n in ast.walk(init) if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) in
                   ("self.kv_cache_dtype_str", "self.kv_layout", "self.dsv41_spec_layout")):
            tmp = types.SimpleNamespace()
            exec(compile(ast.Module([st], []), self.conn_path, "exec"), self.conn.__dict__,
                 {"self": tmp, "args": kv_args})
            attrs.update(vars(tmp))
        return view, kv_args, attrs

    def _host_destination(self, view):
        """The decode's refusal where host receive (0.5.21+) stops its KV manager's setup, or None: decode.py's
        own `if` on the state types its pool adds to the transfer, then its `if` on
        kv_manager.supports_host_destination, run with the worker's resolved view. A DSA pool adds
        StateType.DSA (the release's setup_state_kv_args does for DSATokenToKVPool: checked), an MLA pool none;
        the tree cache's sidecar pools are taken as none. The manager's supports_host_destination is
        BaseKVManager's: nothing else in the release defines it (checked). The host-pool sizing and buffer
        checks between the two are not run."""
        path = os.path.join(self.dis, "decode.py")
        ifs = [n for n in ast.walk(tree(path)) if isinstance(n, ast.If)]
        gates = [n for n in ifs if "kv_manager.supports_host_destination" in ast.unparse(n.test)]
        states = [n for n in ifs if "kv_args.state_types" in ast.unparse(n.test) and
                  "sidecar_pool_specs" in ast.unparse(n.test)]
        if not gates:
            if "host_receive_threshold" in open(path).read():
                raise Broken("decode.py has a host receive threshold but no host-destination check the harness knows")
            return None
        if len(gates) != 1 or len(states) != 1:
            raise Broken(f"decode.py has {len(gates)} host-destination and {len(states)} state-type checks")
        import importlib
        base = importlib.import_module("sglang.srt.disaggregation.base.conn")
        self._check_host_destination_owners()
        hf = self.o.getcfg()
        is_dsa = getattr(self.o.mc, "is_deepseek_nsa", None) or getattr(self.o.mc, "is_deepseek_dsa", None)
        if is_dsa is None:
            raise Broken("model_config has neither is_deepseek_nsa nor is_deepseek_dsa")
        dsa = is_dsa(hf)
        setup = next(n for n in ast.walk(tree(os.path.join(self.dis, "utils.py")))
                     if isinstance(n, ast.FunctionDef) and n.name == "setup_state_kv_args")
        if dsa and not re.search(r"StateType\.DSA\b", ast.unparse(setup)):
            raise Broken("setup_state_kv_args adds no StateType.DSA for a DSA pool")
        g = {"get_disagg": lambda: view, "StateType": base.StateType, "PoolName": None,
             "kv_args": types.SimpleNamespace(state_types=[base.StateType.DSA] if dsa else []),
             "self": types.SimpleNamespace(tree_cache=types.SimpleNamespace(sidecar_pool_specs=[])),
             "kv_manager": types.SimpleNamespace(supports_host_destination=base.BaseKVManager.supports_host_destination)}
        for gate in states + gates:
            # the state-type check sits inside decode.py's own `if` on the threshold
            test = next(n for n in ast.walk(tree(path)) if isinstance(n, ast.If) and gate in n.body) \
                if gate in states else None
            code = ast.If(test=test.test, body=[gate], orelse=[]) if test is not None else gate
            try:
                exec(compile(ast.fix_missing_locations(ast.Module([code], [])), path, "exec"), g)
            except ValueError as e:
                return f"init: ValueError: {e}"
        return None

    def _check_host_destination_owners(self):
        """Broken unless BaseKVManager (base/conn.py) is the only code of the release that defines
        supports_host_destination (decode.py reads it)."""
        if getattr(self, "_owners_checked", False):
            return
        srt = os.path.join(self.o.root, "sglang/srt")
        for folder, _, files in os.walk(srt):
            for f in (os.path.join(folder, f) for f in files if f.endswith(".py")):
                if os.path.relpath(f, self.dis) in ("base/conn.py", "decode.py"):
                    continue
                with open(f, errors="replace") as fh:
                    if "supports_host_destination" in fh.read():
                        raise Broken(f"{f} defines or sets supports_host_destination")
        self._owners_checked = True

    # ------------------------------------------------------------ prefill
    def serve(self, case, queries):
        """The bootstrap server's reply to each query after the prefill registers: {query: [status, body]}."""
        w = self.worker("prefill", case)
        if isinstance(w, str):
            return {"worker": w}
        view, kv_args, attrs = w
        conn = self.conn

        class Server(conn.CommonKVBootstrapServer):
            def _setup_routes(self): pass
            def run(self): pass

        with contextlib.redirect_stderr(io.StringIO()):
            server = Server("127.0.0.1", 8998)

        puts = []

        def put(url, json=None, **k):
            puts.append(asyncio.run(server._handle_route_put(Request(payload=json))))
            return puts[-1]

        conn.requests = types.SimpleNamespace(put=put, get=None)
        reg = next((m for m in ("register_to_bootstrap", "_register_to_bootstrap")
                    if hasattr(conn.CommonKVManager, m)), None)
        for name, value in (("get_parallel", types.SimpleNamespace(
                enable_cp_tp_group_sharing=False, load_balance_method="follow_bootstrap_room",
                enable_dsa_cache_layer_split=False, enable_kv_cache_sharding=False)),
                ("get_serving", types.SimpleNamespace(port=30000)),
                ("get_disagg", view)):
            if hasattr(conn, name):
                setattr(conn, name, lambda v=value: v)
        mgr = bare(conn.CommonKVManager, kv_args=kv_args, server_args=view, dist_init_addr=None,
                   bootstrap_host="127.0.0.1", bootstrap_port=8998, attn_tp_size=1, attn_tp_rank=0,
                   attn_cp_size=1, attn_cp_rank=0, attn_dp_size=1, attn_dp_rank=0, pp_size=1, pp_rank=0,
                   system_dp_size=1, system_dp_rank=0, local_ip="127.0.0.1", rank_port=17000, **attrs)
        self.log.lines.clear()
        getattr(mgr, reg)()
        if [r.status_code for r in puts] != [200]:
            raise Broken(f"registration did not reach the server: {self.log.lines}")
        out = {}
        for q in queries:
            query = {k: v[0] for k, v in urllib.parse.parse_qs(q, keep_blank_values=True).items()}
            r = asyncio.run(server._handle_route_get(Request(query=query)))
            out[q] = [r.status_code, r._data if r._data is not None else r.text]
        return {"replies": out}

    # ------------------------------------------------------------- decode
    def _fetch(self):
        """(kind, function) that fetches and checks the prefill's info."""
        if not hasattr(self, "_fetched"):
            self._fetched = self._find_fetch()
        return self._fetched

    def _find_fetch(self):
        fn = _method(self.conn_path, None, "try_ensure_parallel_info")
        if fn is not None:
            last = max(i for i, st in enumerate(fn.body) if has_mismatch_raise(st))
            # then the info goes into the table the receiver reads (the rank mapping before it is not run)
            store = ast.parse(f"self.prefill_info_table[{fn.args.args[1].arg}] = info").body
            return "info", function(fn, fn.body[:last + 1] + store, self.conn_path, self.conn.__dict__)
        # <= 0.5.9: the receiver's __init__ fetches, gives up on missing info (the statement after the
        # fetch), then (0.5.8-0.5.9) checks
        check = block(self.conn_path, self.conn.__dict__, "check",
                      lambda st: isinstance(st, ast.Assign) and
                      "_get_prefill_parallel_info_from_server()" in ast.unparse(st),
                      has_mismatch_raise, or_next=True)
        if check is None:
            raise Broken("no fetch of the prefill's info in a shape the harness knows")
        return "receiver", check

    def _policy(self):
        """The receiver's statements that judge the prefill's info once it is in (0.5.22+), or None."""
        if not hasattr(self, "_judge"):
            self._judge = block(self.conn_path, self.conn.__dict__, "judge",
                                lambda st: isinstance(st, ast.Assign) and
                                ast.unparse(st.targets[0]) == "self.prefill_info" and
                                "prefill_info_table[self.bootstrap_addr]" in ast.unparse(st.value),
                                lambda st: isinstance(st, ast.If) and ast.unparse(st.test) == "reason is not None")
        return self._judge

    def _request(self):
        """What the decode's receiver says of the info in its table: None, or the reason each request fails."""
        judge = self._policy()
        if judge is None:
            if "decode_allocation_policy" in open(self.conn_path).read():
                raise Broken("the release has a decode allocation policy but no receiver check the harness knows")
            return None
        failed = []
        kv_mgr = Bare(prefill_info_table=self.info_table, update_status=lambda *a: None,
                      record_failure=lambda room, msg: failed.append(msg))
        recv = bare(self.conn.CommonKVReceiver, bootstrap_addr=ADDR, bootstrap_room=0, kv_mgr=kv_mgr)
        try:
            judge(recv)
        except Exception as e:  # nothing there raises in the release: the harness
            raise Broken(f"the receiver's check raised {type(e).__name__}: {e}") from e
        return failed[0] if failed else None

    def query(self):
        """The query string the decode's fetch sends."""
        kind, fn = self._fetch()
        seen = []

        def get(url, **k):
            seen.append(url)
            raise ConnectionError("query only")
        self.conn.requests = types.SimpleNamespace(get=get)
        self._run(kind, fn, None)
        if len(seen) != 1:
            raise Broken(f"expected one GET, saw {seen}")
        return urllib.parse.urlsplit(seen[0]).query

    def _run(self, kind, fn, w):
        if kind == "info":
            attrs = dict(w[2]) if w else {}
            mgr = bare(self.conn.CommonKVManager, prefill_info_table={}, kv_args=w[1] if w else None,
                       server_args=w[0] if w else None, attn_tp_size=1, attn_cp_size=1, is_mla_backend=True,
                       is_hybrid_mla_backend=False, **attrs)
            self.info_table = mgr.prefill_info_table
            return fn(mgr, ADDR)
        # the decode's kv_args (decode.py sets page_size from 0.5.8) and the tables the fetch fills
        self.failed = []
        mgr = Bare(kv_args=w[1] if w else Bare(),
                   record_failure=lambda room, msg: (self.failed.append(msg), self.log.lines.append(msg)),
                   update_status=lambda *a: None, **{f"prefill_{k}_table": {} for k in
                                                     ("attn_tp_size", "dp_size", "pp_size", "page_size")})
        recv = bare(self.conn.CommonKVReceiver, bootstrap_addr=ADDR, bootstrap_room=0, kv_mgr=mgr)
        return fn(recv)

    def receive(self, case, reply):
        """What this decode does with the prefill server's reply [status, body]."""
        w = self.worker("decode", case)
        if isinstance(w, str):
            return {"worker": w}
        kind, fn = self._fetch()
        status, body = reply
        if hasattr(self.conn, "get_disagg"):
            self.conn.get_disagg = lambda: w[0]
        self.conn.requests = types.SimpleNamespace(
            get=lambda url, **k: Reply(status, data=body) if isinstance(body, dict) else Reply(status, body))
        self.log.lines.clear()
        try:
            ok = self._run(kind, fn, w)
        except (Broken, AttributeError, NameError) as e:  # the harness, never the release's verdict
            raise Broken(f"{type(e).__name__}: {e}") from e
        except Exception as e:
            return {"refused": f"{type(e).__name__}: {e}"}
        if (kind == "info" and ok is False) or (kind == "receiver" and self.failed):
            if not self.log.lines:
                raise Broken("the fetch failed without a log line")
            return {"no_info": " | ".join(self.log.lines)[:400]}
        reason = self._request() if kind == "info" else None
        return {"request": reason} if reason else {"pass": True}


# ------------------------------------------------------------------ driver
def py(*args, out=None):
    """Runs pairs.py ARGS; its output goes to `out` (replaced only when the run succeeds) or is returned."""
    with open(out + ".tmp", "w") if out else contextlib.nullcontext() as f:
        r = subprocess.run([sys.executable, os.path.abspath(__file__), *args], stdout=f or subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    if r.returncode:
        raise SystemExit(f"pairs.py {' '.join(args)} failed:\n{r.stderr[-2000:]}")
    if out:
        os.replace(out + ".tmp", out)
    return r.stdout


def sweep(work, out):
    """Runs what WORKDIR lacks (a run that stopped resumes), then writes the table. After a change of the
    release list or of this file, start from an empty WORKDIR."""
    from concurrent.futures import ThreadPoolExecutor
    same = releases()
    combos = []
    for name, (_, _, _, only, cross) in SCENARIOS.items():
        combos += [(name, v, v, pg, dg) for v in (only or same) for pg, dg in GPU_PAIRS]
        combos += [(name, p, d, "H200", "H200") for p in cross for d in cross if p != d]
    os.makedirs(work, exist_ok=True)
    jobs = int(os.environ.get("JOBS", "2"))

    def done(path, lines):
        return os.path.exists(path) and sum(1 for _ in open(path)) == lines

    qfile = os.path.join(work, "queries.json")
    if not os.path.exists(qfile):
        with ThreadPoolExecutor(jobs) as ex:
            queries = sorted(set(ex.map(lambda v: json.loads(py("query", v)), same)))
        json.dump(queries, open(qfile, "w"))
    servers = sorted({(m, p, pg) for m, p, _, pg, _ in combos})
    sfile = lambda m, p, pg: os.path.join(work, f"serve_{m}_{p}_{pg}.jsonl")
    redo = [s for s in servers if not done(sfile(*s), len(PREFILL))]
    with ThreadPoolExecutor(jobs) as ex:
        list(ex.map(lambda s: py("serve", *s, qfile, out=sfile(*s)), redo))
    receivers = {}
    for m, p, d, pg, dg in combos:
        receivers.setdefault((m, d, dg), set()).add(sfile(m, p, pg))
    rfile = lambda m, d, dg: os.path.join(work, f"recv_{m}_{d}_{dg}.jsonl")
    for key, serves in receivers.items():  # a decode that read a prefill's replies run again reads them again
        if serves & {sfile(*s) for s in redo} and os.path.exists(rfile(*key)):
            os.remove(rfile(*key))
    todo = [(k, sorted(v)) for k, v in receivers.items() if not done(rfile(*k), len(v) * len(PREFILL) * len(DECODE))]
    with ThreadPoolExecutor(jobs) as ex:
        list(ex.map(lambda r: py("receive", *r[0], *r[1], out=rfile(*r[0])), todo))
    write_table(work, combos, out)


def releases():
    src = open(os.path.join(HERE, "../../src/engine/sglang/releases.c")).read()
    return sorted(set(re.findall(r'"(0\.[0-9][0-9.a-z]*)"', src)), key=vkey)


def vkey(v):
    return [int(x) if x.isdigit() else x for x in re.split(r"[.]|(?<=\d)(?=[a-z])", v)]


def write_table(work, combos, out):
    """OUT, tab-separated ('#' comments):
      format   2
      scenario <name> <model> <prefill's extra flags> <decode's extra flags>   ('-': none)
      prefill  <i> <kv_cache_dtype> <page_size> <hisparse>   the prefill cases ('-' unset), i from 0
      decode   <i> <kv_cache_dtype> <page_size> <hisparse>   the decode cases
      result   <id> pass | refused <text> | no_info <text> | request <text> | worker prefill|decode <text> |
               worker both <prefill's text> <decode's text>
      pairs    <scenario> <prefill release> <decode release> <prefill GPU> <decode GPU> <ids>
    <ids>: the result of every (prefill i, decode j), prefill-major, run-length coded as id or id*count,
    comma-separated. <model>: a file of tests/conformance/sglang/models. Each worker's command line:
    --model-path <model> --tp 8 --disaggregation-mode MODE [--kv-cache-dtype D] [--page-size N]
    [--enable-hisparse --disable-radix-cache] <the scenario's extra flags for MODE>."""
    results, lines = {}, []

    one = lambda text: text.replace("\t", " ").replace("\n", " ")

    def rid(r, decode_refusal):
        kind = next((k for k in ("worker", "refused", "no_info", "request") if k in r), "pass")
        key = kind if kind == "pass" else kind + "\t" + one(r[kind])
        if kind == "worker" and decode_refusal is False:  # the prefill started: the decode is refused
            key = "worker\tdecode\t" + one(r[kind])
        elif kind == "worker":
            key = "worker\tprefill\t" + one(r[kind]) if decode_refusal is None else \
                  "worker\tboth\t" + one(r[kind]) + "\t" + one(decode_refusal)
        return results.setdefault(key, len(results))

    recv, refused_prefill, decode_refusal = {}, set(), {}
    for f in sorted(os.listdir(work), key=lambda f: not f.startswith("serve_")):  # the prefills first
        for line in open(os.path.join(work, f)) if f.startswith(("recv_", "serve_")) else ():
            r = json.loads(line)
            if f.startswith("serve_") and "worker" in r["out"]:
                refused_prefill.add((r["m"], r["p"], r["pgpu"], r["pi"]))
            elif f.startswith("recv_"):
                recv[(r["m"], r["p"], r["pgpu"], r["d"], r["dgpu"], r["pi"], r["di"])] = r["out"]
                decode = (r["m"], r["d"], r["dgpu"], r["di"])
                if "decode_worker" in r["out"]:
                    decode_refusal[decode] = r["out"]["decode_worker"]
                elif (r["m"], r["p"], r["pgpu"], r["pi"]) not in refused_prefill:  # the decode's own verdict
                    decode_refusal[decode] = r["out"]["worker"] if "worker" in r["out"] else None

    def decode_of(m, p, pg, d, dg, i, j):
        """None: the decode starts; its refusal; False: the prefill started (the result is the decode's)."""
        if (m, p, pg, i) not in refused_prefill:
            return False
        if (m, d, dg, j) not in decode_refusal:
            raise SystemExit(f"no run says whether {m} {d} {dg} decode case {j} starts: run its receive again")
        return decode_refusal[(m, d, dg, j)]
    for m, p, d, pg, dg in combos:
        ids = [rid(recv[(m, p, pg, d, dg, i, j)], decode_of(m, p, pg, d, dg, i, j))
               for i in range(len(PREFILL)) for j in range(len(DECODE))]
        runs = [(k, len(list(g))) for k, g in itertools.groupby(ids)]
        lines.append("\t".join(["pairs", m, p, d, pg, dg, ",".join(f"{k}*{n}" if n > 1 else str(k) for k, n in runs)]))
    with open(out, "w") as f:
        f.write("# SGLang's own PD bootstrap, from tools/sglang-oracle/pairs.py; do not edit\n"
                "# format: pairs.py write_table\nformat\t2\n")
        for name, (model, pextra, dextra, _, _) in SCENARIOS.items():
            f.write(f"scenario\t{name}\t{model}\t{' '.join(pextra) or '-'}\t{' '.join(dextra) or '-'}\n")
        for kind, cases in (("prefill", PREFILL), ("decode", DECODE)):
            for i, (dt, pg, hs) in enumerate(cases):
                f.write(f"{kind}\t{i}\t{dt or '-'}\t{pg or '-'}\t{int(hs)}\n")
        for key, i in sorted(results.items(), key=lambda x: x[1]):
            f.write(f"result\t{i}\t{key}\n")
        f.write("\n".join(lines) + "\n")


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "sweep":
        return sweep(args[0], args[1])
    if cmd == "query":
        with contextlib.redirect_stdout(io.StringIO()):
            q = Side(args[0], "H200").query()
        print(json.dumps(q))
        return
    model, ver, gpu = args[:3]
    side = Side(ver, gpu, model)
    if cmd == "serve":
        queries = json.load(open(args[3]))
        for i, case in enumerate(PREFILL):
            print(json.dumps({"m": model, "p": side.ver, "pgpu": gpu, "pi": i, "out": side.serve(case, queries)}))
        return
    if cmd == "receive":
        q = side.query()
        for f in args[3:]:
            for line in open(f):
                s = json.loads(line)
                if s["m"] != model:
                    raise SystemExit(f"{f}: replies for {s['m']}, not {model}")
                for j, case in enumerate(DECODE):
                    if "worker" in s["out"]:  # the decode is resolved all the same: its own refusal, or None
                        dw = side.worker("decode", case)
                        out = {"worker": s["out"]["worker"], "decode_worker": dw if isinstance(dw, str) else None}
                    else:
                        out = side.receive(case, s["out"]["replies"][q])
                    print(json.dumps({"m": model, "p": s["p"], "pgpu": s["pgpu"], "pi": s["pi"], "d": side.ver,
                                      "dgpu": gpu, "di": j, "out": out}))
        return
    raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
