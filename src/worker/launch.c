/* Engine launches in shell text, unwrapped from what users put around
 * them: environment assignments (NAME=value, export, env), nohup, exec,
 * sudo, and `docker run [options] IMAGE`, whose own options are skipped
 * by a table of the ones that take a value. */
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
    "--workdir", "-w",
};
static const char *const DOCKER_SWITCHES[] = {
    "--detach", "-d", "--interactive", "-i", "--tty", "-t", "--rm", "--privileged", "--init", "--publish-all", "-P",
    "--read-only", "--sig-proxy", "--oom-kill-disable", "--no-healthcheck", "--disable-content-trust", "--quiet",
    "-q", "--use-api-socket",
};
/* Single-letter switches that may be written together ("-it", "-dit"). */
static const char DOCKER_SHORT_SWITCHES[] = "dtiPq";

static int in_table(const char *const *table, size_t n, const char *w, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(table[i]) == len && strncmp(table[i], w, len) == 0) return 1;
    return 0;
}

/* Programs run in front of the engine's: how many words of options follow
 * them (-1: every following word that starts with '-'). */
static const struct wrapper {
    const char *name;
    int options;
} WRAPPERS[] = {{"nohup", 0}, {"exec", 0}, {"command", 0}, {"env", -1}, {"sudo", -1}, {"stdbuf", -1}};

static kvc_status env_add(launch *l, const shell_words *w, size_t i, size_t skip, kvc_diag *diag)
{
    launch_env *e = realloc(l->env, (l->nenv + 1) * sizeof *e);
    if (!e) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    l->env = e;
    l->env[l->nenv++] = (launch_env){w->words[i] + skip, w->lines[i], w->columns[i]};
    return KVC_OK;
}

/* `docker run` (or podman's) options from word *i; leaves *i at the image. */
static kvc_status docker_options(launch *l, const shell_words *w, size_t *i, size_t end, const char *file,
                                 kvc_diag *diag)
{
    while (*i < end && w->words[*i][0] == '-') {
        const char *o = w->words[*i];
        size_t len = strcspn(o, "=");
        int env = (len == 2 && o[1] == 'e') || (len == 5 && strncmp(o, "--env", 5) == 0);
        if (strcmp(o, "--") == 0) {
            (*i)++;
            break;
        }
        if (o[len] == '=' || in_table(DOCKER_SWITCHES, COUNT_OF(DOCKER_SWITCHES), o, len)) {
            if (env && o[len] == '=') RETURN_IF_ERROR(env_add(l, w, *i, len + 1, diag));
            (*i)++;
            continue;
        }
        if (in_table(DOCKER_VALUED, COUNT_OF(DOCKER_VALUED), o, len)) {
            kvc_origin at;
            origin_set(&at, file, w->lines[*i], w->columns[*i], "");
            RETURN_ERROR_IF(*i + 1 >= end, diag, KVC_ERR_CONFIG, &at, "docker run's option %s has no value", o);
            if (env) RETURN_IF_ERROR(env_add(l, w, *i + 1, 0, diag));
            *i += 2;
            continue;
        }
        if (o[1] != '-' && strspn(o + 1, DOCKER_SHORT_SWITCHES) == strlen(o + 1)) { /* -it */
            (*i)++;
            continue;
        }
        if (o[1] != '-' && in_table(DOCKER_VALUED, COUNT_OF(DOCKER_VALUED), o, 2)) { /* -v/a:/b */
            if (env) RETURN_IF_ERROR(env_add(l, w, *i, 2, diag));
            (*i)++;
            continue;
        }
        kvc_origin at;
        origin_set(&at, file, w->lines[*i], w->columns[*i], "");
        return diag_set(diag, KVC_ERR_CONFIG, &at,
                        "docker run option '%s' is not one kvcheck knows, so it cannot tell whether the next word is "
                        "its value or the image: write it as %.*s=VALUE, or as a switch",
                        o, (int)len, o);
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
        if ((strcmp(word, "docker") == 0 || strcmp(word, "podman") == 0) && i + 1 < end &&
            strcmp(w->words[i + 1], "run") == 0) {
            i += 2;
            RETURN_IF_ERROR(docker_options(l, w, &i, end, file, diag));
            if (i < end) l->image = i++;
            continue;
        }
        size_t k = 0;
        while (k < COUNT_OF(WRAPPERS) && strcmp(WRAPPERS[k].name, word) != 0) k++;
        if (k == COUNT_OF(WRAPPERS)) break;
        for (i++; WRAPPERS[k].options && i < end && w->words[i][0] == '-' && !w->assign[i];) i++;
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
        if (!st) st = unwrap(s, cmd, &l, &exports, file, diag);
        const char *const *words = (const char *const *)s->words.words;
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
