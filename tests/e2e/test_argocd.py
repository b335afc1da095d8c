"""archfit's Argo CD config management plugins: each plugin.yaml read for the
fields Argo CD's cmp-server reads, its discover command run on matching and
other sources, and its generate command (`archfit argocd generate`) run with the
environment the cmp-server gives (ARGOCD_APP_NAME, ARGOCD_APP_NAMESPACE, ARGOCD_ENV_*, KUBE_VERSION,
PARAM_*), in the source's directory, with the real helm and kubectl's kustomize.

Environment: ARCHFIT_SOURCE, ARCHFIT_BINARY, KUBECTL, HELM4.
"""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

import yaml

from support import HOSTILE, bin_dir, tree_of, write

ROOT = os.environ["ARCHFIT_SOURCE"]
CMP = os.path.join(ROOT, "argocd-cmp")
AMD64 = "docker.elastic.co/elasticsearch/elasticsearch:6.8.23"
DEPLOYMENT = (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n"
              f"  selector:\n    matchLabels: {{app: web}}\n  template:\n    metadata:\n"
              f"      labels: {{app: web}}\n    spec:\n      containers:\n      - name: app\n"
              f"        image: {AMD64}\n")


class ArgoCdTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="argocd-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        bindir = bin_dir(os.path.join(self.dir, "bin"), archfit=os.environ["ARCHFIT_BINARY"],
                         helm=os.environ["HELM4"])
        # kubectl's embedded kustomize as `kustomize build DIR`.
        write(os.path.join(bindir, "kustomize"),
              f'#!/bin/sh\n[ "$1" = build ] || exit 2\nshift\nexec {os.environ["KUBECTL"]} kustomize "$@"\n')
        os.chmod(os.path.join(bindir, "kustomize"), 0o755)
        self.env = {"PATH": bindir + os.pathsep + "/usr/bin:/bin", "HOME": self.dir,
                    "ARGOCD_APP_NAME": "shop", "ARGOCD_APP_NAMESPACE": "prod",
                    "ARGOCD_APP_REVISION": "0123abc", "KUBE_VERSION": "1.31.0",
                    "KUBE_API_VERSIONS": "v1,apps/v1", "ARCHFIT_CACHE_DIR": os.path.join(self.dir, "cache")}

    def plain(self):
        src = os.path.join(self.dir, "plain")
        write(os.path.join(src, "deploy", "web.yaml"), DEPLOYMENT)
        shutil.copy(os.path.join(ROOT, "examples", "archfit.lock"), src)
        return src

    def kustomization(self):
        src = os.path.join(self.dir, "kustomize")
        write(os.path.join(src, "web.yaml"), DEPLOYMENT)
        write(os.path.join(src, "kustomization.yaml"), "resources: [web.yaml]\nnamePrefix: prod-\n")
        shutil.copy(os.path.join(ROOT, "examples", "archfit.lock"), src)
        return src

    def chart(self):
        src = os.path.join(self.dir, "helm")
        write(os.path.join(src, "Chart.yaml"), "apiVersion: v2\nname: shop\nversion: 0.1.0\n")
        write(os.path.join(src, "values.yaml"), f"image: {AMD64}\n")
        write(os.path.join(src, "ci-values.yaml"), "image: bitnami/kubectl:1.31\n")
        write(os.path.join(src, "templates", "web.yaml"),
              DEPLOYMENT.replace("name: web\n", "name: {{ .Release.Name }}-web\n  namespace: {{ .Release.Namespace }}\n", 1)
              .replace(AMD64, "{{ .Values.image }}"))
        shutil.copy(os.path.join(ROOT, "examples", "archfit.lock"), src)
        return src

    def generate(self, kind, src, **env):
        plugin = yaml.safe_load(open(os.path.join(CMP, kind, "plugin.yaml")))
        command = plugin["spec"]["generate"]["command"] + plugin["spec"]["generate"].get("args", [])
        command[0] = os.path.basename(command[0])  # on PATH here
        return subprocess.run(command, cwd=src, env={**self.env, **env}, capture_output=True,
                              text=True, timeout=60)

    def discover(self, kind, src):
        plugin = yaml.safe_load(open(os.path.join(CMP, kind, "plugin.yaml")))
        command = plugin["spec"]["discover"]["find"]["command"]
        command[0] = os.path.basename(command[0])  # on PATH here
        p = subprocess.run(command, cwd=src, env=self.env, capture_output=True, text=True)
        return p.stdout.strip() != ""

    def test_plugin_files_have_what_argo_cd_reads(self):
        for kind in ("plain", "kustomize", "helm"):
            plugin = yaml.safe_load(open(os.path.join(CMP, kind, "plugin.yaml")))
            self.assertEqual(plugin["apiVersion"], "argoproj.io/v1alpha1")
            self.assertEqual(plugin["kind"], "ConfigManagementPlugin")
            self.assertEqual(plugin["metadata"]["name"], "archfit-" + kind)
            spec = plugin["spec"]
            self.assertIsInstance(spec["generate"]["command"], list)
            self.assertIn("find", spec["discover"])
            names = [p["name"] for p in spec["parameters"]["static"]]
            self.assertIn("mode", names)
            self.assertIn("platforms", names)
            # The commands are archfit's own: the image has no shell.
            self.assertEqual(spec["generate"]["command"][:3], ["/usr/local/bin/archfit", "argocd", "generate"])
            self.assertEqual(spec["discover"]["find"]["command"][:3], ["/usr/local/bin/archfit", "argocd", "discover"])
        patch = yaml.safe_load(open(os.path.join(CMP, "sidecar-patch.yaml")))
        pod = patch["spec"]["template"]["spec"]
        containers = pod["containers"]
        self.assertEqual(len(containers), 3)
        with open(os.path.join(ROOT, "project.conf")) as f:
            image = re.search(r"(?m)^image=(\S+)$", f.read()).group(1)
        tools = {i["name"]: i for i in pod["initContainers"]}["archfit-tools"]
        self.assertEqual(tools["command"][-1], "/archfit-tools/")
        self.assertIn("/usr/local/bin/helm", tools["command"])
        self.assertIn("/usr/local/bin/kustomize", tools["command"])
        for c in containers:
            self.assertEqual(c["command"], ["/var/run/argocd/argocd-cmp-server"])
            self.assertTrue(c["image"].startswith(image + ":"), c["image"])
            env = {e["name"]: e["value"] for e in c["env"]}
            self.assertIn("/archfit-tools", env["PATH"].split(":"))
            mounts = {m["mountPath"]: m for m in c["volumeMounts"]}
            self.assertEqual(mounts["/home/argocd/cmp-server/config/plugin.yaml"]["subPath"],
                             c["name"].removeprefix("archfit-") + ".yaml")

    def test_the_name_an_application_writes_is_the_one_the_sidecar_registers(self):
        # Argo CD registers <name>, or <name>-<version> when plugin.yaml has a version.
        docs = open(os.path.join(ROOT, "docs", "argocd.md")).read()
        written = set(re.findall(r"name: (archfit-[a-z]+)", docs))
        registered = set()
        for kind in ("plain", "kustomize", "helm"):
            plugin = yaml.safe_load(open(os.path.join(CMP, kind, "plugin.yaml")))
            version = plugin["spec"].get("version")
            registered.add(plugin["metadata"]["name"] + (f"-{version}" if version else ""))
        self.assertTrue(written, "docs/argocd.md shows an Application")
        self.assertLessEqual(written, registered)
        for name in registered:
            self.assertIn(name, docs)

    def test_discover_matches_its_kind_of_source(self):
        plain, kustomize, chart = self.plain(), self.kustomization(), self.chart()
        self.assertTrue(self.discover("plain", plain))
        self.assertTrue(self.discover("kustomize", kustomize))
        self.assertFalse(self.discover("kustomize", chart))
        self.assertTrue(self.discover("helm", chart))
        self.assertFalse(self.discover("helm", kustomize))

    def test_each_variant_prints_the_fixed_manifests(self):
        for kind, src in (("plain", self.plain()), ("kustomize", self.kustomization()), ("helm", self.chart())):
            with self.subTest(kind):
                p = self.generate(kind, src)
                self.assertEqual(p.returncode, 0, p.stderr)
                docs = [d for d in yaml.safe_load_all(p.stdout) if d]
                self.assertEqual(len(docs), 1)
                spec = docs[0]["spec"]["template"]["spec"]
                self.assertIn("affinity", spec)
                if kind == "kustomize":
                    self.assertEqual(docs[0]["metadata"]["name"], "prod-web")
                if kind == "helm":
                    self.assertEqual(docs[0]["metadata"]["name"], "shop-web")       # ARGOCD_APP_NAME
                    self.assertEqual(docs[0]["metadata"]["namespace"], "prod")      # ARGOCD_APP_NAMESPACE

    def test_plain_reads_the_sources_own_files_only(self):
        src = self.plain()
        write(os.path.join(src, ".github", "workflow.yaml"), "kind: NotAManifest\n")
        outside = write(os.path.join(self.dir, "other-app", "secret.yaml"), "kind: Secret\n")
        os.symlink(outside, os.path.join(src, "linked.yaml"))
        p = self.generate("plain", src)
        self.assertEqual(p.returncode, 0, p.stderr)
        kinds = [d["kind"] for d in yaml.safe_load_all(p.stdout) if d]
        self.assertEqual(kinds, ["Deployment"])

    def test_a_failed_or_empty_render_prints_nothing(self):
        # kustomize fails: its own message, nothing on stdout.
        src = self.kustomization()
        write(os.path.join(src, "kustomization.yaml"), "resources: [missing.yaml]\n")
        p = self.generate("kustomize", src)
        self.assertNotEqual(p.returncode, 0)
        self.assertEqual(p.stdout, "")
        self.assertIn("kustomize failed", p.stderr)
        # A chart that renders nothing: refused, since Argo CD would prune everything.
        chart = self.chart()
        shutil.rmtree(os.path.join(chart, "templates"))
        p = self.generate("helm", chart)
        self.assertNotEqual(p.returncode, 0)
        self.assertEqual(p.stdout, "")
        self.assertIn("rendered no manifests", p.stderr)

    def test_parameters_and_argocd_env_reach_archfit(self):
        chart = self.chart()
        # An amd64-only cluster (PARAM_PLATFORMS): nothing to add.
        p = self.generate("helm", chart, PARAM_PLATFORMS="linux/amd64")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("affinity", p.stdout)
        # A values file (PARAM_VALUES) with a multi-arch image: the arm64 toleration.
        p = self.generate("helm", chart, PARAM_VALUES="ci-values.yaml")
        self.assertIn("value: arm64", p.stdout)
        # lint passes the rendered stream through, and fails on an error.
        p = self.generate("helm", chart, PARAM_MODE="lint")
        self.assertNotEqual(p.returncode, 0)
        self.assertEqual(p.stdout, "")
        self.assertIn("missing-arch-affinity", p.stderr)
        # It is Argo CD that stops, whatever rendered the manifests.
        self.assertIn("archfit: post-render failed, so Argo CD stops", p.stderr)
        self.assertNotIn("helm stops", p.stderr)
        p = self.generate("kustomize", self.kustomization(), PARAM_MODE="lint")
        self.assertNotEqual(p.returncode, 0, p.stderr)
        self.assertIn("so Argo CD stops", p.stderr)
        # ARGOCD_ENV_ARCHFIT_* become ARCHFIT_*: a lock file elsewhere in the repository
        # (the chart is at helm/ in a repository checked out at self.dir).
        os.rename(os.path.join(chart, "archfit.lock"), os.path.join(self.dir, "other.lock"))
        p = self.generate("helm", chart, ARGOCD_APP_SOURCE_PATH="helm",
                          ARGOCD_ENV_ARCHFIT_LOCK="../other.lock")
        self.assertEqual(p.returncode, 0, p.stderr)

    # -- an Application is a tenant of a shared sidecar ---------------------------------------

    def test_an_application_may_set_only_the_allowed_settings(self):
        src = self.plain()
        victim = write(os.path.join(self.dir, "other-app", "deploy.yaml"), DEPLOYMENT)
        for name, value in (("ARCHFIT_POST_RENDER_LOG", victim), ("ARCHFIT_CACHE_DIR", self.dir),
                            ("ARCHFIT_OFFLINE", "false"), ("ARCHFIT_CHECK_GRAFTS", "1"),
                            ("ARCHFIT_TIMEOUT", "1h"), ("ARCHFIT_X", "1")):
            with self.subTest(name):
                p = self.generate("plain", src, **{"ARGOCD_ENV_" + name: value})
                self.assertNotEqual(p.returncode, 0)
                self.assertEqual(p.stdout, "")
                self.assertIn(f"the Application sets {name}, which an Application may not set", p.stderr)
                self.assertIn("ARCHFIT_LOCK ARCHFIT_CONFIG ARCHFIT_PLATFORMS", p.stderr)
        self.assertEqual(open(victim).read(), DEPLOYMENT)

    def test_paths_an_application_names_stay_in_its_source(self):
        chart = self.chart()
        outside = write(os.path.join(self.dir, "other-app", "archfit.lock"),
                        open(os.path.join(ROOT, "examples", "archfit.lock")).read())
        os.symlink(outside, os.path.join(chart, "linked.lock"))
        os.symlink("/dev/zero", os.path.join(chart, "zero.lock"))
        cases = [("ARGOCD_ENV_ARCHFIT_LOCK", "/dev/zero"), ("ARGOCD_ENV_ARCHFIT_LOCK", outside),
                 ("ARGOCD_ENV_ARCHFIT_LOCK", "../other-app/archfit.lock"),
                 ("ARGOCD_ENV_ARCHFIT_LOCK", "linked.lock"), ("ARGOCD_ENV_ARCHFIT_LOCK", "zero.lock"),
                 ("ARGOCD_ENV_ARCHFIT_CONFIG", "/etc/passwd"),
                 ("PARAM_VALUES", "values.yaml,../other-app/archfit.lock"),
                 ("PARAM_VALUES", "/etc/passwd")]
        for var, value in cases:
            with self.subTest(var=var, value=value):
                p = self.generate("helm", chart, **{var: value})
                self.assertNotEqual(p.returncode, 0)
                self.assertEqual(p.stdout, "")
                self.assertIn("outside the application's source", p.stderr)

    def test_configuration_is_found_only_inside_the_source(self):
        # An amd64-only configuration above the source (another checkout's, or the
        # sidecar's temporary directory) must not silence the fix.
        src = self.plain()
        write(os.path.join(self.dir, ".archfit.yaml"), "clusterPlatforms: [linux/amd64]\n")
        p = self.generate("plain", src)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("affinity", p.stdout)
        # Inside the source it applies.
        write(os.path.join(src, ".archfit.yaml"), "clusterPlatforms: [linux/amd64]\n")
        p = self.generate("plain", src)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("affinity", p.stdout)

    def test_hostile_parameters_and_settings_are_data(self):
        sources = {"helm": self.chart(), "plain": self.plain()}
        before = {k: tree_of(v) for k, v in sources.items()}
        helm_only = ("PARAM_VALUES", "ARGOCD_APP_NAME", "ARGOCD_APP_NAMESPACE")
        for value in HOSTILE:
            for var in helm_only + ("PARAM_PLATFORMS", "PARAM_MODE", "ARGOCD_ENV_ARCHFIT_PLATFORMS",
                                    "ARGOCD_ENV_ARCHFIT_LOCK", "ARGOCD_ENV_ARCHFIT_MODE"):
                kind = "helm" if var in helm_only else "plain"
                with self.subTest(var=var, value=value):
                    p = self.generate(kind, sources[kind], **{var: value})
                    if p.returncode != 0:
                        self.assertEqual(p.stdout, "")
                    for k, src in sources.items():
                        self.assertEqual(tree_of(src), before[k], f"{var}={value!r} changed {k}")
                    self.assertFalse(os.path.exists(os.path.join(self.dir, "pwned")))

if __name__ == "__main__":
    unittest.main()
