"""A release directory laid out as scripts/release writes it (the archive
archfit_<version>_linux_<arch>.tar.gz, SHA256SUMS and its signature
SHA256SUMS.asc) under v<version>/ of a mirror served over HTTP on loopback,
for the tests of what installs releases (scripts/install, the action, the
plugins). The executable in it is the one under test; SHA256SUMS is signed
with a throwaway key made for the test run, which the installer is told to
trust (ARCHFIT_RELEASE_KEY).

    with ServedRelease.of(path_to_archfit) as release:
        env = release.env  # ARCHFIT_RELEASE_BASE_URL and ARCHFIT_RELEASE_KEY
"""

import functools
import hashlib
import http.server
import io
import os
import shutil
import subprocess
import tarfile
import tempfile
import threading


class Signer:
    """A throwaway OpenPGP key in a GNUPGHOME of its own: signs files
    detached and armored, as the release workflow does."""

    def __init__(self, name):
        self.home = tempfile.mkdtemp(prefix="archfit-gnupg-")
        os.chmod(self.home, 0o700)
        self._gpg("--quick-gen-key", f"{name} <{name}@archfit.invalid>", "ed25519", "sign", "never")
        self.public_key = os.path.join(self.home, "public.asc")
        with open(self.public_key, "wb") as f:
            f.write(self._gpg("--armor", "--export"))

    def _gpg(self, *args):
        return subprocess.run(["gpg", "--batch", "--quiet", "--passphrase", "", "--pinentry-mode", "loopback",
                               *args], env=dict(os.environ, GNUPGHOME=self.home),
                              capture_output=True, check=True).stdout

    def sign(self, path):
        """Writes path.asc, the detached armored signature of path."""
        self._gpg("--yes", "--armor", "--detach-sign", "--output", path + ".asc", path)


_signers = {}


def signer(name="release"):
    """One key per name and test process: making a key takes a moment."""
    if name not in _signers:
        _signers[name] = Signer(name)
    return _signers[name]


def archive_bytes(files):
    """A .tar.gz of {name: (bytes, mode)}, names at the top."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, (data, mode) in sorted(files.items()):
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), mode
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """Serves the directory; when the release is `chunked`, without a
    Content-Length (HTTP/1.1 chunked), as a server may."""

    protocol_version = "HTTP/1.1"

    def __init__(self, *args, release, **kwargs):
        self.release = release
        super().__init__(*args, **kwargs)

    def log_message(self, *args):
        pass

    def send_header(self, keyword, value):
        if keyword.lower() == "content-length" and self.release.chunked:
            super().send_header("Transfer-Encoding", "chunked")
            return
        super().send_header(keyword, value)

    def copyfile(self, source, outputfile):
        if not self.release.chunked:
            return super().copyfile(source, outputfile)
        while piece := source.read(65536):
            outputfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
        outputfile.write(b"0\r\n\r\n")


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a client that stops reading at its cap is expected here


class ServedRelease:
    def __init__(self, exe, version, arch="amd64"):
        self.exe, self.version, self.arch = exe, version, arch
        self.chunked = False
        self.root = tempfile.mkdtemp(prefix="archfit-served-release-")
        self.dir = os.path.join(self.root, f"v{version}")
        os.mkdir(self.dir)
        handler = functools.partial(_Quiet, directory=self.root, release=self)
        self.server = _Server(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.key = signer().public_key
        self.publish()

    @property
    def env(self):
        """What points scripts/install at this mirror and its key."""
        return {"ARCHFIT_RELEASE_BASE_URL": self.url, "ARCHFIT_RELEASE_KEY": self.key}

    @classmethod
    def of(cls, executable):
        """A release of the archfit at `executable`, with the version it says."""
        with open(executable, "rb") as f:
            exe = f.read()
        said = subprocess.run([executable, "version"], capture_output=True, text=True, check=True)
        return cls(exe, said.stdout.split()[1])

    @property
    def archive(self):
        return f"archfit_{self.version}_linux_{self.arch}.tar.gz"

    def put(self, archive, sums, signed_by="release"):
        """Writes the archive's bytes and SHA256SUMS as given, signed."""
        with open(os.path.join(self.dir, self.archive), "wb") as f:
            f.write(archive)
        self.write_sums(sums, signed_by)

    def write_sums(self, sums, signed_by="release"):
        with open(os.path.join(self.dir, "SHA256SUMS"), "w") as f:
            f.write(sums)
        signature = os.path.join(self.dir, "SHA256SUMS.asc")
        if signed_by is None:
            if os.path.exists(signature):
                os.unlink(signature)
        else:
            signer(signed_by).sign(os.path.join(self.dir, "SHA256SUMS"))

    def publish(self, exe=None, sums=None, signed_by="release"):
        """Writes the archive (with `exe`, default the one given), SHA256SUMS
        (`sums`, default the archive's true checksum) and its signature by
        the key `signed_by` (None: no signature); returns the checksum."""
        data = archive_bytes({"archfit": (exe if exe is not None else self.exe, 0o755),
                              "LICENSE": (b"Apache License\n", 0o644),
                              "README.md": (b"# archfit\n", 0o644)})
        digest = hashlib.sha256(data).hexdigest()
        other = f"archfit_{self.version}_linux_{'arm64' if self.arch == 'amd64' else 'amd64'}.tar.gz"
        self.put(data, sums if sums is not None else f"{'0' * 64}  {other}\n{digest}  {self.archive}\n",
                 signed_by)
        return digest

    def remove_archive(self):
        os.unlink(os.path.join(self.dir, self.archive))

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
