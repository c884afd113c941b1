/* Engine launches in shell text, unwrapped from what users put around
 * them: environment assignments (NAME=value, export, env), nohup, exec,
 * sudo, `docker run [options] IMAGE`, srun, `uv run`, numactl, taskset and
 * timeout, whose own options are skipped by tables of the ones that take a
 * value. */
#include "worker/worker.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* docker run's options that take a value (docker run --help, Docker 27),
 * long and short; every other option is a switch, and an option in
 * neither table is refused rather than guessed. */
static const char *const DOCKER_VALUED[] = {
    "--add-host", "--annotation", "--attach", "-a", "--blkio-weight", "--blkio-weight-device", "--cap-add",
    "--cap-drop", "--cgroup-parent", "--cgroupns", "--cidfile", "--cpu-period", "--cpu-quota", "--cpu-rt-period",
    "--cpu-rt-runtime", "--cpu-shares", "-c", "--cpus", "--cpuset-cpus", "--cpuset-mems", "--detach-keys",
    "--device", "--device-cgroup-rule", "--device-read-bps", "--device-read-iops", "--device-write-bps",
    "--device-write-iops", "--dns", "--dns-option", "--dns-search", "--domainname", "--entrypoint", "--env", "-e",
    "--env-file", "--expose", "--gpus", "--group-add", "--health-cmd", "--health-interval", "--health-retries",
    "--health-start-interval", "--health-start-period", "--health-timeout", "--hostname", "-h", "--ip", "--ip6",
    "--ipc", "--isolation", "--kernel-memory", "--label", "-l", "--label-file", "--link", "--link-local-ip",
    "--log-driver", "--log-opt", "--mac-address", "--memory", "-m", "--memory-reservation", "--memory-swap",
    "--memory-swappiness", "--mount", "--name", "--network", "--net", "--network-alias", "--net-alias",
    "--oom-score-adj", "--pid", "--pids-limit", "--platform", "--publish", "-p", "--pull", "--restart", "--runtime",
    "--security-opt", "--shm-size", "--stop-signal", "--stop-timeout", "--storage-opt", "--sysctl", "--tmpfs",
    "--ulimit", "--user", "-u", "--userns", "--uts", "--volume", "-v", "--volume-driver", "--volumes-from",
    "--workdir", "-w", NULL,
};
static const char *const DOCKER_SWITCHES[] = {
    "--detach", "-d", "--interactive", "-i", "--tty", "-t", "--rm", "--privileged", "--init", "--publish-all", "-P",
    "--read-only", "--sig-proxy", "--oom-kill-disable", "--no-healthcheck", "--disable-content-trust", "--quiet",
    "-q", "--use-api-socket", NULL,
};

/* Slurm's srun (srun(1), Slurm 24.05), with pyxis's --container-* options;
 * options whose value is optional (--exclusive, --immediate, -K) are
 * switches unless written OPT=VALUE. */
