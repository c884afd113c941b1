/* Files that describe workers as users keep them: shell text around
 * launch commands (src/common/shell.c, src/worker/launch.c) and recipes
 * (src/recipe). */
#include "support.h"
#include "recipe/recipe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The words of command `c` of `s`, joined by '|'. */
static const char *command_text(const shell_script *s, size_t c)
{
    static char out[1024];
    out[0] = '\0';
    const shell_command *cmd = &s->commands[c];
    for (size_t i = cmd->first; i < cmd->first + cmd->n; i++)
        str_join_add(out, sizeof out, "|", s->words.words[i]);
    return out;
}

static void test_recipe__script_cut_into_commands(void **state)
{
    (void)state;
    shell_script s;
    kvc_diag d;
    const char *text = "# a comment\n"
                       "export A=1; B='x y' python3 -m m --p \"$(hostname -i)\" 2>&1 | tee log &\n"
                       "if true; then run --x ${V:-1} && echo `date`; fi\n"
                       "cat > f.yaml <<'EOF'\n"
                       "python3 -m sglang.launch_server --not-a-command\n"
                       "EOF\n"
                       "last \\\n"
                       "  --word\\\n"
                       "x >> out 2> err < in &> both \\";
    assert_int_equal(shell_script_split(text, "t.sh", &s, &d), KVC_OK);
    assert_int_equal(s.ncommands, 8);
    assert_string_equal(command_text(&s, 0), "export|A=1");
    assert_string_equal(command_text(&s, 1), "B=x y|python3|-m|m|--p|$(hostname -i)");
    assert_string_equal(command_text(&s, 2), "tee|log");
    assert_string_equal(command_text(&s, 3), "true");
    assert_string_equal(command_text(&s, 4), "run|--x|${V:-1}");
    assert_string_equal(command_text(&s, 5), "echo|`date`");
    assert_string_equal(command_text(&s, 6), "cat");
    assert_string_equal(command_text(&s, 7), "last|--wordx");
    /* B='x y' is an assignment; its command starts at line 2, column 13 */
    size_t b = s.commands[1].first;
    assert_true(s.words.assign[b]);
    assert_false(s.words.assign[b + 1]);
    assert_int_equal(s.words.lines[b], 2);
    assert_int_equal(s.words.columns[b], 13);
    assert_int_equal(s.words.lines[s.commands[7].first + 1], 8);
    shell_script_free(&s);
}

static void test_recipe__script_errors_have_positions(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        unsigned line, column;
        const char *says;
    } CASES[] = {
        {"a 'b\nc", 1, 3, "unterminated single quote"},
        {"a\nb $(c d", 2, 3, "unterminated substitution"},
        {"a > ; b", 1, 3, "the redirection '>' has no file"},
        {"a\n  cat <<END\nx\n", 2, 7, "'<<END' is never closed"},
    };
    for (size_t i = 0; i < COUNT_OF(CASES); i++) {
        shell_script s;
        kvc_diag d;
        assert_int_equal(shell_script_split(CASES[i].text, "t.sh", &s, &d), KVC_ERR_CONFIG);
        assert_int_equal(d.line, CASES[i].line);
        assert_int_equal(d.column, CASES[i].column);
        assert_string_equal(d.file, "t.sh");
        assert_contains(d.message, CASES[i].says);
        assert_null(s.commands);
    }
}

/* The launches of `text` under the default engine. */
static size_t launches_of(const char *text, shell_script *s, launch **l, kvc_status *st, kvc_diag *d)
{
    size_t n = 0;
    *l = NULL;
    *st = shell_script_split(text, "t.sh", s, d);
    if (!*st) *st = launch_find(s, engine_default(), "t.sh", l, &n, d);
    return n;
}

