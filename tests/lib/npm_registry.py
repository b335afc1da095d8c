"""A real npm registry on loopback (verdaccio, installed by scripts/lib/tools.sh's
ensure_verdaccio), with a user to publish as: the npm packages of a release
are published to it and installed from it, as from registry.npmjs.org.

    with NpmRegistry(verdaccio) as registry:
        registry.publish(paths, tag="e2e")      # platform packages before @archfit/cli
        env = {"NPM_CONFIG_REGISTRY": registry.url, ...}
"""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NpmRegistry:
    def __init__(self, verdaccio):
        self.dir = tempfile.mkdtemp(prefix="npm-registry-")
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}/"
        config = os.path.join(self.dir, "config.yaml")
        with open(config, "w") as f:
            f.write(f"""\
storage: {self.dir}/storage
auth:
  htpasswd:
    file: {self.dir}/htpasswd
uplinks: {{}}
packages:
  '**':
    access: $all
    publish: $authenticated
log: {{type: stdout, format: pretty, level: warn}}
""")
        self.server = subprocess.Popen([verdaccio, "--config", config, "--listen", f"127.0.0.1:{port}"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self._wait()
            request = urllib.request.Request(
                self.url + "-/user/org.couchdb.user:tester", method="PUT",
                data=json.dumps({"name": "tester", "password": "a-test-password"}).encode(),
                headers={"Content-Type": "application/json"})
            token = json.load(urllib.request.urlopen(request, timeout=10))["token"]
        except BaseException:
            self.close()
            raise
        self.npmrc = os.path.join(self.dir, "npmrc")
        with open(self.npmrc, "w") as f:
            f.write(f"registry={self.url}\n//127.0.0.1:{port}/:_authToken={token}\n")

    def _wait(self):
        for _ in range(300):
            try:
                urllib.request.urlopen(self.url + "-/ping", timeout=1)
                return
            except OSError:
                if self.server.poll() is not None:
                    raise AssertionError(f"verdaccio exited with {self.server.returncode}")
                time.sleep(0.1)
        raise AssertionError("verdaccio did not answer in 30 s")

    def publish(self, paths, tag):
        """Publishes the package archives `paths`, the platform packages first:
        @archfit/cli names them as optional dependencies."""
        for path in sorted(paths, key=lambda p: os.path.basename(p).startswith("archfit-cli-")):
            p = subprocess.run(["npm", "publish", "--userconfig", self.npmrc, "--tag", tag, path],
                               capture_output=True, text=True, cwd=self.dir)
            if p.returncode != 0:
                raise AssertionError(f"npm publish {os.path.basename(path)}: {p.stderr}")

    def close(self):
        self.server.kill()
        self.server.wait()
        shutil.rmtree(self.dir, True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