static const char *const SRUN_VALUED[] = {
    "--account", "-A", "--acctg-freq", "--begin", "-b", "--chdir", "-D", "--cluster-constraint", "--clusters", "-M",
    "--comment", "--constraint", "-C", "--container", "--container-image", "--container-mounts", "--container-name",
    "--container-workdir", "--container-env", "--container-save", "--core-spec", "-S", "--cores-per-socket",
    "--cpu-bind", "--cpu-freq", "--cpus-per-gpu", "--cpus-per-task", "-c", "--deadline", "--delay-boot",
    "--dependency", "-d", "--distribution", "-m", "--epilog", "--error", "-e", "--exclude", "-x", "--export",
    "--extra-node-info", "-B", "--gid", "--gpu-bind", "--gpu-freq", "--gpus", "-G", "--gpus-per-node",
    "--gpus-per-socket", "--gpus-per-task", "--gres", "--gres-flags", "--het-group", "--hint", "--input", "-i",
    "--job-name", "-J", "--jobid", "--licenses", "-L", "--mail-type", "--mail-user", "--mcs-label", "--mem",
    "--mem-bind", "--mem-per-cpu", "--mem-per-gpu", "--mincpus", "--mpi", "--network", "--nodefile", "-F",
    "--nodelist", "-w", "--nodes", "-N", "--ntasks", "-n", "--ntasks-per-core", "--ntasks-per-gpu",
    "--ntasks-per-node", "--ntasks-per-socket", "--open-mode", "--output", "-o", "--partition", "-p", "--power",
    "--prefer", "--prolog", "--qos", "-q", "--reservation", "--signal", "--slurmd-debug", "--sockets-per-node",
    "--switches", "--task-epilog", "--task-prolog", "--thread-spec", "--threads-per-core", "--time", "-t",
    "--time-min", "--tmp", "--uid", "--wait", "-W", "--wckey", NULL,
};
static const char *const SRUN_SWITCHES[] = {
    "--label", "-l", "--unbuffered", "-u", "--quiet", "-Q", "--verbose", "-v", "--exclusive", "--overlap", "--pty",
    "--disable-status", "-X", "--kill-on-bad-exit", "-K", "--no-allocate", "-Z", "--oversubscribe", "-s",
    "--preserve-env", "-E", "--hold", "-H", "--immediate", "-I", "--no-kill", "-k", "--multi-prog", "--contiguous",
    "--spread-job", "--use-min-nodes", "--test-only", "--exact", "--whole", "--overcommit", "-O",
    "--container-remap-root", "--no-container-remap-root", "--container-mount-home", "--no-container-mount-home",
    "--container-writable", "--container-readonly", "--container-entrypoint", "--no-container-entrypoint", NULL,
};

/* uv run (uv 0.8, uv run --help). */
static const char *const UV_VALUED[] = {
    "--with", "--with-editable", "--with-requirements", "--python", "-p", "--project", "--directory", "--env-file",
    "--extra", "--group", "--only-group", "--no-group", "--package", "--index", "--default-index", "--index-url",
    "-i", "--extra-index-url", "--find-links", "-f", "--config-file", "--cache-dir", "--color", "--index-strategy",
    "--keyring-provider", "--resolution", "--prerelease", "--link-mode", "--python-platform", "--refresh-package",
    "--reinstall-package", "--upgrade-package", "-P", "--exclude-newer", "--no-binary-package", "--no-build-package",
    "--config-setting", "-C", "--allow-insecure-host", "--fork-strategy", "--no-extra", "--python-preference",
    NULL,
};
static const char *const UV_SWITCHES[] = {
    "--no-sync", "--frozen", "--locked", "--isolated", "--no-project", "--all-extras", "--dev", "--no-dev",
    "--all-groups", "--no-default-groups", "--active", "--no-active", "--offline", "--quiet", "-q", "--verbose", "-v",
    "--no-cache", "-n", "--upgrade", "-U", "--reinstall", "--compile-bytecode", "--exact", "--no-editable",
    "--no-env-file", "--all-packages", "--no-config", "--native-tls", "--no-progress", "--refresh",
    "--no-build-isolation", "--no-build", "--no-binary", "--no-sources", "--managed-python", "--no-managed-python",
    "--no-python-downloads", "--no-index", "--only-dev", "--script", "-s", "--gui-script", "--preview",
    "--no-preview", NULL,
};

/* numactl(8), taskset(1) and timeout(1) (util-linux, coreutils). */
static const char *const NUMACTL_VALUED[] = {"--interleave", "-i", "--preferred", "-p", "--membind", "-m",
                                             "--cpunodebind", "-N", "--cpubind", "-c", "--physcpubind", "-C",
                                             "--preferred-many", "-P", "--weighted-interleave", "-w", NULL};