static void test_recipe__launches_unwrapped(void **state)
{
    (void)state;
    shell_script s;
    launch *l;
    kvc_status st;
    kvc_diag d;
    size_t n = launches_of("export HF_HOME=/h\n"
                           "mkdir -p logs\n"
                           "CUDA_VISIBLE_DEVICES=0 nohup env X=1 python3.11 -u -m sglang.launch_server --a 1 &\n"
                           "sudo -E docker run --gpus all -it -e K=V --env=L=W -v/a:/b --shm-size=8g "
                           "lmsysorg/sglang:v0.5.8.post1-cu130 sglang serve M --b\n"
                           "python3 -m sglang_router.launch_router --pd\n"
                           "python3 -m dynamo.sglang --c\n",
                           &s, &l, &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_int_equal(n, 3);
    assert_string_equal(s.words.words[l[0].program], "python3.11");
    assert_int_equal(l[0].end - l[0].program, 6);
    assert_int_equal(l[0].nenv, 3); /* the export, the command's own, env's */
    assert_string_equal(l[0].env[0].text, "HF_HOME=/h");
    assert_string_equal(l[0].env[2].text, "X=1");
    assert_int_equal(l[0].image, SIZE_MAX);
    assert_string_equal(s.words.words[l[1].program], "sglang");
    assert_string_equal(s.words.words[l[1].image], "lmsysorg/sglang:v0.5.8.post1-cu130");
    assert_int_equal(l[1].nenv, 3);
    assert_string_equal(l[1].env[1].text, "K=V");
    assert_string_equal(l[1].env[2].text, "L=W");
    assert_string_equal(s.words.words[l[2].program], "python3");
    launches_free(l, n);
    shell_script_free(&s);
}

/* Cluster and process wrappers: srun (with pyxis's image), uv run, numactl,
 * taskset and timeout, each with its options read by its own tables. */
static void test_recipe__cluster_wrappers_unwrapped(void **state)
{
    (void)state;
    shell_script s;
    launch *l;
    kvc_status st;
    kvc_diag d;
    size_t n = launches_of("srun -N 1 --gres=gpu:8 --container-image lmsysorg/sglang:v0.5.20-cu130 -lu --mpi pmix "
                           "python3 -m sglang.launch_server --a 1\n"
                           "srun --container-image=lmsysorg/sglang:v0.5.9 uv run --with sglang -q -- python -m "
                           "sglang.launch_server --b\n"
                           "numactl --cpunodebind=0 -m 0 taskset -c 0-7 timeout -s KILL 3600 sglang serve M --c\n"
                           "taskset 0xff timeout 1h python3 -m sglang.launch_server --d\n"
                           "uv pip install sglang\n"
                           /* lines that run no engine: an option no table knows passes them over */
                           "numactl --hardware > topo.txt\ntaskset -cp 0-63 $$\nuv run --frobnicate pytest\n",
                           &s, &l, &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_int_equal(n, 4);
    assert_string_equal(s.words.words[l[0].program], "python3");
    assert_string_equal(s.words.words[l[0].image] + l[0].image_skip, "lmsysorg/sglang:v0.5.20-cu130");
    assert_string_equal(s.words.words[l[1].program], "python");
    assert_string_equal(s.words.words[l[1].image] + l[1].image_skip, "lmsysorg/sglang:v0.5.9");
    assert_string_equal(s.words.words[l[2].program], "sglang");
    assert_int_equal(l[2].image, SIZE_MAX);
    assert_string_equal(s.words.words[l[3].program], "python3");
    launches_free(l, n);
    shell_script_free(&s);
    /* an option no table knows is refused, at its position: its value and the program cannot be told apart */
    launches_of("srun --frobnicate 2 python3 -m sglang.launch_server --a 1\n", &s, &l, &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_int_equal(d.column, 6);
    assert_string_equal(d.message, "srun option '--frobnicate' is not one kvcheck knows, so it cannot tell whether "
                                   "the next word is its value or what it runs: if it takes a value, write it as "
                                   "--frobnicate=VALUE");
    shell_script_free(&s);
    /* ... and so is one on a line that names the engine without a launch kvcheck reads */
    launches_of("uv run -m sglang.launch_server --tp 8\n", &s, &l, &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_contains(d.message, "uv run option '-m' is not one kvcheck knows");
    shell_script_free(&s);
    /* srun's exported variables are not read: refused, not dropped */
    launches_of("srun --export=ALL,SGLANG_AITER_KV_CACHE_LAYOUT=vectorized_5d python3 -m sglang.launch_server\n", &s,
                &l, &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_contains(d.message, "srun --export with NAME=value: kvcheck does not read the variables srun exports");
    shell_script_free(&s);
    assert_int_equal(launches_of("srun --export ALL python3 -m sglang.launch_server\n", &s, &l, &st, &d), 1);
    launches_free(l, 1);
    shell_script_free(&s);
    /* docker's image inside srun's: the inner one, read from its start */
    assert_int_equal(launches_of("srun --container-image=lmsysorg/sglang:v0.5.9 docker run lmsysorg/sglang:v0.5.10 "
                                 "python3 -m sglang.launch_server\n", &s, &l, &st, &d), 1);
    assert_string_equal(s.words.words[l[0].image] + l[0].image_skip, "lmsysorg/sglang:v0.5.10");
    launches_free(l, 1);
    shell_script_free(&s);
    launches_of("uv run --with sglang --python\n", &s, &l, &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_string_equal(d.message, "uv run's option --python has no value");
    shell_script_free(&s);
}

static void test_recipe__flag_line_after_a_lost_continuation_is_refused(void **state)
{
    (void)state;
    shell_script s;
    launch *l;
    kvc_status st;
    kvc_diag d;
    launches_of("python3 -m sglang.launch_server --a 1 \\ \n  --kv-cache-dtype fp8_e4m3\n", &s, &l, &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.column, 3);
    assert_contains(d.message, "'--kv-cache-dtype' starts a command of its own");
    shell_script_free(&s);
    /* without any launch, flags alone are no error here (--args text) */
    assert_int_equal(launches_of("--a 1\n--b 2\n", &s, &l, &st, &d), 0);
    assert_int_equal(st, KVC_OK);
    shell_script_free(&s);
}

static void test_recipe__image_tags_name_releases(void **state)
{
    (void)state;
    kvc_worker *w = kvc_worker_create("w");
    static const struct {
        const char *image, *release;
    } CASES[] = {
        {"lmsysorg/sglang:v0.5.8-cu130", "0.5.8"},
        {"docker.io/lmsysorg/sglang:0.5.4.post3", "0.5.4.post3"},
        {"lmsysorg/sglang:v0.5.3rc2-cu126", "0.5.3rc2"},
        {"lmsysorg/sglang:latest", NULL},
        {"lmsysorg/sglang", NULL},
        {"nvcr.io/nvidia/ai-dynamo/sglang-runtime:0.7.0", NULL},
        {"lmsysorg/sglang:v0.5.8x", NULL},
    };
    for (size_t i = 0; i < COUNT_OF(CASES); i++) {
        char out[KVC_NAME_LEN] = "";
        int found = worker_image_release(w, CASES[i].image, out, sizeof out);
        assert_int_equal(found, CASES[i].release != NULL);
        if (found) assert_string_equal(out, CASES[i].release);
    }
    kvc_worker_free(w);
}

static void test_recipe__script_workers_and_roles(void **state)
{
    (void)state;
    kvc_recipe *r = NULL;
    kvc_diag d;
    assert_int_equal(kvc_recipe_load(KVC_SOURCE_DIR "/fixtures/recipes/glm52-pd-node.sh", &r, &d), KVC_OK);
    assert_string_equal(kvc_recipe_kind(r), "shell script");
    assert_int_equal(kvc_recipe_worker_count(r), 2);
    assert_string_equal(kvc_recipe_worker_name(r, 0), "line 7");
    assert_string_equal(kvc_recipe_worker_role(r, 0), "prefill");
    assert_string_equal(kvc_recipe_worker_name(r, 1), "line 15");
    assert_string_equal(kvc_recipe_worker_role(r, 1), "decode");
    assert_null(kvc_recipe_worker_name(r, 2));
    /* the decode worker, resolved: its flags keep their lines in the script */
    kvc_worker *w = kvc_worker_create("decode");
    assert_int_equal(kvc_recipe_worker_load(r, 1, w, &d), KVC_OK);
    assert_int_equal(kvc_worker_set_gpu(w, "B300", &d), KVC_OK);
    kvc_resolved *res = NULL;
    assert_int_equal(kvc_resolve(w, &res, &d), KVC_OK);
    const kvc_setting *hs = kvc_resolved_find(res, "enable_hisparse");
    assert_non_null(hs);
    assert_int_equal(hs->line, 17);
    assert_int_equal(hs->column, 5);
    assert_contains(hs->file, "glm52-pd-node.sh");
    assert_string_equal(kvc_layout_name(kvc_resolved_layout(res)), "fp8_flashmla");
    kvc_resolved_free(res);
    kvc_worker_free(w);
    assert_int_equal(kvc_recipe_worker_load(r, 2, NULL, &d), KVC_ERR_USAGE);
    kvc_recipe_free(r);
}

static void test_recipe__args_text_takes_one_launch(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "glm-5.2",
                                  "CUDA_VISIBLE_DEVICES=0 docker run --gpus all lmsysorg/sglang:v0.5.19 python3 -m "
                                  "sglang.launch_server --kv-cache-dtype bfloat16 2>&1 | tee log",
                                  NULL, &r, &d),
                     KVC_OK);
    assert_string_equal(r.release, "0.5.19");
    assert_string_equal(VAL(&r, "kv_cache_dtype"), "bfloat16");
    assert_int_equal(resolve_line("B300", "glm-5.2", "python3 -m sglang.launch_server; sglang serve x", NULL, &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "2 launch commands");
}

static void test_recipe__python_repr_values(void **state)
{
    (void)state;
    const char *text = "ServerArgs(a='x\\'y\\n\\x41\\u00e9', b=\"q\\\"\", c=8, d=-1.5e-05, e=inf, f=None, g=True, "
                       "h=False, i=[1, (2, 3), {'k': [4]}], j={1, 2}, k={}, l=LoRARef(name='a', path=None), "
                       "m=<Kind.X: 'x'>, n=()) trailing";
    kvc_origin where;
    origin_set(&where, "t.log", 3, 20, "");
    py_field *f = NULL;
    size_t n = 0;
    kvc_diag d;
    assert_int_equal(py_record_parse(text, strlen(text), &where, &f, &n, &d), KVC_OK);
    assert_int_equal(n, 14);
    static const struct {
        const char *key, *text;
        py_kind kind;
    } WANT[] = {
        {"a", "x'y\nA\xc3\xa9", PY_STR}, {"b", "q\"", PY_STR}, {"c", "8", PY_INT}, {"d", "-1.5e-05", PY_FLOAT},
        {"e", "inf", PY_FLOAT}, {"f", "None", PY_NONE}, {"g", "True", PY_TRUE}, {"h", "False", PY_FALSE},
        {"i", "[...]", PY_LIST}, {"j", "{...}", PY_DICT}, {"k", "{...}", PY_DICT}, {"l", "LoRARef", PY_OTHER},
        {"m", "<Kind.X: 'x'>", PY_OTHER}, {"n", "[...]", PY_LIST},
    };
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(f[i].key, WANT[i].key);
        assert_string_equal(f[i].value.text, WANT[i].text);
        assert_int_equal(f[i].value.kind, WANT[i].kind);
    }
    assert_int_equal(f[2].column, strstr(text, "c=8") - text);
    py_fields_free(f, n);
    const char *dict = "{'model_path': 'm', \"tp_size\": 8, '': ''}";
    assert_int_equal(py_record_parse(dict, strlen(dict), &where, &f, &n, &d), KVC_OK);
    assert_int_equal(n, 3);
    assert_string_equal(f[1].key, "tp_size");
    assert_string_equal(f[1].value.text, "8");
    assert_string_equal(f[2].key, ""); /* an empty key is a key (fuzz_log found it read freed memory) */
    assert_string_equal(f[2].value.text, "");
    py_fields_free(f, n);
}

static void test_recipe__python_repr_errors_have_columns(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        unsigned column;
        const char *says;
    } CASES[] = {
        {"ServerArgs(a=1 b=2)", 16, "expected ','"},
        {"{'a' 1}", 6, "expected ':'"},
        {"X(a=[1, 2)", 10, "expected ',' or ']'"},
        {"X(a='open", 2, "never closes: the text ends first"},
        {"X(a=1, b=", 2, "never closes: the text ends first"},
        {"X(a=nope)", 5, "'nope' is no value"},
        {"X(a='\\q')", 6, "'\\q' is no escape"},
        {"a plain line", 2, "expected a dataclass repr"},
    };
    for (size_t i = 0; i < COUNT_OF(CASES); i++) {
        kvc_origin where;
        origin_set(&where, "t.log", 7, 1, "");
        py_field *f = NULL;
        size_t n = 0;
        kvc_diag d;
        assert_int_equal(py_record_parse(CASES[i].text, strlen(CASES[i].text), &where, &f, &n, &d), KVC_ERR_CONFIG);
        assert_int_equal(d.line, 7);
        assert_int_equal(d.column, CASES[i].column);
        assert_contains(d.message, CASES[i].says);
        assert_null(f);
    }
}

static void test_recipe__log_settings_line(void **state)
{
    (void)state;
    kvc_recipe *r = NULL;
    kvc_diag d;
    assert_int_equal(kvc_recipe_load(KVC_SOURCE_DIR "/fixtures/logs/decode-0.5.18.log", &r, &d), KVC_OK);
    assert_string_equal(kvc_recipe_kind(r), "SGLang log");
    assert_int_equal(kvc_recipe_worker_count(r), 1);
    assert_string_equal(kvc_recipe_worker_name(r, 0), "server_args= line 5");
    kvc_worker *w = kvc_worker_create("decode");
    assert_int_equal(kvc_recipe_worker_load(r, 0, w, &d), KVC_OK);
    assert_int_equal(kvc_worker_set_gpu(w, "B300", &d), KVC_OK);
    kvc_resolved *res = NULL;
    assert_int_equal(kvc_resolve(w, &res, &d), KVC_OK);
    assert_string_equal(kvc_resolved_release(res), "0.5.18"); /* from its "sglang version:" line */
    const kvc_setting *hs = kvc_resolved_find(res, "enable_hisparse");
    assert_string_equal(hs->value, "true"); /* the last start's, not the first's */
    assert_int_equal(hs->line, 5);
    assert_contains(kvc_resolved_warning(res, kvc_resolved_warning_count(res) - 1), "2 server_args= lines");
    kvc_resolved_free(res);
    kvc_worker_free(w);
    kvc_recipe_free(r);
    /* the dict form of 0.5.19 and later */
    assert_int_equal(kvc_recipe_load(KVC_SOURCE_DIR "/fixtures/logs/decode-0.5.20.log", &r, &d), KVC_OK);
    w = kvc_worker_create("decode");
    assert_int_equal(kvc_recipe_worker_load(r, 0, w, &d), KVC_OK);
    assert_int_equal(kvc_worker_set_gpu(w, "B300", &d), KVC_OK);
    assert_int_equal(kvc_resolve(w, &res, &d), KVC_OK);
    assert_string_equal(kvc_resolved_release(res), "0.5.20");
    assert_string_equal(kvc_layout_name(kvc_resolved_layout(res)), "fp8_flashmla");
    kvc_resolved_free(res);
    kvc_worker_free(w);
    kvc_recipe_free(r);
}

/* The names and roles of the workers of a recipe file. */
static void expect_workers(const char *path, const char *kind, const char *const *names, const char *const *roles,
                           size_t n)
{
    kvc_recipe *r = NULL;
    kvc_diag d;
    assert_int_equal(kvc_recipe_load(path, &r, &d), KVC_OK);
    assert_string_equal(kvc_recipe_kind(r), kind);
    assert_int_equal(kvc_recipe_worker_count(r), n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(kvc_recipe_worker_name(r, i), names[i]);
        assert_string_equal(kvc_recipe_worker_role(r, i), roles[i]);
    }
    kvc_recipe_free(r);
}

static void test_recipe__deployment_recipes(void **state)
{
    (void)state;
    static const char *const ROLES[] = {"prefill", "decode", "decode"};
    static const char *const DYNAMO[] = {"DynamoGraphDeployment/glm52-disagg/prefill",
                                         "DynamoGraphDeployment/glm52-disagg/decode"};
    expect_workers(KVC_SOURCE_DIR "/fixtures/recipes/dynamo-disagg.yaml", "Dynamo graph", DYNAMO, ROLES, 2);
    static const char *const LWS[] = {"LeaderWorkerSet/dsv32-prefill/sglang-leader",
                                      "LeaderWorkerSet/dsv32-decode/sglang-leader"};
    expect_workers(KVC_SOURCE_DIR "/fixtures/recipes/k8s-lws-pd.yaml", "Kubernetes manifests", LWS, ROLES, 2);
    static const char *const RBG[] = {"RoleBasedGroup/glm52-pd/prefill/sglang", "RoleBasedGroup/glm52-pd/decode/sglang"};
    expect_workers(KVC_SOURCE_DIR "/fixtures/recipes/rbg-pd.yaml", "Kubernetes manifests", RBG, ROLES, 2);
    static const char *const SRT[] = {"prefill", "decode"};
    expect_workers(KVC_SOURCE_DIR "/fixtures/recipes/srt-slurm-gb200.yaml", "srt-slurm recipe", SRT, ROLES, 2);
    /* Dynamo's v1beta1 components, with a script and a JSON mapping in the args */
    const char *path = temp_file(".yaml", "apiVersion: nvidia.com/v1beta1\n"
                                          "kind: DynamoGraphDeployment\n"
                                          "metadata: {name: g}\n"
                                          "spec:\n"
                                          "  components:\n"
                                          "  - name: Decode\n"
                                          "    podTemplate:\n"
                                          "      spec:\n"
                                          "        containers:\n"
                                          "        - name: main\n"
                                          "          command: [python3, -m, dynamo.sglang]\n"
                                          "          args: [--disaggregation-mode, decode, --kv-events-config,\n"
                                          "                 {publisher: zmq, n: 0x10}, --page-size, '32']\n");
    static const char *const V1B[] = {"DynamoGraphDeployment/g/Decode/main"};
    static const char *const DEC[] = {""}; /* one worker: no role is read */
    expect_workers(path, "Dynamo graph", V1B, DEC, 1);
}

static void test_recipe__recipe_values_keep_their_places(void **state)
{
    (void)state;
    kvc_recipe *r = NULL;
    kvc_diag d;
    /* the decode leader's bash -c script, a literal block: flags at their columns in the file */
    assert_int_equal(kvc_recipe_load(KVC_SOURCE_DIR "/fixtures/recipes/k8s-lws-pd.yaml", &r, &d), KVC_OK);
    kvc_worker *w = kvc_worker_create("decode");
    assert_int_equal(kvc_recipe_worker_load(r, 1, w, &d), KVC_OK);
    assert_int_equal(kvc_worker_set_gpu(w, "H200", &d), KVC_OK);
    kvc_resolved *res = NULL;
    assert_int_equal(kvc_resolve(w, &res, &d), KVC_OK);
    assert_string_equal(kvc_resolved_release(res), "0.5.12.post1"); /* the image's tag */
    const kvc_setting *be = kvc_resolved_find(res, "dsa_decode_backend");
    assert_string_equal(be->value, "flashmla_kv");
    assert_int_equal(be->line, 69);
    assert_int_equal(be->column, 45);
    kvc_resolved_free(res);
    kvc_worker_free(w);
    kvc_recipe_free(r);
    /* srt-slurm: GPU, release and flags from the recipe */
    assert_int_equal(kvc_recipe_load(KVC_SOURCE_DIR "/fixtures/recipes/srt-slurm-gb200.yaml", &r, &d), KVC_OK);
    w = kvc_worker_create("decode");
    assert_int_equal(kvc_recipe_worker_load(r, 1, w, &d), KVC_OK);
    assert_int_equal(kvc_resolve(w, &res, &d), KVC_OK);
    assert_string_equal(kvc_resolved_gpu(res, NULL, NULL), "GB200");
    assert_string_equal(kvc_resolved_release(res), "0.5.20");
    be = kvc_resolved_find(res, "dsa_prefill_backend");
    assert_int_equal(be->line, 39);
    assert_int_equal(be->column, 7);
    kvc_resolved_free(res);
    kvc_worker_free(w);
    kvc_recipe_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recipe__script_cut_into_commands),
        cmocka_unit_test(test_recipe__script_errors_have_positions),
        cmocka_unit_test(test_recipe__launches_unwrapped),
        cmocka_unit_test(test_recipe__cluster_wrappers_unwrapped),
        cmocka_unit_test(test_recipe__flag_line_after_a_lost_continuation_is_refused),
        cmocka_unit_test(test_recipe__image_tags_name_releases),
        cmocka_unit_test(test_recipe__script_workers_and_roles),
        cmocka_unit_test(test_recipe__args_text_takes_one_launch),
        cmocka_unit_test(test_recipe__python_repr_values),
        cmocka_unit_test(test_recipe__python_repr_errors_have_columns),
        cmocka_unit_test(test_recipe__log_settings_line),
        cmocka_unit_test(test_recipe__deployment_recipes),
        cmocka_unit_test(test_recipe__recipe_values_keep_their_places),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
