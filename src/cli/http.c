/* /server_info over HTTP(S) with libcurl (http.h). Built without libcurl,
 * every fetch says so. */
#include "http.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef KVC_HAVE_CURL
#include <curl/curl.h>
#endif

/* The same limit as for configuration files. */
#define REPLY_LIMIT (64u << 20)

int http_is_url(const char *text)
{
    return strncasecmp(text, "http://", 7) == 0 || strncasecmp(text, "https://", 8) == 0;
}

static kvc_status io_error(kvc_diag *diag, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static kvc_status io_error(kvc_diag *diag, const char *where, const char *fmt, ...)
{
    if (!diag) return KVC_ERR_IO;
    kvc_diag_clear(diag);
    diag->status = KVC_ERR_IO;
    snprintf(diag->file, sizeof diag->file, "%s", where);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
    return KVC_ERR_IO;
}

#ifndef KVC_HAVE_CURL

const char *http_support(void) { return "none: built without libcurl (Debian: libcurl4-openssl-dev)"; }
void http_init(void) {}
void http_cleanup(void) {}

kvc_status http_get_server_info(const char *url, long timeout_s, const char *const *headers, size_t nheaders,
                                const char *cacert, char **body, size_t *len, char *endpoint, size_t endpoint_size,
                                kvc_diag *diag)
{
    (void)timeout_s, (void)headers, (void)nheaders, (void)cacert, (void)endpoint, (void)endpoint_size;
    *body = NULL;
    *len = 0;
    int n = (int)strlen(url);
    while (n > 8 && url[n - 1] == '/') n--;
    return io_error(diag, url,
                    "cannot read %s: this kvcheck was built without libcurl, so it cannot read running servers; "
                    "save the server's /server_info (curl -s %.*s/server_info > worker.json) and pass the file, or "
                    "rebuild with libcurl4-openssl-dev installed",
                    url, n, url);
}

#else

const char *http_support(void)
{
    static char text[96];
    if (!text[0]) snprintf(text, sizeof text, "http and https (libcurl %s)", curl_version_info(CURLVERSION_NOW)->version);
    return text;
}

void http_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }
void http_cleanup(void) { curl_global_cleanup(); }

typedef struct reply {
    char *data;
    size_t len;
    int too_large;
} reply;

static size_t on_data(char *ptr, size_t size, size_t n, void *ctx)
{
    reply *r = ctx;
    size_t add = size * n;
    if (r->len + add > REPLY_LIMIT) {
        r->too_large = 1;
        return 0;
    }
    char *grown = realloc(r->data, r->len + add + 1);
    if (!grown) return 0;
    memcpy(grown + r->len, ptr, add);
    r->data = grown;
    r->len += add;
    r->data[r->len] = '\0';
    return add;
}

/* One GET; *status is the HTTP status (0 when none came). */
static kvc_status get(const char *url, long timeout_s, const char *const *headers, size_t nheaders,
                      const char *cacert, reply *r, long *status, kvc_diag *diag)
{
    *status = 0;
    CURL *h = curl_easy_init();
    if (!h) return io_error(diag, url, "cannot start libcurl for %s (out of memory?)", url);
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < nheaders; i++) {
        struct curl_slist *more = curl_slist_append(list, headers[i]);
        if (!more) break;
        list = more;
    }
    char err[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, timeout_s);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, timeout_s);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(h, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    curl_easy_setopt(h, CURLOPT_USERAGENT, "kvcheck/" KVC_VERSION_STRING);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, err);
    if (cacert) curl_easy_setopt(h, CURLOPT_CAINFO, cacert);
    CURLcode rc = curl_easy_perform(h);
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
    curl_easy_cleanup(h);
    curl_slist_free_all(list);
    if (rc == CURLE_OK) return KVC_OK;
    const char *why = err[0] ? err : curl_easy_strerror(rc);
    switch (rc) {
    case CURLE_COULDNT_CONNECT:
        return io_error(diag, url, "cannot connect to %s: %s; is the server running and listening there?", url, why);
    case CURLE_OPERATION_TIMEDOUT:
        return io_error(diag, url, "no answer from %s within %ld s (%s): raise --timeout, or check the server is up",
                        url, timeout_s, why);
    case CURLE_COULDNT_RESOLVE_HOST:
        return io_error(diag, url, "cannot resolve the host of %s: %s", url, why);
    case CURLE_PEER_FAILED_VERIFICATION:
        return io_error(diag, url, "%s: the server's certificate is not trusted (%s): give its CA with --cacert FILE",
                        url, why);
    case CURLE_SSL_CACERT_BADFILE:
        return io_error(diag, url, "cannot read the CA file --cacert %s for %s: %s", cacert ? cacert : "", url, why);
    case CURLE_UNSUPPORTED_PROTOCOL:
        return io_error(diag, url, "cannot read %s: %s (kvcheck reads http:// and https:// only)", url, why);
    case CURLE_WRITE_ERROR:
        if (r->too_large)
            return io_error(diag, url, "%s answered with more than %u MiB: that is no /server_info", url,
                            REPLY_LIMIT >> 20);
        return io_error(diag, url, "out of memory reading %s", url);
    default:
        return io_error(diag, url, "cannot read %s: %s (libcurl error %d)", url, why, (int)rc);
    }
}