static const char *const NUMACTL_SWITCHES[] = {"--all", "-a", "--localalloc", "-l", "--balancing", "-b",
                                               "--hardware", "-H", "--show", "-s", NULL};
static const char *const TASKSET_SWITCHES[] = {"--all-tasks", "-a", "--cpu-list", "-c", "--pid", "-p", NULL};
static const char *const TIMEOUT_VALUED[] = {"--signal", "-s", "--kill-after", "-k", NULL};
static const char *const TIMEOUT_SWITCHES[] = {"--preserve-status", "--foreground", "--verbose", "-v", NULL};

static int in_table(const char *const *table, const char *w, size_t len)
{
    for (size_t i = 0; table && table[i]; i++)
        if (strlen(table[i]) == len && strncmp(table[i], w, len) == 0) return 1;
    return 0;
}

/* Programs run in front of the engine's (after `sub`, their subcommand,
 * when they have one). With tables, their options are read by them:
 * `valued` take a value (the next word, or after '='; a short one also
 * written -xVALUE), `switches` take none (single-letter ones may be written
 * together, "-it"), and an option in neither is refused rather than
 * guessed. Without, `options` says how many words of
 * options follow (-1: every following word that starts with '-'). Then
 * `positional` words (timeout's duration, taskset's mask, docker's image)
 * come before the program. */
static const struct wrapper {
    const char *name, *sub;
    int options;
    const char *const *valued, *const *switches;
    unsigned positional;
    int docker;            /* docker/podman run: -e/--env are the launch's environment, the positional word its image */
    const char *image_opt;  /* the option whose value is the image (srun's pyxis --container-image), or NULL */
    const char *export_opt; /* the option that exports variables (srun --export): NAME=value in it is refused */
} WRAPPERS[] = {
    {.name = "nohup"},
    {.name = "exec"},
    {.name = "command"},
    {.name = "env", .options = -1},
    {.name = "sudo", .options = -1},
    {.name = "stdbuf", .options = -1},
    {.name = "docker", .sub = "run", .valued = DOCKER_VALUED, .switches = DOCKER_SWITCHES, .positional = 1,
     .docker = 1},
    {.name = "podman", .sub = "run", .valued = DOCKER_VALUED, .switches = DOCKER_SWITCHES, .positional = 1,
     .docker = 1},
    {.name = "srun", .valued = SRUN_VALUED, .switches = SRUN_SWITCHES, .image_opt = "--container-image",
     .export_opt = "--export"},
    {.name = "uv", .sub = "run", .valued = UV_VALUED, .switches = UV_SWITCHES},
    {.name = "numactl", .valued = NUMACTL_VALUED, .switches = NUMACTL_SWITCHES},
    {.name = "taskset", .switches = TASKSET_SWITCHES, .positional = 1},
    {.name = "timeout", .valued = TIMEOUT_VALUED, .switches = TIMEOUT_SWITCHES, .positional = 1},
};

static kvc_status env_add(launch *l, const shell_words *w, size_t i, size_t skip, kvc_diag *diag)
{
    launch_env *e = realloc(l->env, (l->nenv + 1) * sizeof *e);
    if (!e) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    l->env = e;
    l->env[l->nenv++] = (launch_env){w->words[i] + skip, w->lines[i], w->columns[i]};
    return KVC_OK;
}

/* 1 when `o` is single-letter switches of `p` written together ("-it"). */
static int short_switches(const struct wrapper *p, const char *o)
{
    if (o[1] == '-') return 0;
    for (const char *k = o + 1; *k; k++) {
        const char sw[3] = {'-', *k, 0};
        if (!in_table(p->switches, sw, 2)) return 0;
    }
    return 1;
}

/* The options of wrapper `p` (by its tables) from word *i; leaves *i after
 * them. */
