"""An HTTP/2 server (TLS, ALPN h2) on 127.0.0.1 that breaks the protocol on
purpose, for what no real registry does on demand. It speaks just enough
HTTP/2 (RFC 9113) to be reached: the preface, SETTINGS and their ACK, then
for each request (HEADERS frame) the answer of its mode:

    continuation  HEADERS without END_HEADERS, then CONTINUATION frames
                  without end
    bigheader     one header block of 1 MiB in CONTINUATION frames, then a
                  body: complete, but past any client's header limit

    with H2Server("continuation", cert, key) as server:
        server.port, server.requests   # requests counts HEADERS frames
"""

import socket
import ssl
import struct
import threading

DATA, HEADERS, SETTINGS, CONTINUATION = 0x0, 0x1, 0x4, 0x9
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
STATUS_200 = b"\x88"  # HPACK: indexed field 8 of the static table, ":status: 200"


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def _hpack_string(text):
    data = text.encode()
    if len(data) < 127:
        return bytes([len(data)]) + data
    out, n = bytearray([127]), len(data) - 127
    while n >= 128:
        out.append((n & 127) | 128)
        n >>= 7
    out.append(n)
    return bytes(out) + data


def literal(name, value):
    """HPACK literal header field without indexing, new name, no Huffman."""
    return b"\x00" + _hpack_string(name) + _hpack_string(value)


class H2Server:
    def __init__(self, mode, cert, key):
        if mode not in ("continuation", "bigheader"):
            raise ValueError(f"unknown mode {mode!r}")
        self.mode = mode
        self.requests = 0
        self._lock = threading.Lock()
        self._context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self._context.load_cert_chain(cert, key)
        self._context.set_alpn_protocols(["h2"])
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._stopped = True
        self._listener.close()

    def _accept(self):
        while not self._stopped:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        try:
            with self._context.wrap_socket(conn, server_side=True) as tls:
                if self._read(tls, len(PREFACE)) != PREFACE:
                    return
                tls.sendall(frame(SETTINGS, 0, 0))
                while True:
                    head = self._read(tls, 9)
                    length, kind, flags = int.from_bytes(head[:3], "big"), head[3], head[4]
                    stream = int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
                    self._read(tls, length)
                    if kind == SETTINGS and not flags & ACK:
                        tls.sendall(frame(SETTINGS, ACK, 0))
                    elif kind == HEADERS:
                        with self._lock:
                            self.requests += 1
                        self._answer(tls, stream)
        except (OSError, EOFError, ssl.SSLError):
            pass  # the client hung up, as it should

    @staticmethod
    def _read(tls, n):
        data = b""
        while len(data) < n:
            piece = tls.recv(n - len(data))
            if not piece:
                raise EOFError
            data += piece
        return data

    def _answer(self, tls, stream):
        pad = literal("x-pad", "a" * 1000)
        tls.sendall(frame(HEADERS, 0, stream, STATUS_200 + pad))
        if self.mode == "continuation":
            while not self._stopped:
                tls.sendall(frame(CONTINUATION, 0, stream, pad))
        for _ in range(1024):
            tls.sendall(frame(CONTINUATION, 0, stream, pad))
        tls.sendall(frame(CONTINUATION, END_HEADERS, stream, literal("content-type", "application/json")))
        tls.sendall(frame(DATA, END_STREAM, stream, b"{}"))
