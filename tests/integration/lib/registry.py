"""A real registry for tests: Debian's `docker-registry` (Distribution 2.8) on
127.0.0.1, filled with skopeo from OCI layouts that oci.py writes.

    with Registry(tls=True, users={"alice": "pw"}) as reg:
        digest = reg.push(layout_dir, "v1", "multi/oci-index:v1")

Modes: plain http (default); tls=True, with a throwaway CA and a server
certificate for 127.0.0.1 made by openssl (reg.ca_file is the CA to trust);
users={...}, htpasswd basic auth. Distribution 2.8.2 accepts htpasswd over
plain http too; the tests use it over TLS, as people run it.
"""

import base64
import os
import ssl
import subprocess
import time
import urllib.error
import urllib.request

from . import harness

_CONFIG = """version: 0.1
log:
  level: warn
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: {root}
  delete:
    enabled: true
http:
  addr: {addr}
  secret: archfit-test-secret
{tls}{auth}"""


def make_ca(directory, hosts=("127.0.0.1", "localhost")):
    """Writes ca.pem, server.pem and server.key into `directory`; returns the CA path."""
    openssl = harness.require_tool("openssl")
    ca_key, ca = os.path.join(directory, "ca.key"), os.path.join(directory, "ca.pem")
    key, csr = os.path.join(directory, "server.key"), os.path.join(directory, "server.csr")
    cert, ext = os.path.join(directory, "server.pem"), os.path.join(directory, "san.ext")
    sans = ",".join(("IP:" if h[0].isdigit() else "DNS:") + h for h in hosts)
    with open(ext, "w") as f:
        f.write(f"subjectAltName={sans}\nbasicConstraints=CA:FALSE\n"
                "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n")

    def run(*args):
        subprocess.run([openssl, *args], check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca,
        "-days", "2", "-subj", "/CN=archfit test CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr,
        "-subj", "/CN=127.0.0.1")
    run("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
        "-out", cert, "-days", "2", "-extfile", ext)
    return ca


