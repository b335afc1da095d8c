"""Checks a release made by scripts/release (run through tests/release/run.sh).

ARCHFIT_DIST and ARCHFIT_DIST_AGAIN are two releases of one commit made in
two clones; ARCHFIT_VERSION_EXPECTED is the version they must carry.
"""

import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "integration"))
from lib import catalog  # noqa: E402
from lib.registry import Registry  # noqa: E402

DIST = os.environ["ARCHFIT_DIST"]
AGAIN = os.environ["ARCHFIT_DIST_AGAIN"]
VERSION = os.environ["ARCHFIT_VERSION_EXPECTED"]
ARCHS = ("amd64", "arm64")
LAYOUT = os.path.join(DIST, "archfit-image")
RUNNER = {"amd64": [], "arm64": ["qemu-aarch64-static"]}
MACHINE = {"amd64": "Advanced Micro Devices X86-64", "arm64": "AArch64"}

DEPLOYMENT = """apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - name: web
          image: registry.example.com/web:1
"""


def yaml_of_items(resource_list):
    """The items of a ResourceList written as above, as a plain manifest."""
    items = resource_list.split("items:\n", 1)[1]
    return "\n".join(line[2:] for line in items.splitlines()) + "\n"


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run(args, **kwargs):
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    kwargs.setdefault("timeout", 300)
    return subprocess.run(args, **kwargs)


def archive(arch):
    return os.path.join(DIST, f"archfit_{VERSION}_linux_{arch}.tar.gz")


def deb(arch):
    return os.path.join(DIST, f"archfit_{VERSION.replace('-', '+')}_{arch}.deb")


