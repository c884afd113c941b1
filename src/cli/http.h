/* Reading a running server's /server_info over HTTP(S) with libcurl: the
 * CLI's only network code (the library has none). */
#ifndef KVC_CLI_HTTP_H
#define KVC_CLI_HTTP_H

#include "kvcheck.h"

/* 1 for "http://..." and "https://..." (any case): a running server, not a file. */
int http_is_url(const char *text);
/* What this build can read: "http and https (libcurl 7.88.1)", or why not. Static storage. */
const char *http_support(void);
/* Once per process, before any fetch; and the matching cleanup. */
void http_init(void);
void http_cleanup(void);

/* GETs the server's /server_info (and, on 404, /get_server_info, the only
 * one SGLang 0.5.3-0.5.5.post3 have), unless `url` names an endpoint itself.
 * On success *body (free()) holds the reply, NUL-terminated, and `endpoint`
 * the URL it came from. Every failure is KVC_ERR_IO with what happened
 * (refused, timed out, HTTP status, TLS, too large) and what to do. */
/* `cacert` (may be NULL) is a PEM file of the CAs to trust for https://
 * instead of the system's. */
kvc_status http_get_server_info(const char *url, long timeout_s, const char *const *headers, size_t nheaders,
                                const char *cacert, char **body, size_t *len, char *endpoint, size_t endpoint_size,
                                kvc_diag *diag);

#endif /* KVC_CLI_HTTP_H */
