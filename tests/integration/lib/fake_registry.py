"""An in-process fake registry for what the real one will not do on demand:
bearer token variants, 429/5xx, slow or truncated replies, wrong digests,
blob redirects, oversize or malformed manifests, Docker Hub's 401 for a
missing repository. It serves images built with oci.Store, so the happy path
resolves, and logs every request (headers included) for assertions.

    fake = FakeRegistry().start()
    fake.tag("multi/app", "v1", fake.store.index([...]))
    fake.fault(manifest("multi/app"), status(429, {"Retry-After": "1"}), times=1)
    ... run archfit against fake.host ...
    fake.requests(kind="manifest")

Faults are (match, action, times) triples tried in order before the normal
handling; an action returns True when it answered the request itself, False
to let normal handling go on (a delay, say).
"""

import base64
import json
import re
import secrets
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import oci

_PATH = re.compile(r"^/v2/(?P<repo>.+)/(?P<kind>manifests|blobs)/(?P<ref>[^/]+)$")


def error_body(code, message, detail=None):
    return json.dumps({"errors": [{"code": code, "message": message, "detail": detail}]}).encode()


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a handler asleep in a "slow" fault must not block stop()
    allow_reuse_address = True


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as registries speak

    def log_message(self, *args):
        pass

    def handle_one(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.body = self.rfile.read(length) if length else b""
        url = urllib.parse.urlsplit(self.path)
        self.url_path, self.query = url.path, urllib.parse.parse_qs(url.query)
        self.entry = {"time": time.monotonic(), "port": self.server.server_port,
                      "method": self.command, "path": url.path, "query": self.query,
                      "headers": {k.lower(): v for k, v in self.headers.items()},
                      "body": self.body, "status": None}
        self.server.owner.record(self.entry)
        try:
            self.server.owner.handle(self)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = handle_one

    def handle(self):
        # A TLS hello (a handshake record starts 0x16) to a plain http server
        # that stays silent on it, as some do, until the client gives up.
        if getattr(self.server.owner, "silent_on_tls", False):
            try:
                first = self.rfile.peek(1)[:1]
            except OSError:
                return
            if first == b"\x16":
                self.server.owner.record({"time": time.monotonic(), "port": self.server.server_port,
                                          "method": "TLS", "path": "", "query": {},
                                          "headers": {}, "body": b"", "status": None})
                self.connection.settimeout(30)
                try:
                    while self.connection.recv(4096):
                        pass
                except OSError:
                    pass
                return
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError):
            pass  # the client hung up, as after a refused answer

    def reply(self, status, body=b"", headers=None, content_type="application/json"):
        self.entry["status"] = status
        self.send_response(status)
        self.send_header("Docker-Distribution-API-Version", "registry/2.0")
        headers = dict(headers or {})
        if content_type and "Content-Type" not in headers:
            headers["Content-Type"] = content_type
        headers.setdefault("Content-Length", str(len(body)))
        for name, value in headers.items():
            for v in value if isinstance(value, list) else [value]:
                self.send_header(name, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.wfile.flush()


class _Base:
    """A threaded HTTP server on 127.0.0.1 that logs requests."""

    def __init__(self):
        self.server = _Server(("127.0.0.1", 0), _Handler)
        self.server.owner = self
        self.log = []
        self.lock = threading.Lock()
        self.thread = None

    @property
    def port(self):
        return self.server.server_port

    @property
    def host(self):
        return f"127.0.0.1:{self.port}"

    def start(self):
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def record(self, entry):
        with self.lock:
            self.log.append(entry)

    def requests(self, kind=None, method=None, repo=None):
        """Logged requests, optionally only of a kind (ping, token, manifest, blob)."""
        with self.lock:
            entries = list(self.log)
        return [e for e in entries if (kind is None or path_kind(e["path"]) == kind)
                and (method is None or e["method"] == method)
                and (repo is None or repo_of(e["path"]) == repo)]

    def reset_log(self):
        with self.lock:
            self.log.clear()


def path_kind(path):
    if path in ("/v2", "/v2/"):
        return "ping"
    m = _PATH.match(path)
    if m:
        return "manifest" if m["kind"] == "manifests" else "blob"
    return "token" if path.endswith("/token") else "other"


def repo_of(path):
    m = _PATH.match(path)
    return m["repo"] if m else None


class BlobStorage(_Base):
    """Where blob GETs are redirected: another port, as object storage would
    be. Like a presigned S3 URL it rejects a request that also carries an
    Authorization header; the log shows whether one arrived."""

    def __init__(self, store):
        super().__init__()
        self.store = store

    def handle(self, h):
        digest = "sha256:" + h.url_path.rsplit("/", 1)[-1]
        if "authorization" in h.entry["headers"]:
            h.reply(400, b"<Error><Code>InvalidArgument</Code><Message>Only one auth "
                    b"mechanism allowed</Message></Error>", content_type="application/xml")
        elif digest in self.store.blobs:
            h.reply(200, self.store.get(digest), content_type="application/octet-stream")
        else:
            h.reply(404, b"", content_type=None)


class FakeRegistry(_Base):
    def __init__(self, store=None):
        super().__init__()
        self.store = store or oci.Store()
        self.repos = {}  # repo -> {tag: digest}
        self.faults = []  # [match, action, times left or None]
        # Authentication: None, "basic" or "bearer".
        self.auth = None
        self.users = {}  # user -> password (basic, and Basic on the token endpoint)
        self.service = "fake-registry"  # None: challenges carry no service
        self.token_path = "/token"
        self.challenge = "single"  # "single", "several-headers", "one-header"
        self.token_fields = ("token",)  # which of token / access_token the token server sends
        self.expires_in = 300  # None: left out
        self.token_post_status = None  # e.g. 404: POST to the realm fails, GET works
        self.extra_scopes = {}  # repo -> scopes a token needs besides repository:<repo>:pull
        self.missing_repo_401 = False  # Docker Hub: 401, not 404, for unknown repositories
        self.tokens = {}  # token -> set of scopes granted
        self.blob_redirect = None  # BlobStorage to send blob GETs to
        self.token_value = None  # the token the token server hands out (default: a random one)
        self.realm_url = None  # the realm the challenges name (default: this server's /token)
        self.silent_on_tls = False  # hold a TLS hello without an answer

    # -- content -------------------------------------------------------

    def tag(self, repo, tag, desc):
        self.repos.setdefault(repo, {})[tag] = desc["digest"]
        return desc["digest"]

    def ref(self, repo, tag=None, digest=None):
        return f"{self.host}/{repo}" + (f":{tag}" if tag else "") + (f"@{digest}" if digest else "")

    def fault(self, match, action, times=None):
        self.faults.append([match, action, times])

    # -- authentication ------------------------------------------------

    def realm(self):
        return self.realm_url or f"http://{self.host}{self.token_path}"

    def challenges(self, scope=None, error=None):
        params = [("realm", self.realm())]
        if self.service is not None:
            params.append(("service", self.service))
        if scope:
            params.append(("scope", scope))
        if error:
            params.append(("error", error))
        bearer = "Bearer " + ",".join(f'{k}="{quote(v)}"' for k, v in params)
        if self.challenge == "several-headers":
            return ['Basic realm="fake, basic"', bearer]
        if self.challenge == "one-header":
            return [f'Basic realm="fake, basic", {bearer}']
        return [bearer]

    def authorized(self, h, repo):
        """True when the request may go on; else the 401 has been sent."""
        header = h.entry["headers"].get("authorization", "")
        if self.auth is None:
            return True
        if self.auth == "basic":
            if self._basic_ok(header):
                return True
            h.reply(401, error_body("UNAUTHORIZED", "authentication required"),
                    {"WWW-Authenticate": 'Basic realm="fake"'})
            return False
        need = {f"repository:{repo}:pull"} if repo else set()
        need |= set(self.extra_scopes.get(repo, ()))
        granted = self.tokens.get(header[7:]) if header.startswith("Bearer ") else None
        if granted is not None and need <= granted and (repo is None or repo in self.repos
                                                        or not self.missing_repo_401):
            return True
        error = None
        if granted is not None:
            error = "insufficient_scope"
        scope = " ".join(sorted(need)) if need else None
        detail = [{"Type": "repository", "Class": "", "Name": repo, "Action": "pull"}] if repo \
            else None
        h.reply(401, error_body("UNAUTHORIZED", "authentication required", detail),
                {"WWW-Authenticate": self.challenges(scope, error)})
        return False

    def _basic_ok(self, header):
        if not header.startswith("Basic "):
            return False
        try:
            user, _, password = base64.b64decode(header[6:]).decode().partition(":")
        except ValueError:
            return False
        return self.users.get(user) == password

    def serve_token(self, h):
        header = h.entry["headers"].get("authorization", "")
        if h.command == "POST":
            if self.token_post_status:
                h.reply(self.token_post_status, b"404 page not found\n", content_type="text/plain")
                return
            form = urllib.parse.parse_qs(h.body.decode())
            scopes = form.get("scope", [])
        else:
            if header and self.users and not self._basic_ok(header):
                h.reply(401, error_body("UNAUTHORIZED", "bad credentials"))
                return
            scopes = h.query.get("scope", [])
        granted = {s for joined in scopes for s in joined.split(" ") if s}
        token = self.token_value or "fake-token-" + secrets.token_hex(12)
        self.tokens[token] = granted
        body = {name: token for name in self.token_fields}
        if self.expires_in is not None:
            body["expires_in"] = self.expires_in
        body["issued_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        h.reply(200, json.dumps(body).encode())

    # -- the registry API ----------------------------------------------

    def handle(self, h):
        for fault in self.faults:
            match, action, times = fault
            if times != 0 and match(h):
                if times is not None:
                    fault[2] -= 1
                if action(self, h):
                    return
                break
        kind = path_kind(h.url_path)
        if kind == "token":
            return self.serve_token(h)
        if kind == "ping":
            if self.authorized(h, None):
                h.reply(200, b"{}")
            return
        m = _PATH.match(h.url_path)
        if not m or h.command not in ("GET", "HEAD"):
            return h.reply(404, error_body("UNSUPPORTED", "not here"))
        repo, ref = m["repo"], m["ref"]
        if not self.authorized(h, repo):
            return
        if repo not in self.repos:
            return h.reply(404, error_body("NAME_UNKNOWN", "repository name not known to "
                                           "registry", {"name": repo}))
        if kind == "manifest":
            return self.serve_manifest(h, repo, ref)
        if ref not in self.store.blobs:
            return h.reply(404, error_body("BLOB_UNKNOWN", "blob unknown to registry", ref))
        if self.blob_redirect is not None and h.command == "GET":
            location = (f"http://{self.blob_redirect.host}/storage/{ref.split(':', 1)[1]}"
                        f"?X-Amz-Signature={secrets.token_hex(8)}")
            return h.reply(307, b"", {"Location": location}, content_type=None)
        h.reply(200, self.store.get(ref), {"Docker-Content-Digest": ref},
                content_type="application/octet-stream")

    def serve_manifest(self, h, repo, ref):
        digest = self.repos[repo].get(ref, ref if ref.startswith("sha256:") else None)
        if digest not in self.store.media_types:
            return h.reply(404, error_body("MANIFEST_UNKNOWN", "manifest unknown", {"ref": ref}))
        h.reply(200, self.store.get(digest), {"Docker-Content-Digest": digest},
                content_type=self.store.media_types[digest])


def quote(value):
    """A quoted-string value as RFC 7230 writes it: backslash before `"` and `\\`."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


# -- matches -------------------------------------------------------------

def manifest(repo=None, method=None):
    return lambda h: (path_kind(h.url_path) == "manifest"
                      and (repo is None or repo_of(h.url_path) == repo)
                      and (method is None or h.command == method))


def blob(repo=None):
    return lambda h: path_kind(h.url_path) == "blob" and (repo is None
                                                        or repo_of(h.url_path) == repo)


def any_request():
    return lambda h: True


# -- actions -------------------------------------------------------------

def status(code, headers=None, oci_code="UNKNOWN", message="injected failure"):
    def act(fake, h):
        hdrs = {k: (v() if callable(v) else v) for k, v in (headers or {}).items()}
        h.reply(code, error_body(oci_code, message), hdrs)
        return True
    return act


def delay(seconds):
    """Sleeps, then answers normally: slower than the client's timeout if asked."""
    def act(fake, h):
        time.sleep(seconds)
        return False
    return act


def truncated(extra=4096):
    """Promises more bytes than it sends, then closes the connection."""
    def act(fake, h):
        m = _PATH.match(h.url_path)
        digest = fake.repos.get(m["repo"], {}).get(m["ref"], m["ref"])
        body = fake.store.get(digest)
        h.entry["status"] = 200
        h.send_response(200)
        h.send_header("Content-Type", fake.store.media_types.get(digest, "application/json"))
        h.send_header("Docker-Content-Digest", digest)
        h.send_header("Content-Length", str(len(body) + extra))
        h.end_headers()
        if h.command != "HEAD":
            h.wfile.write(body[: len(body) // 2])
        h.wfile.flush()
        h.close_connection = True
        return True
    return act


def header_flood(count=400, size=1000):
    """Answers with more header bytes than any registry sends (400 KB)."""
    def act(fake, h):
        h.entry["status"] = 200
        h.send_response(200)
        for i in range(count):
            h.send_header(f"X-Flood-{i}", "a" * size)
        h.send_header("Content-Length", "0")
        h.end_headers()
        h.wfile.flush()
        return True
    return act


def wrong_body(replacement):
    """Answers with `replacement` bytes while naming the requested digest."""
    def act(fake, h):
        m = _PATH.match(h.url_path)
        digest = fake.repos.get(m["repo"], {}).get(m["ref"], m["ref"])
        media_type = fake.store.media_types.get(digest, "application/octet-stream")
        h.reply(200, replacement, {"Docker-Content-Digest": digest}, content_type=media_type)
        return True
    return act