static kvc_status wrapper_options(const struct wrapper *p, launch *l, const shell_words *w, size_t *i, size_t end,
                                  const char *file, kvc_diag *diag)
{
    while (*i < end && w->words[*i][0] == '-' && w->words[*i][1]) {
        const char *o = w->words[*i];
        size_t len = strcspn(o, "=");
        int env = p->docker && ((len == 2 && o[1] == 'e') || (len == 5 && strncmp(o, "--env", 5) == 0));
        if (p->image_opt && strlen(p->image_opt) == len && strncmp(o, p->image_opt, len) == 0) {
            l->image = o[len] == '=' ? *i : *i + 1 < end ? *i + 1 : SIZE_MAX;
            l->image_skip = o[len] == '=' ? len + 1 : 0;
        }
        if (strcmp(o, "--") == 0) {
            (*i)++;
            break;
        }
        if (p->export_opt && strlen(p->export_opt) == len && strncmp(o, p->export_opt, len) == 0) {
            const char *v = o[len] == '=' ? o + len + 1 : *i + 1 < end ? w->words[*i + 1] : "";
            kvc_origin at;
            origin_set(&at, file, w->lines[*i], w->columns[*i], "");
            RETURN_ERROR_IF(strchr(v, '='), diag, KVC_ERR_CONFIG, &at,
                            "%s %s with NAME=value: kvcheck does not read the variables %s exports; write them "
                            "before %s (NAME=value %s ...), where a shell gives them to the launch",
                            p->name, p->export_opt, p->name, p->name, p->name);
        }
        if (o[len] == '=' || in_table(p->switches, o, len)) {
            if (env && o[len] == '=') RETURN_IF_ERROR(env_add(l, w, *i, len + 1, diag));
            (*i)++;
            continue;
        }
        if (in_table(p->valued, o, len)) {
            kvc_origin at;
            origin_set(&at, file, w->lines[*i], w->columns[*i], "");
            RETURN_ERROR_IF(*i + 1 >= end, diag, KVC_ERR_CONFIG, &at, "%s%s%s's option %s has no value", p->name,
                            p->sub ? " " : "", p->sub ? p->sub : "", o);
            if (env) RETURN_IF_ERROR(env_add(l, w, *i + 1, 0, diag));
            *i += 2;
            continue;
        }
        if (short_switches(p, o)) { /* -it */
            (*i)++;
            continue;
        }
        if (o[1] != '-' && in_table(p->valued, o, 2)) { /* -v/a:/b */
            if (env) RETURN_IF_ERROR(env_add(l, w, *i, 2, diag));
            (*i)++;
            continue;
        }
        kvc_origin at;
        origin_set(&at, file, w->lines[*i], w->columns[*i], "");
        return diag_set(diag, KVC_ERR_CONFIG, &at,
                        "%s%s%s option '%s' is not one kvcheck knows, so it cannot tell whether the next word is "
                        "its value or %s: if it takes a value, write it as %.*s=VALUE",
                        p->name, p->sub ? " " : "", p->sub ? p->sub : "", o,
                        p->docker ? "the image" : "what it runs", (int)len, o);
    }
    return KVC_OK;
}

/* Unwraps command `c`: on return *l holds its environment, its image, and
 * `program` at the first word of what it runs; `exports` takes the
 * assignments of an `export` command. */
