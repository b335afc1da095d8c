"""A newcomer's paths from the release alone, without a clone (run through
tests/release/run.sh, after test_release.py).

The release directory is served on loopback as a mirror root (vX.Y.Z/ under
it), by a server that says application/x-tar for .tgz files as GitHub's
release downloads may. What the user starts from is an empty directory with
install.sh and the plugins archive in it, each downloaded and checked by the
installer. Every path ends in a working `archfit lint` or `fix`; each
refuses a tampered file whose SHA256SUMS was re-signed by another key. The
seconds each path takes are printed at the end.

What the release workflow puts elsewhere than the release page comes from
the release directory too: the npm packages are published to a local npm
registry (verdaccio), the image is pushed to a local docker-registry, and the
action is the release commit as GitHub fetches an action pinned by its SHA
(git archive, export-subst filling .git_archival.txt).

Environment: ARCHFIT_DIST (the release), ARCHFIT_VERSION_EXPECTED,
ARCHFIT_RELEASE_KEY (the public key it is signed with), ARCHFIT_RELEASE_CLONE
(the clone of the release commit), KUBECTL, HELM3, HELM4, VERDACCIO.
"""

import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from lib.registry import Registry  # noqa: E402
from npm_registry import NpmRegistry  # noqa: E402
from runner import Runner  # noqa: E402
from served_release import signer  # noqa: E402

DIST = os.environ["ARCHFIT_DIST"]
VERSION = os.environ["ARCHFIT_VERSION_EXPECTED"]
KEY = os.environ["ARCHFIT_RELEASE_KEY"]
KUBECTL = os.environ["KUBECTL"]
HELM3 = os.environ["HELM3"]
HELM4 = os.environ["HELM4"]
CLONE = os.environ["ARCHFIT_RELEASE_CLONE"]
VERDACCIO = os.environ["VERDACCIO"]
ARCH = {"x86_64": "amd64", "aarch64": "arm64"}[os.uname().machine]
PLUGINS = f"archfit-plugins-{VERSION}"
SECONDS = {}


class _Handler(http.server.SimpleHTTPRequestHandler):
    def guess_type(self, path):
        # As GitHub's release downloads may say: a .tgz is application/x-tar.
        return "application/x-tar" if path.endswith(".tgz") else super().guess_type(path)

    def log_message(self, *args):
        pass


def serve(root):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=root))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def stop(server):
    server.shutdown()
    server.server_close()


def run(args, **kwargs):
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    kwargs.setdefault("timeout", 300)
    return subprocess.run(args, **kwargs)


