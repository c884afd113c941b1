#!/usr/bin/env python3
"""Serves recorded /server_info replies (fixtures/servers/) on 127.0.0.1 for
the cli.http tests, and the failures a real deployment gives: HTTP errors,
a login wall, a reply that is not JSON, JSON that is not SGLang's, an empty
reply, a server too slow to answer. Python's standard library only.

Prints three lines: the port it serves on, a port nothing listens on (for
"connection refused"), and the port it serves the same over HTTPS on, with
fixtures/servers/test-only-cert.pem; then serves until killed.
"""
import http.server
import os
import socket
import ssl
import sys
import threading
import time

ROOT = sys.argv[1] if len(sys.argv) > 1 else "fixtures/servers"

# first path part -> what each endpoint answers: (status, file or bytes)
NOT_FOUND = (404, b'{"detail":"Not Found"}')
SERVERS = {
    "prefill": {"server_info": (200, "glm52-prefill-0.5.23.json")},
    "prefill-fixed": {"server_info": (200, "glm52-prefill-fixed-0.5.23.json")},
    "decode": {"server_info": (200, "glm52-decode-0.5.23.json")},
    # SGLang 0.5.3-0.5.5.post3: only /get_server_info
    "old": {"server_info": NOT_FOUND, "get_server_info": (200, "dsv32exp-decode-0.5.5.json")},
    "other": {"server_info": (200, "not-sglang.json")},
    "html": {"server_info": (200, "not-json.html")},
    "empty": {"server_info": (200, b"")},
    "error": {"server_info": (500, b"Internal Server Error")},
    "nothing": {},
}
TOKEN = "Bearer s3cret"


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body, kind="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        parts = self.path.strip("/").split("/")
        server, endpoint = (parts + ["", ""])[:2]
        if server == "auth":
            if self.headers.get("Authorization") != TOKEN:
                return self.answer(401, b'{"error":"Unauthorized"}')
            server = "decode"
        if server == "slow":
            time.sleep(5)
            server = "decode"
        status, body = SERVERS.get(server, {}).get(endpoint, NOT_FOUND)
        kind = "application/json"
        if isinstance(body, str):
            kind = "text/html" if body.endswith(".html") else kind
            with open(os.path.join(ROOT, body), "rb") as f:
                body = f.read()
        self.answer(status, body, kind)


def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpsd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpsd.daemon_threads = True
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(os.path.join(ROOT, "test-only-cert.pem"), os.path.join(ROOT, "test-only-key.pem"))
    httpsd.socket = tls.wrap_socket(httpsd.socket, server_side=True)
    threading.Thread(target=httpsd.serve_forever, daemon=True).start()
    print(httpd.server_address[1], flush=True)
    print(closed_port(), flush=True)
    print(httpsd.server_address[1], flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