static kvc_status unwrap(const shell_script *s, const shell_command *c, launch *l, launch *exports,
                         const char *file, kvc_diag *diag)
{
    const shell_words *w = &s->words;
    size_t i = c->first, end = c->first + c->n;
    for (;;) {
        while (i < end && w->assign[i]) RETURN_IF_ERROR(env_add(l, w, i++, 0, diag));
        if (i >= end) break;
        const char *word = w->words[i];
        if (strcmp(word, "export") == 0) {
            for (i++; i < end; i++)
                if (w->assign[i]) RETURN_IF_ERROR(env_add(exports, w, i, 0, diag));
            break;
        }
        size_t k = 0;
        while (k < COUNT_OF(WRAPPERS) &&
               (strcmp(WRAPPERS[k].name, word) != 0 ||
                (WRAPPERS[k].sub && (i + 1 >= end || strcmp(w->words[i + 1], WRAPPERS[k].sub) != 0))))
            k++;
        if (k == COUNT_OF(WRAPPERS)) break;
        const struct wrapper *p = &WRAPPERS[k];
        i += p->sub ? 2 : 1;
        if (p->valued || p->switches) RETURN_IF_ERROR(wrapper_options(p, l, w, &i, end, file, diag));
        else
            for (; p->options && i < end && w->words[i][0] == '-' && !w->assign[i];) i++;
        if (p->docker && i < end) {
            l->image = i;
            l->image_skip = 0;
        }
        i = end - i > p->positional ? i + p->positional : end;
    }
    l->program = i;
    l->end = end;
    return KVC_OK;
}

void launches_free(launch *l, size_t n)
{
    for (size_t i = 0; l && i < n; i++) free(l[i].env);
    free(l);
}

static kvc_status copy_env(launch *to, const launch *from, kvc_diag *diag)
{
    if (!from->nenv) return KVC_OK;
    launch_env *e = realloc(to->env, (to->nenv + from->nenv) * sizeof *e);
    if (!e) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    memcpy(e + to->nenv, from->env, from->nenv * sizeof *e);
    to->env = e;
    to->nenv += from->nenv;
    return KVC_OK;
}

/* 1 when words [from, end) hold the engine's launch, or any word names the
 * engine ("uv run -m sglang.launch_server"): a wrapper option kvcheck does
 * not know must then be refused, not the command passed over. */
static int names_engine(const engine_def *e, const char *const *words, size_t from, size_t end)
{
    for (size_t k = from; k < end; k++)
        if (e->launch_words(words + k, end - k) || strstr(words[k], e->words.image)) return 1;
    return 0;
}

kvc_status launch_find(const shell_script *s, const engine_def *e, const char *file, launch **out, size_t *nout,
                       kvc_diag *diag)
{
    *out = NULL;
    *nout = 0;
    launch exports = {0}, *found = NULL;
    size_t n = 0, flag_command = SIZE_MAX;
    kvc_status st = KVC_OK;
    for (size_t c = 0; c < s->ncommands && !st; c++) {
        const shell_command *cmd = &s->commands[c];
        launch l = {.command = c, .image = SIZE_MAX};
        st = copy_env(&l, &exports, diag);
        const char *const *words = (const char *const *)s->words.words;
        if (!st) st = unwrap(s, cmd, &l, &exports, file, diag);
        if (st == KVC_ERR_CONFIG && !names_engine(e, words, cmd->first, cmd->first + cmd->n)) {
            st = KVC_OK; /* a wrapper's option kvcheck does not know, on a line that runs no engine */
            kvc_diag_clear(diag);
            l.program = l.end = cmd->first + cmd->n;
        }
        if (!st && l.program < l.end && e->launch_words(words + l.program, l.end - l.program)) {
            launch *grown = realloc(found, (n + 1) * sizeof *grown);
            if (!grown) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
            else (found = grown)[n++] = l;
            if (!st) continue;
        }
        if (!st && l.program < l.end && strncmp(words[l.program], "--", 2) == 0 && flag_command == SIZE_MAX)
            flag_command = l.program;
        free(l.env);
    }
    free(exports.env);
    if (!st && n && flag_command != SIZE_MAX) {
        kvc_origin o;
        origin_set(&o, file, s->words.lines[flag_command], s->words.columns[flag_command], "");
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "'%s' starts a command of its own: the line before it does not continue (end it with a "
                      "backslash, and nothing after the backslash, not even a space), so a shell would run this "
                      "line as a program and the launch would never see the flag",
                      s->words.words[flag_command]);
    }
    if (st) {
        launches_free(found, n);
        return st;
    }
    *out = found;
    *nout = n;
    return KVC_OK;
}