def mirror_of(root, tamper=None):
    """A mirror root holding the release's files under v<VERSION>/. With
    `tamper`, that file is changed, SHA256SUMS says the changed file's
    checksum, and it is signed again, by a key that is not the release's."""
    release = os.path.join(root, f"v{VERSION}")
    os.makedirs(release)
    for name in os.listdir(DIST):
        if os.path.isfile(os.path.join(DIST, name)):
            shutil.copy(os.path.join(DIST, name), release)
    if tamper:
        with open(os.path.join(release, tamper), "ab") as f:
            f.write(b"\0tampered")
        with open(os.path.join(release, tamper), "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        sums = os.path.join(release, "SHA256SUMS")
        with open(sums) as f:
            lines = [f"{digest}  {tamper}" if line.split()[1] == tamper else line for line in f.read().splitlines()]
        with open(sums, "w") as f:
            f.write("\n".join(lines) + "\n")
        signer("nobody").sign(sums)
        prov = os.path.join(release, tamper + ".prov")
        if os.path.exists(prov):
            os.unlink(prov)
    return root


class FromRelease(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="archfit-from-release-")
        cls.server, cls.url = serve(mirror_of(os.path.join(cls.tmp, "mirror")))
        # What the user has: install.sh, fetched from the release page, and
        # nothing else. The plugins archive comes through the installer.
        cls.home = os.path.join(cls.tmp, "home")
        os.makedirs(cls.home)
        shutil.copy(os.path.join(DIST, "install.sh"), cls.home)
        cls.env = {"PATH": "/usr/bin:/bin", "HOME": cls.home}
        got = cls.install(["--file", f"{PLUGINS}.tar.gz"], cls.home)
        assert got.returncode == 0, got
        with tarfile.open(os.path.join(cls.home, f"{PLUGINS}.tar.gz")) as tar:
            tar.extractall(cls.home)
        cls.plugins = os.path.join(cls.home, PLUGINS)
        cls.examples = os.path.join(cls.plugins, "examples")

    @classmethod
    def tearDownClass(cls):
        stop(cls.server)
        shutil.rmtree(cls.tmp, ignore_errors=True)
        print("\nseconds from the release files to a working archfit:", file=sys.stderr)
        for path, seconds in sorted(SECONDS.items()):
            print(f"  {path:<28} {seconds:6.2f}", file=sys.stderr)

    @classmethod
    def install(cls, args, target, url=None):
        return run(["bash", os.path.join(cls.home, "install.sh"), "--version", f"v{VERSION}", "--dir", target,
                    "--base-url", url or cls.url, "--key", KEY, *args], env=cls.env, cwd=cls.home)

    def timed(self, path, start):
        SECONDS[path] = time.monotonic() - start

    def assertFixes(self, archfit, cwd=None, runner=()):
        fixed = run([*runner, archfit, "fix", "--diff", "--", self.examples], env=self.env, cwd=cwd or self.home)
        self.assertEqual(fixed.returncode, 1, fixed)  # 1: there are changes
        self.assertIn("kubernetes.io/arch", fixed.stdout)
        linted = run([*runner, archfit, "lint", "--offline", "--", self.examples], env=self.env, cwd=cwd or self.home)
        self.assertEqual(linted.returncode, 1, linted)  # the examples have error findings
        self.assertIn("missing-arch-affinity", linted.stdout)

    def tampered(self, name):
        """A mirror where `name` was changed and SHA256SUMS re-signed by nobody's key."""
        root = tempfile.mkdtemp(dir=self.tmp)
        server, url = serve(mirror_of(root, tamper=name))
        self.addCleanup(stop, server)
        return url

    # -- the paths ----------------------------------------------------------------------------
    def test_install_sh(self):
        start = time.monotonic()
        bin_dir = os.path.join(self.tmp, "bin")
        got = self.install([], bin_dir)
        self.assertEqual(got.returncode, 0, got)
        self.timed("install.sh", start)
        self.assertFixes(os.path.join(bin_dir, "archfit"))
        archive = f"archfit_{VERSION}_linux_{ARCH}.tar.gz"
        refused = self.install([], os.path.join(self.tmp, "bin-tampered"), url=self.tampered(archive))
        self.assertEqual(refused.returncode, 1, refused)
        self.assertIn("does not verify against", refused.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "bin-tampered")))

    def test_the_tarball(self):
        start = time.monotonic()
        archive = f"archfit_{VERSION}_linux_{ARCH}.tar.gz"
        target = os.path.join(self.tmp, "tarball")
        self.assertEqual(self.install(["--file", archive], target).returncode, 0)
        with tarfile.open(os.path.join(target, archive)) as tar:
            tar.extractall(target)
        self.timed("tarball", start)
        with open(os.path.join(target, "README.md")) as f:
            self.assertIn("./archfit fix --diff examples/", f.read())
        self.assertFixes(os.path.join(target, "archfit"), cwd=self.plugins)
        refused = self.install(["--file", archive], os.path.join(self.tmp, "t2"), url=self.tampered(archive))
        self.assertIn("does not verify against", refused.stderr)

    def test_the_deb(self):
        start = time.monotonic()
        deb = f"archfit_{VERSION.replace('-', '+')}_{ARCH}.deb"
        target = os.path.join(self.tmp, "deb")
        self.assertEqual(self.install(["--file", deb], target).returncode, 0)
        installed = run(["dpkg", "-i", os.path.join(target, deb)])
        self.addCleanup(run, ["dpkg", "-r", "archfit"])
        self.assertEqual(installed.returncode, 0, installed)
        self.timed(".deb", start)
        self.assertFixes("/usr/bin/archfit")
        refused = self.install(["--file", deb], os.path.join(self.tmp, "d2"), url=self.tampered(deb))
        self.assertIn("does not verify against", refused.stderr)

    def test_the_kustomize_plugin_of_the_plugins_archive(self):
        # The plugin installs the release it belongs to (the archive's VERSION)
        # with the installer beside it, on first use.
        start = time.monotonic()
        overlay = os.path.join(self.tmp, "overlay")
        shutil.copytree(os.path.join(self.plugins, "kustomize-plugin", "examples", "multiarch"), overlay)
        env = dict(self.env, KUSTOMIZE_PLUGIN_HOME=os.path.join(self.plugins, "kustomize-plugin"),
                   ARCHFIT_RELEASE_BASE_URL=self.url, ARCHFIT_RELEASE_KEY=KEY,
                   XDG_CACHE_HOME=os.path.join(self.tmp, "xdg"))
        built = run([KUBECTL, "kustomize", "--enable-alpha-plugins", overlay], env=env)
        self.assertEqual(built.returncode, 0, built)
        self.timed("kustomize plugin", start)
        with open(os.path.join(overlay, "expected.yaml")) as f:
            self.assertEqual(built.stdout, f.read())
        installed = os.path.join(self.tmp, "xdg", "archfit", "releases", VERSION, "archfit")
        self.assertTrue(os.path.isfile(installed))
        env["XDG_CACHE_HOME"] = os.path.join(self.tmp, "xdg-2")
        env["ARCHFIT_RELEASE_BASE_URL"] = self.tampered(f"archfit_{VERSION}_linux_{ARCH}.tar.gz")
        refused = run([KUBECTL, "kustomize", "--enable-alpha-plugins", overlay], env=env)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn("does not verify against", refused.stderr)

    def test_kpt_on_the_examples_with_their_configuration_inside(self):
        start = time.monotonic()
        bin_dir = os.path.join(self.tmp, "kpt-bin")
        self.assertEqual(self.install([], bin_dir).returncode, 0)
        package = os.path.join(self.tmp, "kpt-examples")
        shutil.copytree(self.examples, package)
        env = dict(self.env, PATH=bin_dir + ":/usr/bin:/bin")
        evaluated = run(["kpt", "fn", "eval", "--exec", "archfit krm --offline", "."], cwd=package, env=env)
        self.assertEqual(evaluated.returncode, 0, evaluated.stderr)
        self.timed("kpt fn eval --exec", start)
        with open(os.path.join(package, "search.yaml")) as f:
            self.assertIn("kubernetes.io/arch", f.read())

    def helm_env(self, name):
        home = os.path.join(self.tmp, name)
        return dict(self.env, HELM_DATA_HOME=os.path.join(home, "data"), HELM_CONFIG_HOME=os.path.join(home, "config"),
                    HELM_CACHE_HOME=os.path.join(home, "cache"))

    def chart(self):
        chart = tempfile.mkdtemp(dir=self.tmp, prefix="chart-")
        os.makedirs(os.path.join(chart, "templates"))
        with open(os.path.join(chart, "Chart.yaml"), "w") as f:
            f.write("apiVersion: v2\nname: web\nversion: 0.1.0\n")
        shutil.copy(os.path.join(self.examples, "search.yaml"), os.path.join(chart, "templates"))
        shutil.copy(os.path.join(self.examples, "archfit.lock"), chart)
        shutil.copy(os.path.join(self.examples, ".archfit.yaml"), chart)
        return chart

    def test_the_helm_4_plugin_archive_verified_by_helm(self):
        start = time.monotonic()
        env = self.helm_env("helm4")
        keyring = os.path.join(self.tmp, "release.gpg")
        with open(KEY, "rb") as armored, open(keyring, "wb") as f:
            f.write(run(["gpg", "--dearmor"], stdin=armored, text=False).stdout)
        # helm 4 verifies by default: the .prov beside the archive, against the key.
        installed = run([HELM4, "plugin", "install", f"{self.url}/v{VERSION}/archfit-{VERSION}.tgz",
                         "--keyring", keyring], env=env)
        self.assertEqual(installed.returncode, 0, installed)
        self.assertIn("post-render.log", installed.stdout + installed.stderr, "the install says where the log is")
        chart = self.chart()
        rendered = run([HELM4, "template", "web", chart, "--post-renderer", "archfit",
                        "--post-renderer-args=--offline"], env=env, cwd=chart)
        self.assertEqual(rendered.returncode, 0, rendered)
        self.timed("helm 4 plugin", start)
        self.assertIn("kubernetes.io/arch", rendered.stdout)
        refused = run([HELM4, "plugin", "install", f"{self.tampered(f'archfit-{VERSION}.tgz')}/v{VERSION}/archfit-{VERSION}.tgz",
                       "--keyring", keyring], env=self.helm_env("helm4-tampered"))
        self.assertNotEqual(refused.returncode, 0, refused)

    def test_the_helm_3_plugin_archive_through_the_installer(self):
        # helm 3 installs from an address only when the server says gzip; the
        # installer fetches the archive checked, and helm 3 installs the directory.
        start = time.monotonic()
        env = self.helm_env("helm3")
        name = f"archfit-{VERSION}-helm3.tgz"
        target = os.path.join(self.tmp, "helm3-download")
        self.assertEqual(self.install(["--file", name], target).returncode, 0)
        plugin = os.path.join(self.tmp, "helm3-plugin", "archfit")
        os.makedirs(plugin)
        with tarfile.open(os.path.join(target, name)) as tar:
            tar.extractall(plugin)
        installed = run([HELM3, "plugin", "install", plugin], env=env)
        self.assertEqual(installed.returncode, 0, installed)
        plugins = run([HELM3, "env", "HELM_PLUGINS"], env=env).stdout.strip()
        chart = self.chart()
        rendered = run([HELM3, "template", "web", chart, "--post-renderer",
                        os.path.join(plugins, "archfit", "helm-plugin", "archfit-post-render"),
                        "--post-renderer-args", "--offline"], env=env, cwd=chart)
        self.assertEqual(rendered.returncode, 0, rendered)
        self.timed("helm 3 plugin", start)
        self.assertIn("kubernetes.io/arch", rendered.stdout)
        refused = self.install(["--file", name], os.path.join(self.tmp, "h3-2"), url=self.tampered(name))
        self.assertIn("does not verify against", refused.stderr)


    def test_npm_from_a_registry_the_release_packages_were_published_to(self):
        # The release workflow publishes the release's npm packages, checked
        # as every other file; here to a registry on loopback.
        cpu = {"amd64": "x64", "arm64": "arm64"}
        names = [f"archfit-cli-{VERSION}.tgz"] + [f"archfit-linux-{cpu[a]}-{VERSION}.tgz" for a in cpu]
        target = os.path.join(self.tmp, "npm-download")
        got = self.install([arg for name in names for arg in ("--file", name)], target)
        self.assertEqual(got.returncode, 0, got)
        with NpmRegistry(VERDACCIO) as registry:
            registry.publish([os.path.join(target, n) for n in names], tag="latest")
            start = time.monotonic()
            prefix = os.path.join(self.tmp, "npm-global")
            env = dict(self.env, NPM_CONFIG_REGISTRY=registry.url, NPM_CONFIG_CACHE=os.path.join(self.tmp, "npm-cache"),
                       NPM_CONFIG_UPDATE_NOTIFIER="false", NPM_CONFIG_FUND="false", NPM_CONFIG_AUDIT="false")
            installed = run(["npm", "install", "-g", "--prefix", prefix, f"@archfit/cli@{VERSION}"], env=env)
            self.assertEqual(installed.returncode, 0, installed)
            self.timed("npm", start)
            self.assertFixes(os.path.join(prefix, "bin", "archfit"))
        refused = self.install(["--file", names[0]], os.path.join(self.tmp, "npm-2"), url=self.tampered(names[0]))
        self.assertIn("does not verify against", refused.stderr)

    def test_the_image_pulled_by_the_digest_the_signed_sums_name(self):
        # The release workflow pushes the image to the project's registry;
        # here a docker-registry on loopback holds what it pushes.
        with Registry() as registry:
            registry.push(os.path.join(DIST, "archfit-image"), VERSION, f"archfit:{VERSION}")
            start = time.monotonic()
            target = os.path.join(self.tmp, "image")
            got = self.install(["--file", "archfit-image-index.json"], target)
            self.assertEqual(got.returncode, 0, got)
            with open(os.path.join(target, "archfit-image-index.json"), "rb") as f:
                digest = "sha256:" + hashlib.sha256(f.read()).hexdigest()
            layout = os.path.join(self.tmp, "pulled")
            # By digest: what the registry gives is checked against it. This
            # machine's platform is the one skopeo copies.
            pulled = run(["skopeo", "copy", "--quiet", "--src-tls-verify=false",
                          f"docker://{registry.host}/archfit@{digest}", f"oci:{layout}:archfit"])
            self.assertEqual(pulled.returncode, 0, pulled)
            bundle = os.path.join(self.tmp, "bundle")
            unpacked = run(["umoci", "unpack", "--rootless", "--image", f"{layout}:archfit", bundle])
            self.assertEqual(unpacked.returncode, 0, unpacked)
            with open(os.path.join(bundle, "config.json")) as f:
                args = json.load(f)["process"]["args"]
            self.assertEqual(args, ["/usr/local/bin/archfit", "krm"])
            # As a container runtime runs the entrypoint: kpt with the image's own executable.
            package = os.path.join(self.tmp, "image-examples")
            shutil.copytree(self.examples, package)
            command = " ".join([os.path.join(bundle, "rootfs") + args[0], *args[1:], "--offline"])
            evaluated = run(["kpt", "fn", "eval", "--exec", command, "."], cwd=package, env=self.env)
            self.assertEqual(evaluated.returncode, 0, evaluated.stderr)
            self.timed("image", start)
            with open(os.path.join(package, "search.yaml")) as f:
                self.assertIn("kubernetes.io/arch", f.read())
        refused = self.install(["--file", "archfit-image-index.json"], os.path.join(self.tmp, "image-2"),
                               url=self.tampered("archfit-image-index.json"))
        self.assertIn("does not verify against", refused.stderr)

    def action_at_release_commit(self):
        """The action as GitHub fetches it when a workflow pins it by the
        release commit's SHA: that commit's tarball."""
        sha = run(["git", "-C", CLONE, "rev-parse", "HEAD"]).stdout.strip()
        action = tempfile.mkdtemp(dir=self.tmp, prefix="action-")
        archive = subprocess.run(["git", "-C", CLONE, "archive", "--format=tar", sha], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", action], input=archive.stdout, check=True)
        return sha, action

    def workspace(self):
        workspace = tempfile.mkdtemp(dir=self.tmp, prefix="workspace-")
        for name in os.listdir(self.examples):
            shutil.copy(os.path.join(self.examples, name), workspace)
        run(["git", "init", "-q", workspace])
        return workspace

    def test_the_action_pinned_by_the_release_commit(self):
        sha, action = self.action_at_release_commit()
        env = dict(os.environ, ARCHFIT_RELEASE_BASE_URL=self.url, ARCHFIT_RELEASE_KEY=KEY)
        start = time.monotonic()
        runner = Runner(self.workspace(), action, base_env=env, action_ref=sha)
        self.addCleanup(runner.close)
        result = runner.run_action({})
        runner.post()
        self.timed("action pinned by commit", start)
        self.assertIn("Install archfit", runner.ran)
        self.assertNotIn("Build archfit", runner.ran)
        self.assertEqual(result.steps["prepare"]["outputs"]["version"], VERSION)
        self.assertEqual(result.outputs["exit-code"], "1", runner.stdout)  # the examples' findings
        installed = os.path.join(result.steps["prepare"]["outputs"]["bin-dir"], "archfit")
        with tarfile.open(os.path.join(DIST, f"archfit_{VERSION}_linux_{ARCH}.tar.gz")) as tar:
            self.assertEqual(open(installed, "rb").read(), tar.extractfile("archfit").read())
        tampered = Runner(self.workspace(), action, action_ref=sha, base_env=dict(
            env, ARCHFIT_RELEASE_BASE_URL=self.tampered(f"archfit_{VERSION}_linux_{ARCH}.tar.gz")))
        self.addCleanup(tampered.close)
        refused = tampered.run_action({})
        self.assertEqual(refused.status, "failure")
        self.assertIn("does not verify against", tampered.stdout + "".join(tampered.stderr_of.values()))
        self.assertNotIn("Run archfit", tampered.ran)


if __name__ == "__main__":
    unittest.main()
