"""archfit as helm's post-renderer, with the real helm 3 (--post-renderer, the
wrapper in helm-plugin/) and helm 4 (the plugin installed with `helm plugin
install`), on charts written here: a Deployment, a CronJob, a hook Job, a
subchart, and a values file that changes an image.

Environment: ARCHFIT_SOURCE, ARCHFIT_BINARY, HELM3, HELM4.
"""

import functools
import http.server
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import yaml

from support import bin_dir, write

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from served_release import ServedRelease  # noqa: E402

ROOT = os.environ["ARCHFIT_SOURCE"]
ARCHFIT = os.environ["ARCHFIT_BINARY"]
HELM3 = os.environ["HELM3"]
HELM4 = os.environ["HELM4"]
EXAMPLES = os.path.join(ROOT, "examples")
AMD64 = "docker.elastic.co/elasticsearch/elasticsearch:6.8.23"   # amd64 only in the lock
MULTI = "bitnami/kubectl:1.31"                                  # amd64 and arm64

POD = """      containers:
      - name: app
        image: {{{{ .Values.{key} }}}}
"""


def chart(root):
    c = os.path.join(root, "shop")
    write(os.path.join(c, "Chart.yaml"), "apiVersion: v2\nname: shop\nversion: 0.1.0\n")
    write(os.path.join(c, "values.yaml"), f"web: {AMD64}\njob: {AMD64}\nhook: {AMD64}\n")
    write(os.path.join(c, "templates", "deployment.yaml"),
          "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}-web\nspec:\n"
          "  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n"
          "    spec:\n" + POD.format(key="web"))
    write(os.path.join(c, "templates", "cronjob.yaml"),
          "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: {{ .Release.Name }}-clean\nspec:\n"
          "  schedule: '0 * * * *'\n  jobTemplate:\n    spec:\n      template:\n        spec:\n"
          "          restartPolicy: Never\n          containers:\n          - name: app\n"
          "            image: {{ .Values.job }}\n")
    write(os.path.join(c, "templates", "hook.yaml"),
          "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{ .Release.Name }}-migrate\n"
          "  annotations:\n    helm.sh/hook: pre-install\nspec:\n  template:\n    spec:\n"
          "      restartPolicy: Never\n" + POD.format(key="hook"))
    sub = os.path.join(c, "charts", "cache")
    write(os.path.join(sub, "Chart.yaml"), "apiVersion: v2\nname: cache\nversion: 0.1.0\n")
    write(os.path.join(sub, "values.yaml"), f"image: {AMD64}\n")
    write(os.path.join(sub, "templates", "statefulset.yaml"),
          "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: {{ .Release.Name }}-cache\nspec:\n"
          "  serviceName: cache\n  selector:\n    matchLabels: {app: cache}\n  template:\n    metadata:\n"
          "      labels: {app: cache}\n    spec:\n" + POD.format(key="image"))
    write(os.path.join(root, "multi.yaml"), f"web: {MULTI}\n")
    shutil.copy(os.path.join(EXAMPLES, "archfit.lock"), root)
    shutil.copy(os.path.join(EXAMPLES, ".archfit.yaml"), root)
    return c


def serve(directory, content_type):
    """An HTTP server on loopback serving `directory`, every file as `content_type`."""
    class Handler(http.server.SimpleHTTPRequestHandler):
        def guess_type(self, path):
            return content_type

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Handler, directory=directory))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port):
    for _ in range(100):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


def documents(text):
    return [d for d in yaml.safe_load_all(text) if d]


def pod_spec(doc):
    spec = doc["spec"]
    if doc["kind"] == "CronJob":
        spec = spec["jobTemplate"]["spec"]
    return spec["template"]["spec"]


class HelmTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="helm-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.chart = chart(self.dir)
        self.home = os.path.join(self.dir, "home")
        os.makedirs(self.home)
        bindir = bin_dir(os.path.join(self.dir, "bin"), archfit=ARCHFIT)
        self.env = dict(os.environ, HOME=self.home, PATH=bindir + os.pathsep + os.environ["PATH"],
                        XDG_CONFIG_HOME=os.path.join(self.home, ".config"),
                        XDG_DATA_HOME=os.path.join(self.home, ".local", "share"),
                        XDG_CACHE_HOME=os.path.join(self.home, ".cache"),
                        ARCHFIT_CACHE_DIR=os.path.join(self.home, "archfit-cache"),
                        ARCHFIT_OFFLINE="1")
        self.env.pop("XDG_STATE_HOME", None)
        self.env.pop("ARCHFIT_POST_RENDER_LOG", None)

    def helm(self, helm, *args, check=True):
        p = subprocess.run([helm, *args], cwd=self.dir, env=self.env, capture_output=True, text=True)
        if check:
            self.assertEqual(p.returncode, 0, p.stderr)
        return p

    def install_plugin(self):
        p = self.helm(HELM4, "plugin", "install", ROOT)
        self.assertIn("archfit", self.helm(HELM4, "plugin", "list").stdout)
        return p

    def rendered(self, helm, *extra):
        plain = self.helm(helm, "template", "r", "shop", *extra).stdout
        if helm == HELM3:
            post = self.helm(helm, "template", "r", "shop", *extra, "--post-renderer",
                             os.path.join(ROOT, "helm-plugin", "archfit-post-render")).stdout
        else:
            self.install_plugin()
            post = self.helm(helm, "template", "r", "shop", *extra, "--post-renderer", "archfit").stdout
        return plain, post

    def check_fixed(self, plain, post, kinds):
        """Every workload of `kinds` in `post` carries the affinity, and `post` is `plain` fixed."""
        fixed = subprocess.run([ARCHFIT, "fix", "--offline", "-"], input=plain, cwd=self.dir, env=self.env,
                               capture_output=True, text=True)
        self.assertEqual(fixed.returncode, 0, fixed.stderr)
        got = documents(post)
        want = documents(fixed.stdout)
        if "Job" not in kinds:
            # helm 3 prints hooks beside the post-rendered stream, as rendered.
            hooks = [d for d in documents(plain) if "helm.sh/hook" in d["metadata"].get("annotations", {})]
            self.assertTrue(hooks)
            want = [d for d in want if "helm.sh/hook" not in d["metadata"].get("annotations", {})] + hooks
            self.assertEqual(sorted(map(str, got)), sorted(map(str, want)))
        else:
            self.assertEqual(got, want)
        seen = []
        for doc in got:
            if "helm.sh/hook" in doc["metadata"].get("annotations", {}) and "Job" not in kinds:
                continue
            if doc["kind"] in ("Deployment", "CronJob", "Job", "StatefulSet"):
                seen.append(doc["kind"])
                terms = pod_spec(doc)["affinity"]["nodeAffinity"][
                    "requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
                self.assertIn({"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64"]},
                              terms[0]["matchExpressions"])
        self.assertEqual(sorted(seen), sorted(kinds))

    def test_helm3_post_renderer_fixes_and_keeps_source_lines(self):
        plain, post = self.rendered(HELM3)
        # helm 3 does not post-render hooks: the Job is printed as rendered.
        self.check_fixed(plain, post, ["Deployment", "CronJob", "StatefulSet"])
        self.assertEqual(re.findall(r"(?m)^# Source: .*$", post), re.findall(r"(?m)^# Source: .*$", plain))
        self.assertIn("# Source: shop/charts/cache/templates/statefulset.yaml", post)

    def test_helm4_plugin_fixes_hooks_too(self):
        plain, post = self.rendered(HELM4)
        self.check_fixed(plain, post, ["Deployment", "CronJob", "Job", "StatefulSet"])
        self.assertIn("# Source: shop/templates/hook.yaml", post)

    # -- the plugin installs the release ----------------------------------------------------------
    def plugin_checkout(self):
        """What a checkout holds for the plugin: plugin.yaml, helm-plugin/, scripts/, project.conf."""
        src = os.path.join(self.dir, "checkout")
        for part in ("helm-plugin", "scripts"):
            shutil.copytree(os.path.join(ROOT, part), os.path.join(src, part),
                            ignore=shutil.ignore_patterns("bin"))
        for part in ("plugin.yaml", "project.conf"):
            shutil.copy(os.path.join(ROOT, part), src)
        return src

    def served_release(self):
        release = ServedRelease.of(ARCHFIT)
        self.addCleanup(release.close)
        # No archfit on PATH: only what the plugin installs.
        self.env["PATH"] = os.environ["PATH"]
        self.env.update(ARCHFIT_INSTALL_VERSION=release.version, **release.env)
        self.assertIsNone(shutil.which("archfit", path=self.env["PATH"]))
        return release

    def test_helm4_plugin_install_puts_the_checked_release_in_its_bin(self):
        release = self.served_release()
        plugin = self.plugin_checkout()
        self.helm(HELM4, "plugin", "install", plugin)
        with open(os.path.join(plugin, "helm-plugin", "bin", "archfit"), "rb") as f:
            self.assertEqual(f.read(), release.exe)
        plain = self.helm(HELM4, "template", "r", "shop").stdout
        post = self.helm(HELM4, "template", "r", "shop", "--post-renderer", "archfit").stdout
        self.check_fixed(plain, post, ["Deployment", "CronJob", "Job", "StatefulSet"])

    def test_a_checksum_mismatch_fails_the_plugin_install_and_leaves_nothing(self):
        release = self.served_release()
        release.publish(sums=f"{'1' * 64}  {release.archive}\n")
        plugin = self.plugin_checkout()
        p = self.helm(HELM4, "plugin", "install", plugin, check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("checksum mismatch", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(plugin, "helm-plugin", "bin")))
        # helm keeps the link to a directory it installed from; with no executable, the
        # post-renderer stops helm and says where archfit comes from.
        post = self.helm(HELM4, "template", "r", "shop", "--post-renderer", "archfit", check=False)
        self.assertNotEqual(post.returncode, 0)
        log = os.path.join(self.home, ".local", "state", "archfit", "post-render.log")
        with open(log) as f:
            self.assertIn("cannot find the archfit executable", f.read())

    def test_a_checkout_that_is_not_a_release_installs_the_plugin_alone(self):
        p = self.install_plugin()
        self.assertIn("is not a release, so no executable is installed", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(ROOT, "helm-plugin", "bin")))

    # -- helm's own install paths -------------------------------------------------------------------
    def plugin_archives(self):
        """The release's two plugin archives, made by the release's own code, with the
        executable under test for amd64, served on loopback as a gzip (helm 3 reads the
        content type); no archfit on PATH."""
        out = os.path.join(self.dir, "dist")
        os.makedirs(out)
        license_file = write(os.path.join(self.dir, "LICENSE"), "Apache License\n")
        subprocess.run(["bash", "-c", "set -euo pipefail; source scripts/lib/common.sh; "
                        "source scripts/lib/identity.sh; source scripts/lib/release/package.sh; "
                        "source scripts/lib/release/helm_plugin.sh; make_helm_plugins \"$@\"",
                        "make", ROOT, "9.9.9", license_file, out, os.path.join(self.dir, "stage"),
                        "amd64=" + ARCHFIT], cwd=ROOT, check=True,
                       env=dict(os.environ, SOURCE_DATE_EPOCH="1700000000"))
        self.env["PATH"] = os.environ["PATH"]
        self.assertIsNone(shutil.which("archfit", path=self.env["PATH"]))
        server = serve(out, "application/gzip")
        self.addCleanup(server.shutdown)
        url = f"http://127.0.0.1:{server.server_address[1]}"
        return out, url

    def test_helm4_installs_the_plugin_archive_from_a_path_and_an_address(self):
        out, url = self.plugin_archives()
        plain = self.helm(HELM4, "template", "r", "shop").stdout
        for source in (os.path.join(out, "archfit-9.9.9.tgz"), url + "/archfit-9.9.9.tgz"):
            with self.subTest(source=source):
                p = self.helm(HELM4, "plugin", "install", source, "--verify=false")
                self.assertRegex(self.helm(HELM4, "plugin", "list").stdout, r"(?m)^archfit\s+9\.9\.9\s")
                self.assertIn("archfit ", p.stderr)  # the hook ran the packaged executable
                post = self.helm(HELM4, "template", "r", "shop", "--post-renderer", "archfit").stdout
                self.check_fixed(plain, post, ["Deployment", "CronJob", "Job", "StatefulSet"])
                self.helm(HELM4, "plugin", "uninstall", "archfit")

    def test_helm3_installs_its_plugin_archive_from_an_address(self):
        _, url = self.plugin_archives()
        self.helm(HELM3, "plugin", "install", url + "/archfit-9.9.9-helm3.tgz")
        plugins = self.helm(HELM3, "env", "HELM_PLUGINS").stdout.strip()
        wrapper = os.path.join(plugins, "archfit", "helm-plugin", "archfit-post-render")
        plain = self.helm(HELM3, "template", "r", "shop").stdout
        post = self.helm(HELM3, "template", "r", "shop", "--post-renderer", wrapper).stdout
        self.check_fixed(plain, post, ["Deployment", "CronJob", "StatefulSet"])
        # `helm archfit` is the post-renderer over stdin.
        piped = subprocess.run([HELM3, "archfit", "--offline"], input=plain, cwd=self.dir, env=self.env,
                               capture_output=True, text=True)
        self.assertEqual(piped.returncode, 0, piped.stderr)
        self.check_fixed(plain, piped.stdout, ["Deployment", "CronJob", "Job", "StatefulSet"])

    def test_helm4_installs_from_the_repository_address_at_a_release_tag(self):
        release = self.served_release()
        checkout = self.plugin_checkout()
        git = ["git", "-C", checkout, "-c", "user.name=t", "-c", "user.email=t@example.com"]
        subprocess.run(["git", "init", "-q", checkout], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-qm", "release"], check=True)
        subprocess.run(git + ["tag", "v9.9.9"], check=True)
        port = free_port()
        daemon = subprocess.Popen(["git", "daemon", "--export-all", "--reuseaddr", "--listen=127.0.0.1",
                                   f"--port={port}", f"--base-path={self.dir}", self.dir],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(daemon.wait)
        self.addCleanup(daemon.kill)
        wait_for_port(port)
        self.helm(HELM4, "plugin", "install", f"git://127.0.0.1:{port}/checkout", "--version", "v9.9.9",
                  "--verify=false")
        plain = self.helm(HELM4, "template", "r", "shop").stdout
        post = self.helm(HELM4, "template", "r", "shop", "--post-renderer", "archfit").stdout
        self.check_fixed(plain, post, ["Deployment", "CronJob", "Job", "StatefulSet"])

    def test_a_values_file_that_changes_an_image_changes_the_placement(self):
        for helm in (HELM3, HELM4):
            plain, post = self.rendered(helm, "--values", "multi.yaml")
            web = [d for d in documents(post) if d["kind"] == "Deployment"][0]
            spec = pod_spec(web)
            # A multi-arch image: no affinity, the arm64 toleration instead.
            self.assertNotIn("affinity", spec)
            self.assertIn({"key": "kubernetes.io/arch", "operator": "Equal", "value": "arm64",
                           "effect": "NoSchedule"}, spec["tolerations"])

    def test_lint_mode_passes_the_stream_through_or_fails(self):
        plain = self.helm(HELM3, "template", "r", "shop", "--values", "multi.yaml",
                          "--set", "job=" + MULTI, "--set", "cache.image=" + MULTI).stdout
        wrapper = os.path.join(ROOT, "helm-plugin", "archfit-post-render")
        ok = self.helm(HELM3, "template", "r", "shop", "--values", "multi.yaml", "--set", "job=" + MULTI,
                       "--set", "cache.image=" + MULTI, "--post-renderer", wrapper,
                       "--post-renderer-args", "--lint", "--post-renderer-args", "--fail-on=error")
        self.assertEqual(ok.stdout, plain)  # warnings only: passed through, byte for byte
        bad = self.helm(HELM3, "template", "r", "shop", "--post-renderer", wrapper,
                        "--post-renderer-args", "--lint", check=False)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("missing-arch-affinity", bad.stderr)
        self.assertIn("shop/templates/deployment.yaml", bad.stderr)

    def test_a_failure_stops_helm_with_a_message_a_person_can_act_on(self):
        self.install_plugin()
        p = self.helm(HELM4, "template", "r", "shop", "--set", "web=registry.invalid/app:1",
                      "--post-renderer", "archfit", check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('plugin "archfit" exited with error', p.stderr)  # all helm 4 shows...
        log = os.path.join(self.home, ".local", "state", "archfit", "post-render.log")
        text = open(log).read()                                        # ...the log says what to do
        self.assertIn('cannot resolve "registry.invalid/app:1"', text)
        self.assertIn("archfit lock --set registry.invalid/app:1=PLATFORMS", text)
        self.assertIn("shop/templates/deployment.yaml", text)
        # helm 3 shows stderr itself.
        p3 = self.helm(HELM3, "template", "r", "shop", "--set", "web=registry.invalid/app:1",
                       "--post-renderer", os.path.join(ROOT, "helm-plugin", "archfit-post-render"), check=False)
        self.assertNotEqual(p3.returncode, 0)
        self.assertIn("archfit lock --set registry.invalid/app:1=PLATFORMS", p3.stderr)

    def test_an_image_missing_from_the_lock_fails_helm_4_without_any_setting(self):
        # helm 4 hides the plugin's stderr: a warning would never be seen, so the default fails.
        self.install_plugin()
        config = os.path.join(self.dir, ".archfit.yaml")
        with open(config, "w") as f:
            f.write("clusterPlatforms: [linux/amd64, linux/arm64]\n")
        p = self.helm(HELM4, "template", "r", "shop", "--set", "web=registry.invalid/app:1",
                      "--post-renderer", "archfit", check=False)
        self.assertNotEqual(p.returncode, 0, p.stdout)
        log = os.path.join(self.home, ".local", "state", "archfit", "post-render.log")
        self.assertIn("an unattended run (post-render)", open(log).read())
        # Said otherwise in the configuration: a warning, and helm goes on.
        with open(config, "a") as f:
            f.write("resolve:\n  onUnresolved: warn\n")
        p = self.helm(HELM4, "template", "r", "shop", "--set", "web=registry.invalid/app:1",
                      "--post-renderer", "archfit", check=False)
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_never_empty_output(self):
        empty = subprocess.run([ARCHFIT, "post-render", "--offline"], input="", cwd=self.dir, env=self.env,
                               capture_output=True, text=True)
        self.assertEqual(empty.returncode, 0, empty.stderr)
        self.assertTrue(empty.stdout.strip())
        self.assertEqual(documents(empty.stdout), [])


if __name__ == "__main__":
    unittest.main()