/* "http://h:30000/" -> "http://h:30000/server_info"; an endpoint stays as it is. */
static int names_endpoint(const char *url)
{
    const char *q = strpbrk(url, "?#");
    size_t n = q ? (size_t)(q - url) : strlen(url);
    while (n && url[n - 1] == '/') n--;
    static const char *const ENDS[] = {"/server_info", "/get_server_info"};
    for (size_t i = 0; i < 2; i++) {
        size_t k = strlen(ENDS[i]);
        if (n >= k && strncmp(url + n - k, ENDS[i], k) == 0) return 1;
    }
    return 0;
}

kvc_status http_get_server_info(const char *url, long timeout_s, const char *const *headers, size_t nheaders,
                                const char *cacert, char **body, size_t *len, char *endpoint, size_t endpoint_size,
                                kvc_diag *diag)
{
    *body = NULL;
    *len = 0;
    char base[2048];
    size_t n = strlen(url);
    if (n >= sizeof base - 20) return io_error(diag, "", "the URL %.80s... is %zu bytes long: too long", url, n);
    memcpy(base, url, n + 1);
    while (n > 8 && base[n - 1] == '/') base[--n] = '\0';
    int given = names_endpoint(url);
    /* SGLang 0.5.6 and later serve /server_info; 0.5.3 to 0.5.5.post3 only
     * /get_server_info (sglang 0.5.3: python/sglang/srt/entrypoints/
     * http_server.py:477; 0.5.6 adds /server_info, 0.5.23 deprecates the old one). */
    static const char *const PATHS[] = {"/server_info", "/get_server_info"};
    for (size_t i = 0; i < (given ? 1u : 2u); i++) {
        snprintf(endpoint, endpoint_size, "%s%s", given ? url : base, given ? "" : PATHS[i]);
        reply r = {0};
        long status = 0;
        kvc_status st = get(endpoint, timeout_s, headers, nheaders, cacert, &r, &status, diag);
        if (st) {
            free(r.data);
            return st;
        }
        if (status == 404 && !given && i == 0) {
            free(r.data);
            continue;
        }
        if (status < 200 || status > 299) {
            free(r.data);
            const char *hint = status == 401 || status == 403
                                   ? ": the server wants credentials; pass them with --header 'Authorization: Bearer TOKEN'"
                               : status == 404 && !given
                                   ? ": neither /server_info nor /get_server_info is there; is this an SGLang server?"
                               : status == 404 ? ": is this an SGLang server?"
                                               : "";
            if (status == 404 && !given)
                snprintf(endpoint, endpoint_size, "%s", base);
            return io_error(diag, endpoint, "%s answered HTTP %ld%s", endpoint, status, hint);
        }
        if (!r.data) {
            r.data = calloc(1, 1);
            if (!r.data) return io_error(diag, endpoint, "out of memory reading %s", endpoint);
        }
        *body = r.data;
        *len = r.len;
        return KVC_OK;
    }
    return io_error(diag, url, "%s: no endpoint answered", url); /* not reached: the loop returns */
}

#endif