class Release(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="archfit-release-test-")
        cls.exe = {}
        for arch in ARCHS:
            target = os.path.join(cls.tmp, arch)
            os.makedirs(target)
            with tarfile.open(archive(arch)) as tar:
                tar.extractall(target)
            cls.exe[arch] = os.path.join(target, "archfit")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    # -- the files ----------------------------------------------------------------------------
    def test_two_clones_give_the_same_bytes(self):
        # Everything but the signatures, which carry the time they were made.
        with open(os.path.join(DIST, "SHA256SUMS")) as a, \
                open(os.path.join(AGAIN, "SHA256SUMS")) as b:
            self.assertEqual(a.read(), b.read())
        for name in ("index.json",):
            self.assertEqual(sha256(os.path.join(LAYOUT, name)),
                             sha256(os.path.join(AGAIN, "archfit-image", name)))

    def test_checksums_name_every_file(self):
        with open(os.path.join(DIST, "SHA256SUMS")) as f:
            listed = dict(reversed(line.split(maxsplit=1)) for line in f.read().splitlines())
        listed = {name.strip(): digest for name, digest in listed.items()}
        files = {n for n in os.listdir(DIST) if os.path.isfile(os.path.join(DIST, n))}
        image = {os.path.relpath(os.path.join(d, n), DIST) for d, _, ns in os.walk(LAYOUT) for n in ns}
        signatures = {"SHA256SUMS.asc", f"archfit-{VERSION}.tgz.prov", f"archfit-{VERSION}-helm3.tgz.prov"}
        self.assertLessEqual(signatures, files, "the release is signed")
        self.assertEqual(set(listed), (files | image) - {"SHA256SUMS"} - signatures)
        for name, digest in listed.items():
            self.assertEqual(sha256(os.path.join(DIST, name)), digest, name)
        cpus = {"amd64": "x64", "arm64": "arm64"}
        self.assertEqual(
            set(listed) - image, {os.path.basename(archive(a)) for a in ARCHS}
            | {os.path.basename(deb(a)) for a in ARCHS} | {"archfit.krew.yaml", "install.sh"}
            | {f"archfit-{VERSION}.tgz", f"archfit-{VERSION}-helm3.tgz", f"archfit-cli-{VERSION}.tgz"}
            | {f"archfit-plugins-{VERSION}.tar.gz", "archfit-image-index.json"}
            | {f"archfit-linux-{cpus[a]}-{VERSION}.tgz" for a in ARCHS})
        self.assertIn("archfit-image/index.json", listed, "the image is covered too")
        # The index as a release file is the image's index itself: its
        # checksum is the digest a user pulls the image by.
        with open(os.path.join(LAYOUT, "index.json")) as f:
            [tagged] = [m for m in json.load(f)["manifests"]
                        if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == VERSION]
        self.assertEqual(tagged["digest"], "sha256:" + listed["archfit-image-index.json"])
        for d, _, names in os.walk(LAYOUT):
            for n in names:
                self.assertEqual(os.stat(os.path.join(d, n)).st_mode & 0o644, 0o644, n)

    def test_the_signatures_verify_against_the_key_the_release_was_signed_for(self):
        key = os.environ["ARCHFIT_RELEASE_KEY"]
        keyring = os.path.join(self.tmp, "key.gpg")
        with open(key, "rb") as armored, open(keyring, "wb") as f:
            f.write(run(["gpg", "--dearmor"], stdin=armored, text=False).stdout)
        home = tempfile.mkdtemp(dir=self.tmp)
        checked = run(["gpgv", "--keyring", keyring, os.path.join(DIST, "SHA256SUMS.asc"),
                       os.path.join(DIST, "SHA256SUMS")], env={"GNUPGHOME": home})
        self.assertEqual(checked.returncode, 0, checked)
        for name in (f"archfit-{VERSION}.tgz", f"archfit-{VERSION}-helm3.tgz"):
            with open(os.path.join(DIST, name + ".prov")) as f:
                prov = f.read()
            self.assertIn(f"  {name}: sha256:{sha256(os.path.join(DIST, name))}\n", prov)
            self.assertTrue(prov.startswith("-----BEGIN PGP SIGNED MESSAGE-----\n"), name)

    def test_the_installer_and_the_plugins_archive_need_no_clone(self):
        with open(os.path.join(DIST, "install.sh")) as f, \
                open(os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "install")) as g:
            self.assertEqual(f.read(), g.read(), "install.sh is scripts/install")
        top = f"archfit-plugins-{VERSION}/"
        with tarfile.open(os.path.join(DIST, f"archfit-plugins-{VERSION}.tar.gz")) as tar:
            names = set(tar.getnames())
            for needed in ("examples/.archfit.yaml", "examples/archfit.lock", "examples/web.yaml",
                           "kustomize-plugin/archfit.io/v1alpha1/archfit/ArchFit",
                           "argocd-cmp/sidecar-patch.yaml", "scripts/install", "VERSION", "README.md",
                           "LICENSE"):
                self.assertIn(top + needed, names)
            self.assertEqual(tar.extractfile(top + "VERSION").read().decode(), VERSION + "\n")
            self.assertTrue(all(n == top.rstrip("/") or n.startswith(top) for n in names))

    def test_archives_hold_the_executable_license_and_readme(self):
        for arch in ARCHS:
            with tarfile.open(archive(arch)) as tar:
                members = {m.name: m for m in tar.getmembers()}
                self.assertEqual(sorted(members), ["LICENSE", "README.md", "archfit"])
                self.assertEqual(members["archfit"].mode & 0o777, 0o755)
                self.assertTrue(all(m.uid == 0 and m.gid == 0 for m in members.values()))
                license_text = tar.extractfile("LICENSE").read().decode()
                readme = tar.extractfile("README.md").read().decode()
            # The README starts from what the archive holds, not from a clone.
            self.assertIn("./archfit fix --diff examples/", readme)
            self.assertNotIn("scripts/setup", readme)
            self.assertIn("Apache License", license_text)
            for library in ("libyaml", "openssl", "c-ares", "nghttp2", "curl"):
                self.assertIn(f"==== {library} ", license_text)
            with open(archive(arch), "rb") as f:
                header = f.read(10)
            self.assertEqual(header[4:8], b"\0\0\0\0", "gzip without a time")

    # -- the executables ----------------------------------------------------------------------
    def test_executables_are_static_and_say_the_version(self):
        for arch in ARCHS:
            exe = self.exe[arch]
            header = run(["readelf", "-h", exe]).stdout
            self.assertRegex(header, rf"Machine:\s+{re.escape(MACHINE[arch])}")
            self.assertNotIn("NEEDED", run(["readelf", "-d", exe]).stdout, arch)
            self.assertNotIn("INTERP", run(["readelf", "-l", exe]).stdout, arch)
            said = run([*RUNNER[arch], exe, "version"])
            self.assertEqual(said.stdout.strip(), f"archfit {VERSION}", said)

    def test_executables_fix_the_bundled_example_offline(self):
        examples = os.path.join(os.path.dirname(__file__), "..", "..", "examples")
        outputs = set()
        for arch in ARCHS:
            fixed = run([*RUNNER[arch], self.exe[arch], "fix", "--diff", "--", examples])
            self.assertEqual(fixed.returncode, 1, fixed)  # 1: the diff shows changes
            self.assertIn("kubernetes.io/arch", fixed.stdout)
            outputs.add(fixed.stdout)
        self.assertEqual(len(outputs), 1, "both architectures write the same edits")

    def test_both_architectures_write_the_same_bytes_over_the_corpus(self):
        corpus = os.environ["ARCHFIT_CORPUS"]
        files = sorted(os.path.join(corpus, f) for f in os.listdir(corpus) if f.endswith((".yaml", ".yml")))
        self.assertGreater(len(files), 10)
        config = os.path.join(self.tmp, "corpus.yaml")
        with open(config, "w") as f:
            f.write("clusterPlatforms: [linux/amd64, linux/arm64]\nresolve:\n  onUnresolved: warn\n"
                    "  fallbackPlatforms: [linux/amd64]\n")
        for name in files:
            outputs = {}
            for arch in ARCHS:
                with open(name) as f:
                    text = f.read()
                p = run([*RUNNER[arch], self.exe[arch], "fix", "--offline", "--config", config,
                         "--cache-dir", os.path.join(self.tmp, "cache-" + arch), "-"], input=text)
                outputs[arch] = (p.returncode, p.stdout)
            self.assertEqual(outputs["amd64"], outputs["arm64"], name)

    def test_the_helm_plugin_archives_hold_both_executables(self):
        for name, top in ((f"archfit-{VERSION}.tgz", "archfit/"), (f"archfit-{VERSION}-helm3.tgz", "")):
            with tarfile.open(os.path.join(DIST, name)) as tar:
                plugin = tar.extractfile(top + "plugin.yaml").read().decode()
                self.assertIn(f"\nversion: {VERSION}\n", plugin)
                self.assertEqual("apiVersion: v1" in plugin, top != "", name)  # helm 4's format
                for arch in ARCHS:
                    member = tar.getmember(f"{top}helm-plugin/bin/linux-{arch}/archfit")
                    self.assertEqual(member.mode & 0o777, 0o755)
                    with open(self.exe[arch], "rb") as f:
                        self.assertEqual(tar.extractfile(member).read(), f.read(), (name, arch))

    def test_the_executable_is_an_argo_cd_plugin_without_a_shell(self):
        src = os.path.join(self.tmp, "app")
        os.makedirs(src, exist_ok=True)
        with open(os.path.join(src, "web.yaml"), "w") as f:
            f.write(yaml_of_items(DEPLOYMENT))
        locked = run([self.exe["amd64"], "lock", "--set", "registry.example.com/web:1=linux/amd64"], cwd=src)
        self.assertEqual(locked.returncode, 0, locked.stderr)
        for arch in ARCHS:
            runner = [shutil.which(r) for r in RUNNER[arch]]  # the PATH below holds nothing
            p = run([*runner, self.exe[arch], "argocd", "generate", "plain"], cwd=src,
                    env={"PATH": "/nonexistent", "ARGOCD_APP_NAME": "web", "HOME": self.tmp})
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("kubernetes.io/arch", p.stdout)

    # -- the packages -------------------------------------------------------------------------
    def test_packages_have_no_lintian_errors(self):
        for arch in ARCHS:
            checked = run(["lintian", "--fail-on", "error", "--no-tag-display-limit", deb(arch)])
            self.assertEqual(checked.returncode, 0, checked)
            self.assertNotRegex(checked.stdout, r"(?m)^E: ", checked.stdout)

    def test_the_package_installs_with_dpkg_and_runs(self):
        info = run(["dpkg-deb", "--field", deb("arm64"), "Architecture"]).stdout.strip()
        self.assertEqual(info, "arm64")
        contents = run(["dpkg-deb", "--contents", deb("arm64")]).stdout
        self.assertIn("./usr/bin/archfit", contents)
        self.assertIn("root/root", contents)
        installed = run(["dpkg", "-i", deb("amd64")])
        self.addCleanup(run, ["dpkg", "-r", "archfit"])
        self.assertEqual(installed.returncode, 0, installed)
        said = run(["/usr/bin/archfit", "version"])
        self.assertEqual(said.stdout.strip(), f"archfit {VERSION}", said)
        with open(self.exe["amd64"], "rb") as f:
            self.assertEqual(sha256("/usr/bin/archfit"), hashlib.sha256(f.read()).hexdigest(),
                             "the package holds the archive's executable")

    # -- the krew manifest --------------------------------------------------------------------
    def test_the_krew_manifest_names_each_archive_and_its_checksum(self):
        with open(os.path.join(DIST, "archfit.krew.yaml")) as f:
            text = f.read()
        self.assertIn(f"version: v{VERSION}\n", text)
        for arch in ARCHS:
            name = os.path.basename(archive(arch))
            self.assertRegex(text, rf"arch: {arch}\n    uri: https://\S+/v{re.escape(VERSION)}/"
                                   rf"{re.escape(name)}\n    sha256: {sha256(archive(arch))}\n")

    # -- the image ----------------------------------------------------------------------------
    def layer_files(self, arch):
        """The image's one layer for arch, unpacked; returns its directory."""
        target = os.path.join(self.tmp, f"image-{arch}")
        if os.path.isdir(target):
            return target
        blobs = os.path.join(LAYOUT, "blobs", "sha256")
        with open(os.path.join(LAYOUT, "index.json")) as f:
            top = json.load(f)
        [entry] = [m for m in top["manifests"]
                   if m["annotations"]["org.opencontainers.image.ref.name"] == VERSION]
        self.assertEqual(sorted(m["annotations"]["org.opencontainers.image.ref.name"] for m in top["manifests"]),
                         sorted([VERSION] + [f"{VERSION}-{a}" for a in ARCHS]))
        with open(os.path.join(blobs, entry["digest"].split(":")[1])) as f:
            index = json.load(f)
        [descriptor] = [m for m in index["manifests"] if m["platform"]["architecture"] == arch]
        with open(os.path.join(blobs, descriptor["digest"].split(":")[1])) as f:
            manifest = json.load(f)
        [layer] = manifest["layers"]
        os.makedirs(target)
        with open(os.path.join(blobs, layer["digest"].split(":")[1]), "rb") as f:
            data = gzip.decompress(f.read())
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            names = tar.getnames()
            tar.extractall(target)
        self.assertIn("usr/local/bin/archfit", [n.lstrip("./") for n in names])
        return target

    def test_the_image_index_has_both_platforms_labels_and_a_krm_entrypoint(self):
        raw = run(["skopeo", "inspect", "--raw", f"oci:{LAYOUT}:{VERSION}"])
        self.assertEqual(raw.returncode, 0, raw)
        index = json.loads(raw.stdout)
        self.assertEqual(index["mediaType"], "application/vnd.oci.image.index.v1+json")
        self.assertEqual(sorted(m["platform"]["architecture"] for m in index["manifests"]),
                         sorted(ARCHS))
        for arch in ARCHS:
            config = json.loads(run(["skopeo", "inspect", "--config", "--override-arch", arch,
                                     f"oci:{LAYOUT}:{VERSION}"]).stdout)
            self.assertEqual(config["architecture"], arch)
            self.assertEqual(config["config"]["Entrypoint"], ["/usr/local/bin/archfit", "krm"])
            self.assertEqual(config["config"]["User"], "65532:65532")
            labels = config["config"]["Labels"]
            self.assertEqual(labels["org.opencontainers.image.version"], VERSION)
            self.assertTrue(labels["org.opencontainers.image.source"].startswith("https://"))
            files = self.layer_files(arch)
            with open(os.path.join(files, "etc/passwd")) as f:
                self.assertIn("nonroot:x:65532:65532:", f.read())
            self.assertGreater(os.path.getsize(os.path.join(
                files, "etc/ssl/certs/ca-certificates.crt")), 10000)
            self.assertEqual(sha256(os.path.join(files, "usr/local/bin/archfit")),
                             sha256(self.exe[arch]), "the image holds the archive's executable")

    def test_umoci_unpacks_each_platform_by_its_own_tag(self):
        for arch in ARCHS:
            bundle = os.path.join(self.tmp, f"bundle-{arch}")
            unpacked = run(["umoci", "unpack", "--rootless", "--image", f"{LAYOUT}:{VERSION}-{arch}", bundle])
            self.assertEqual(unpacked.returncode, 0, unpacked)
            self.assertEqual(sha256(os.path.join(bundle, "rootfs", "usr", "local", "bin", "archfit")),
                             sha256(self.exe[arch]))

    def test_each_image_is_a_krm_function(self):
        for arch in ARCHS:
            files = self.layer_files(arch)
            work = os.path.join(self.tmp, f"krm-{arch}")
            os.makedirs(work)
            exe = os.path.join(files, "usr/local/bin/archfit")
            locked = run([*RUNNER[arch], exe, "lock", "--set",
                          "registry.example.com/web:1=linux/amd64"], cwd=work)
            self.assertEqual(locked.returncode, 0, locked)
            # As a container runs it: the entrypoint, the ResourceList on stdin.
            out = run([*RUNNER[arch], exe, "krm", "--offline"], input=DEPLOYMENT, cwd=work,
                      env={"PATH": "/usr/bin:/bin", "HOME": work,
                           "SSL_CERT_FILE": os.path.join(files, "etc/ssl/certs/ca-certificates.crt")})
            self.assertEqual(out.returncode, 0, out)
            self.assertIn("kind: ResourceList", out.stdout)
            self.assertRegex(out.stdout, r"key: kubernetes.io/arch\n\s+operator: In\n\s+values:"
                                         r"\n\s+- amd64")

    def test_the_release_resolves_its_own_image_from_a_registry_over_tls(self):
        with Registry(tls=True) as registry:
            registry.push(LAYOUT, VERSION, f"archfit:{VERSION}")
            for arch in ARCHS:
                # c-ares reads /etc/hosts for "localhost"; the CA comes from SSL_CERT_FILE.
                image = f"localhost:{registry.host.split(':')[1]}/archfit:{VERSION}"
                resolved = run([*RUNNER[arch], self.exe[arch], "resolve", "--format", "json",
                                "--cache-dir", os.path.join(self.tmp, f"cache-{arch}"), image],
                               env={"PATH": "/usr/bin:/bin", "HOME": self.tmp,
                                    "SSL_CERT_FILE": registry.ca_file})
                self.assertEqual(resolved.returncode, 0, resolved)
                [result] = json.loads(resolved.stdout)
                self.assertEqual(sorted(result["platforms"]), ["linux/amd64", "linux/arm64"],
                                 result)

    def test_the_executable_alone_in_an_empty_root_resolves_over_tls(self):
        # Nothing but the executable and the CA file (and, for arm64, qemu): no libraries, no
        # /etc, no NSS; the registry by address, the CA from SSL_CERT_FILE.
        qemu = shutil.which("qemu-aarch64-static")
        with Registry(tls=True) as registry:
            registry.push(LAYOUT, VERSION, f"archfit:{VERSION}")
            port = registry.host.split(":")[1]
            for arch in ARCHS:
                root = os.path.join(self.tmp, f"root-{arch}")
                os.makedirs(root)
                shutil.copy(self.exe[arch], os.path.join(root, "archfit"))
                shutil.copy(registry.ca_file, os.path.join(root, "ca.pem"))
                runner = []
                if arch == "arm64":
                    shutil.copy(qemu, os.path.join(root, "qemu-aarch64-static"))
                    runner = ["/qemu-aarch64-static"]
                self.assertEqual(sorted(os.listdir(root)), sorted(["archfit", "ca.pem"] + [r[1:] for r in runner]))
                resolved = run(["/usr/sbin/chroot", root, *runner, "/archfit", "resolve", "--format", "json",
                                "--cache-dir", "/cache", f"127.0.0.1:{port}/archfit:{VERSION}"],
                               env={"HOME": "/", "SSL_CERT_FILE": "/ca.pem"})
                self.assertEqual(resolved.returncode, 0, resolved)
                [result] = json.loads(resolved.stdout)
                self.assertEqual(sorted(result["platforms"]), ["linux/amd64", "linux/arm64"], result)


if __name__ == "__main__":
    unittest.main()
