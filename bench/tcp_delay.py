#!/usr/bin/env python3
"""A TCP relay that charges a network's round trip on loopback: every chunk
is delivered half the round trip after it arrived, in each direction, so a
request and its answer cost one round trip whatever the protocol. TLS and
HTTP/2 pass through untouched (the relay never reads them), which
bench/delay_proxy.py, an HTTP/1.1 reverse proxy, cannot do.

Delivery keeps the order of a connection's bytes and does not hold one chunk
back for another: a chunk that arrives while earlier ones wait is sent at
its own time, so the relay adds latency and no throughput limit. It counts
the connections clients opened.

    with TcpDelay("127.0.0.1", 5000, rtt=0.05) as relay:
        ... clients connect to relay.host ...
        relay.connections  # opened so far
"""

import collections
import socket
import threading
import time


class TcpDelay:
    def __init__(self, upstream_host, upstream_port, rtt=0.05):
        self.upstream = (upstream_host, upstream_port)
        self.one_way = rtt / 2
        self.connections = 0
        self._lock = threading.Lock()
        self._listener = None
        self._closing = False
        self._sockets = []

    @property
    def host(self):
        return f"127.0.0.1:{self._listener.getsockname()[1]}"

    def __enter__(self):
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(512)
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self._closing = True
        self._listener.close()
        with self._lock:
            for s in self._sockets:
                try:
                    s.close()
                except OSError:
                    pass

    def reset(self):
        with self._lock:
            count, self.connections = self.connections, 0
        return count

    def _accept(self):
        while not self._closing:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.upstream)
            except OSError:
                client.close()
                continue
            for s in (client, server):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self.connections += 1
                self._sockets += [client, server]
            self._relay(client, server)
            self._relay(server, client)

    def _relay(self, source, sink):
        """source -> sink, each chunk `one_way` seconds after it was read."""
        queue = collections.deque()
        ready = threading.Condition()

        def read():
            while True:
                try:
                    data = source.recv(65536)
                except OSError:
                    data = b""
                with ready:
                    queue.append((time.monotonic() + self.one_way, data))
                    ready.notify()
                if not data:
                    return

        def write():
            while True:
                with ready:
                    while not queue:
                        ready.wait()
                    due, data = queue.popleft()
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                try:
                    if not data:
                        sink.shutdown(socket.SHUT_WR)
                        return
                    sink.sendall(data)
                except OSError:
                    return

        threading.Thread(target=read, daemon=True).start()
        threading.Thread(target=write, daemon=True).start()
