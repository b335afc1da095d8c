#!/usr/bin/env python3
"""A reverse proxy that puts a fixed delay in front of a registry and counts
what passes, so a benchmark on loopback sees the round trips a real network
would charge (tc netem is not available here) and can check how many
requests a client made.

Each request waits `delay` seconds, then goes upstream over a keep-alive
connection owned by the client's connection (HTTP/1.1 on both sides, one
thread per client connection, so concurrent requests are delayed
concurrently, as on a network). Its sockets send without Nagle's delay and
accept a deep backlog, so the proxy adds the delay and nothing else.

Counts are by method and path kind (ping /v2/, manifest, blob, token,
other). Read them at GET /_proxy/stats; POST /_proxy/reset returns them and
starts again from zero. As a library:

    with DelayProxy("http://127.0.0.1:5000", delay=0.05) as proxy:
        ... clients use proxy.host ...
        proxy.stats(); proxy.reset()

As a script: bench/delay_proxy.py --upstream http://127.0.0.1:5000
[--listen 127.0.0.1:0] [--delay-ms 50] [--port-file FILE]; it prints the
address it listens on and runs until SIGINT or SIGTERM.
"""

import argparse
import http.client
import json
import re
import signal
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
               "trailer", "transfer-encoding", "upgrade"}
_REGISTRY_PATH = re.compile(r"^/v2/.+/(manifests|blobs)/[^/]+$")


def path_kind(path):
    if path in ("/v2", "/v2/"):
        return "ping"
    m = _REGISTRY_PATH.match(path)
    if m:
        return "manifest" if m[1] == "manifests" else "blob"
    return "token" if path.rstrip("/").endswith("/token") else "other"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        # Headers and body leave in two writes; with Nagle's algorithm the
        # second waits for the client's delayed ACK (up to 40 ms on Linux) on a
        # kept-alive connection, a cost no real registry charges.
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.upstream = None

    def finish(self):
        if self.upstream is not None:
            self.upstream.close()
        super().finish()

    def proxy(self):
        proxy = self.server.proxy
        path = urllib.parse.urlsplit(self.path).path
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        if path == "/_proxy/stats" and self.command == "GET":
            return self._json(proxy.stats())
        if path == "/_proxy/reset" and self.command == "POST":
            return self._json(proxy.reset())
        proxy.count(self.command, path_kind(path))
        if proxy.delay > 0:
            time.sleep(proxy.delay)
        # A list, not a dict: clients send one Accept header per media type, and a
        # registry that sees only the last one answers with another manifest.
        headers = [(k, v) for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP]
        try:
            resp, data = self._forward(headers, body)
        except OSError as e:
            msg = f"delay_proxy: upstream {proxy.upstream.netloc}: {e}\n".encode()
            self._send(502, [("Content-Type", "text/plain")], msg)
            return
        out = [(k, v) for k, v in resp.getheaders()
               if k.lower() not in _HOP_BY_HOP and k.lower() != "content-length"]
        # A HEAD answer keeps the length upstream announced; it has no body.
        length = resp.getheader("Content-Length") if self.command == "HEAD" else None
        self._send(resp.status, out, data, length)

    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = proxy

    def _forward(self, headers, body):
        # One retry on a fresh connection: upstream may have closed an idle one.
        for attempt in (0, 1):
            if self.upstream is None:
                up = self.server.proxy.upstream
                cls = http.client.HTTPSConnection if up.scheme == "https" else \
                    http.client.HTTPConnection
                self.upstream = cls(up.hostname, up.port, timeout=60)
            try:
                self.upstream.putrequest(self.command, self.path, skip_host=True,
                                         skip_accept_encoding=True)
                for k, v in headers:
                    self.upstream.putheader(k, v)
                self.upstream.endheaders(body)
                resp = self.upstream.getresponse()
                return resp, resp.read()
            except (http.client.HTTPException, OSError):
                self.upstream.close()
                self.upstream = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _send(self, status, headers, data, length=None):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", length if length is not None else str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _json(self, obj):
        self._send(200, [("Content-Type", "application/json")], json.dumps(obj).encode())


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # The default backlog of 5 drops the SYNs of a client opening more
    # connections at once, which then wait a second to retry.
    request_queue_size = 256


class DelayProxy:
    def __init__(self, upstream, delay=0.05, listen=("127.0.0.1", 0)):
        self.upstream = urllib.parse.urlsplit(upstream)
        self.delay = delay
        self.server = _Server(listen, _Handler)
        self.server.proxy = self
        self._lock = threading.Lock()
        self._counts = {}
        self._thread = None

    @property
    def host(self):
        return f"127.0.0.1:{self.server.server_port}"

    def start(self):
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def count(self, method, kind):
        with self._lock:
            self._counts[(kind, method)] = self._counts.get((kind, method), 0) + 1

    def stats(self):
        """{"total": n, "by_method": {GET: n}, "by_kind": {manifest: {HEAD: n}}}"""
        with self._lock:
            return self._summary()

    def reset(self):
        """Returns the counts so far and starts again from zero."""
        with self._lock:
            stats = self._summary()
            self._counts.clear()
        return stats

    def _summary(self):
        by_method, by_kind = {}, {}
        for (kind, method), n in sorted(self._counts.items()):
            by_method[method] = by_method.get(method, 0) + n
            by_kind.setdefault(kind, {})[method] = n
        return {"total": sum(self._counts.values()), "by_method": by_method, "by_kind": by_kind}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--upstream", required=True, help="registry URL, e.g. http://127.0.0.1:5000")
    ap.add_argument("--listen", default="127.0.0.1:0", help="host:port (port 0: any free one)")
    ap.add_argument("--delay-ms", type=float, default=50.0, help="delay per request (50)")
    ap.add_argument("--port-file", help="write the port here once listening")
    args = ap.parse_args()
    host, _, port = args.listen.rpartition(":")
    proxy = DelayProxy(args.upstream, args.delay_ms / 1000.0, (host, int(port)))
    if args.port_file:
        with open(args.port_file, "w") as f:
            f.write(f"{proxy.server.server_port}\n")
    print(f"delay_proxy: listening on {proxy.host}, {args.delay_ms:g} ms in front of "
          f"{args.upstream}", flush=True)
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    try:
        proxy.server.serve_forever()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        print(f"delay_proxy: {json.dumps(proxy.stats())}", flush=True)


if __name__ == "__main__":
    main()