class Registry:
    def __init__(self, tls=False, users=None, cache=False):
        self.tls = tls
        # cache=True: blob descriptors cached in memory, as registries in
        # production run (benchmarks); off where tests delete blobs.
        self.cache = cache
        self.users = dict(users or {})
        self.dir = harness.temp_dir("registry")
        self.port = None
        self.proc = None
        self.ca_file = make_ca(self.dir) if tls else None
        # skopeo trusts the *.crt files of a --cert-dir.
        self.cert_dir = None
        if tls:
            self.cert_dir = os.path.join(self.dir, "certs.d")
            os.makedirs(self.cert_dir)
            with open(self.ca_file) as src, open(os.path.join(self.cert_dir, "ca.crt"), "w") as dst:
                dst.write(src.read())

    @property
    def host(self):
        return f"127.0.0.1:{self.port}"

    @property
    def url(self):
        return f"{'https' if self.tls else 'http'}://{self.host}"

    # -- lifetime ------------------------------------------------------

    def start(self, timeout=15.0):
        binary = harness.require_tool("docker-registry")
        for _ in range(5):  # another process may take the free port first
            self.port = harness.free_port()
            cfg = os.path.join(self.dir, "config.yml")
            with open(cfg, "w") as f:
                f.write(self._config())
            log = open(os.path.join(self.dir, "registry.log"), "wb")
            self.proc = harness.spawn([binary, "serve", cfg], stdout=log, stderr=log)
            log.close()
            if self._wait_ready(timeout):
                return self
            harness.stop(self.proc)
            if "address already in use" not in self.log():
                break
        raise RuntimeError(f"docker-registry did not answer on {self.url}/v2/ within "
                           f"{timeout}s; its log:\n{self.log()}")

    def stop(self):
        if self.proc:
            harness.stop(self.proc)
            self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def log(self):
        try:
            with open(os.path.join(self.dir, "registry.log"), errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def _config(self):
        tls = auth = ""
        if self.tls:
            tls = (f"  tls:\n    certificate: {self.dir}/server.pem\n"
                   f"    key: {self.dir}/server.key\n")
        if self.users:
            htpasswd = os.path.join(self.dir, "htpasswd")
            tool = harness.require_tool("htpasswd")
            with open(htpasswd, "w") as f:
                for user, password in self.users.items():
                    # bcrypt cost 4 (the minimum): the registry checks it on every request.
                    line = subprocess.run([tool, "-nbB", "-C", "4", user, password], check=True,
                                          capture_output=True, text=True).stdout.strip()
                    f.write(line + "\n")
            auth = f"auth:\n  htpasswd:\n    realm: archfit-test\n    path: {htpasswd}\n"
        text = _CONFIG.format(root=os.path.join(self.dir, "data"), addr=self.host, tls=tls,
                              auth=auth)
        if self.cache:
            text = text.replace("  delete:\n", "  cache:\n    blobdescriptor: inmemory\n  delete:\n", 1)
        return text

    def _wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                status, _, _ = self.request("GET", "/v2/", auth=False)
                if status in (200, 401):
                    return True
            except OSError:
                pass
            time.sleep(0.05)
        return False

    # -- HTTP ----------------------------------------------------------

    def ssl_context(self):
        return ssl.create_default_context(cafile=self.ca_file) if self.tls else None

    def request(self, method, path, body=None, headers=None, auth=True):
        """(status, headers, body) of one request to the registry itself."""
        req = urllib.request.Request(self.url + path, data=body, method=method,
                                     headers=dict(headers or {}))
        if auth and self.users:
            user, password = next(iter(self.users.items()))
            token = base64.b64encode(f"{user}:{password}".encode()).decode()
            req.add_header("Authorization", f"Basic {token}")
        try:
            with urllib.request.urlopen(req, context=self.ssl_context(), timeout=10) as resp:
                return resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def put_manifest(self, repo, ref, data, media_type):
        """Uploads a manifest whose children are already in `repo`. skopeo
        1.9.3 cannot copy an index that contains an index, so nested indexes
        are finished this way."""
        status, headers, body = self.request("PUT", f"/v2/{repo}/manifests/{ref}", data,
                                             {"Content-Type": media_type})
        if status != 201:
            raise RuntimeError(f"PUT manifest {repo}:{ref}: {status} {body[:300]!r}")
        return headers["Docker-Content-Digest"]

    def manifest_digest(self, repo, ref, accept):
        status, headers, _ = self.request("HEAD", f"/v2/{repo}/manifests/{ref}",
                                          headers={"Accept": ", ".join(accept)})
        if status != 200:
            raise RuntimeError(f"HEAD {repo}:{ref}: {status}")
        return headers["Docker-Content-Digest"]

    # -- skopeo --------------------------------------------------------

    def skopeo_flags(self, prefix=""):
        """Transport flags for skopeo; prefix "dest-" for copy's destination."""
        flags = ["--insecure-policy"] if prefix == "dest-" else []
        if self.tls:
            flags.append(f"--{prefix}cert-dir={self.cert_dir}")
        else:
            flags.append(f"--{prefix}tls-verify=false")
        if self.users:
            user, password = next(iter(self.users.items()))
            flags.append(f"--{prefix}creds={user}:{password}")
        return flags

    def push(self, layout, tag, target, fmt=None):
        """skopeo copy --all oci:<layout>:<tag> -> this registry's <repo>:<tag>.
        fmt "v2s2" makes skopeo convert to Docker media types (an OCI index
        becomes a Docker manifest list). Returns the digest pushed."""
        skopeo = harness.require_tool("skopeo")
        digest_file = os.path.join(self.dir, f"digest-{os.getpid()}-{time.monotonic_ns()}")
        args = [skopeo, "copy", "--all", "--quiet", *self.skopeo_flags("dest-"),
                f"--digestfile={digest_file}"]
        if fmt:
            args.append(f"--format={fmt}")
        args += [f"oci:{layout}:{tag}", f"docker://{self.host}/{target}"]
        proc = subprocess.run(args, capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            raise RuntimeError(f"skopeo copy to {target} failed: {proc.stderr.strip()}")
        with open(digest_file) as f:
            digest = f.read().strip()
        os.unlink(digest_file)
        return digest

    def inspect_raw(self, ref):
        """The manifest bytes skopeo reads back for `ref` (repo:tag or repo@digest)."""
        skopeo = harness.require_tool("skopeo")
        proc = subprocess.run([skopeo, "inspect", "--raw", *self.skopeo_flags(),
                               f"docker://{self.host}/{ref}"], capture_output=True, timeout=60)
        if proc.returncode != 0:
            raise RuntimeError(f"skopeo inspect {ref} failed: {proc.stderr.decode().strip()}")
        return proc.stdout
