"""scripts/install against a release mirror served over HTTP on loopback.

The release served is made here from the executable under test (the archive,
SHA256SUMS and its signature, under vX.Y.Z/, exactly as scripts/release lays
them out and the release workflow signs them, with a throwaway key);
scripts/release's own output is checked by tests/release. Every failure must
leave the target directory as it was: no executable, no partial download.
"""

import hashlib
import io
import os
import subprocess
import sys
import shutil
import tarfile
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from served_release import ServedRelease, archive_bytes, signer  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
INSTALL = os.path.join(TOP, "scripts", "install")
ARCHFIT = os.environ["ARCHFIT_BINARY"]


def archive_of(exe):
    return archive_bytes({"archfit": (exe, 0o755)})


class Install(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        said = subprocess.run([ARCHFIT, "version"], capture_output=True, text=True, check=True)
        cls.version = said.stdout.split()[1]
        cls.root = tempfile.mkdtemp(prefix="archfit-install-test-")
        with open(ARCHFIT, "rb") as f:
            cls.exe = f.read()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root)

    def setUp(self):
        self.release = ServedRelease(self.exe, self.version)
        self.addCleanup(self.release.close)
        self.url = self.release.url
        self.target = tempfile.mkdtemp(dir=self.root, prefix="bin ")

    def publish(self, exe=None, sums=None, signed_by="release"):
        return self.release.publish(exe, sums, signed_by)

    def install(self, *args, env=None, version=None):
        full_env = {"PATH": os.environ["PATH"], **self.release.env}
        full_env.update(env or {})
        argv = [INSTALL, "--version", self.version if version is None else version, "--dir", self.target, *args]
        return subprocess.run(argv, capture_output=True, text=True, env=full_env, timeout=120)

    def assertNothingInstalled(self, run, *, had=None):
        self.assertEqual(sorted(os.listdir(self.target)), ["archfit"] if had else [], run)
        if had:
            with open(os.path.join(self.target, "archfit"), "rb") as f:
                self.assertEqual(f.read(), had, "the installed executable is untouched")
        self.assertEqual(len(run.stderr.strip().splitlines()), 1, f"one clear error: {run!r}")

    def test_installs_the_checked_executable(self):
        run = self.install()
        self.assertEqual(run.returncode, 0, run)
        installed = os.path.join(self.target, "archfit")
        self.assertEqual(os.listdir(self.target), ["archfit"], "nothing else is left")
        with open(installed, "rb") as f:
            self.assertEqual(f.read(), self.exe)
        self.assertTrue(os.access(installed, os.X_OK))
        said = subprocess.run([installed, "version"], capture_output=True, text=True)
        self.assertEqual(said.stdout.strip(), f"archfit {self.version}")
        # Again over an installed one: replaced by one rename.
        self.assertEqual(self.install().returncode, 0)

    def test_a_checksum_mismatch_installs_nothing(self):
        self.publish(sums=f"{'1' * 64}  archfit_{self.version}_linux_amd64.tar.gz\n")
        run = self.install()
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("checksum mismatch", run.stderr)
        self.assertNothingInstalled(run)

    def test_a_tampered_archive_leaves_the_installed_one(self):
        with open(os.path.join(self.target, "archfit"), "wb") as f:
            f.write(b"#!/bin/sh\necho old\n")
        digest = self.publish()
        self.publish(exe=self.exe + b"tampered", sums=f"{digest}  archfit_{self.version}_linux_amd64.tar.gz\n")
        run = self.install()
        self.assertEqual(run.returncode, 1, run)
        self.assertNothingInstalled(run, had=b"#!/bin/sh\necho old\n")

    def test_a_missing_checksum_line_or_download_installs_nothing(self):
        self.publish(sums=f"{'0' * 64}  archfit_{self.version}_linux_arm64.tar.gz\n")
        run = self.install()
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("has no checksum for", run.stderr)
        self.assertNothingInstalled(run)
        self.publish()
        self.release.remove_archive()
        run = self.install()
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("cannot download", run.stderr)
        self.assertNothingInstalled(run)
        run = self.install(env={"ARCHFIT_RELEASE_BASE_URL": "http://127.0.0.1:9/none"})
        self.assertEqual(run.returncode, 1, run)

    def test_an_executable_of_another_version_is_refused(self):
        fake = b"#!/bin/sh\necho archfit 9.9.9\n"
        self.publish(exe=fake)
        run = self.install()
        self.assertEqual(run.returncode, 1, run)
        self.assertIn('says "archfit 9.9.9"', run.stderr)
        self.assertNothingInstalled(run)

    def test_an_oversized_download_installs_nothing(self):
        # A SHA256SUMS of 2 MiB is no release's: refused at its cap, whether
        # or not the server says its length first.
        line = f"{'0' * 64}  archfit_{self.version}_linux_arm64.tar.gz\n"
        for chunked in (False, True):
            self.release.chunked = chunked
            self.publish(sums=line * (2 * 1024 * 1024 // len(line)))
            run = self.install()
            self.assertEqual(run.returncode, 1, run)
            self.assertIn("cannot download", run.stderr)
            self.assertNothingInstalled(run)

    def test_an_archived_link_is_not_installed(self):
        # A checksummed archive whose archfit is a symbolic link to a file
        # outside would install that file (and chmod it): refused.
        outside = os.path.join(self.root, f"outside-{self.id()}")
        with open(outside, "wb") as f:
            f.write(b"#!/bin/sh\necho archfit " + self.version.encode() + b"\n")
        os.chmod(outside, 0o600)
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w:gz") as tar:
            info = tarfile.TarInfo("archfit")
            info.type, info.linkname = tarfile.SYMTYPE, outside
            tar.addfile(info)
        data = out.getvalue()
        self.release.put(data, f"{hashlib.sha256(data).hexdigest()}  {self.release.archive}\n")
        run = self.install()
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("is not a regular file", run.stderr)
        self.assertNothingInstalled(run)
        self.assertEqual(os.stat(outside).st_mode & 0o777, 0o600, "what it named is untouched")

    def test_a_kept_archive_is_checked_again_before_it_is_used(self):
        keep = os.path.join(self.root, f"keep-{self.id()}")
        run = self.install("--keep", keep)
        self.assertEqual(run.returncode, 0, run)
        kept = os.path.join(keep, self.release.archive)
        self.assertTrue(os.path.isfile(kept), "the checked archive is kept")
        # The next install uses it: the server no longer has the archive.
        self.release.remove_archive()
        os.unlink(os.path.join(self.target, "archfit"))
        run = self.install("--keep", keep)
        self.assertEqual(run.returncode, 0, run)
        self.assertIn("matches SHA256SUMS", run.stderr)
        with open(os.path.join(self.target, "archfit"), "rb") as f:
            self.assertEqual(f.read(), self.exe)
        # A kept archive that no longer matches (a poisoned cache) is not
        # used: downloaded again when the server has it...
        digest = self.publish()
        with open(kept, "wb") as f:
            f.write(archive_of(b"#!/bin/sh\necho archfit " + self.version.encode() + b"\n"))
        run = self.install("--keep", keep)
        self.assertEqual(run.returncode, 0, run)
        self.assertIn("does not match SHA256SUMS; downloading it again", run.stderr)
        with open(kept, "rb") as f:
            self.assertEqual(hashlib.sha256(f.read()).hexdigest(), digest, "replaced by the good one")
        # ...and nothing is installed when it has not.
        with open(kept, "wb") as f:
            f.write(b"poisoned")
        self.release.remove_archive()
        run = self.install("--keep", keep)
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("cannot download", run.stderr)
        with open(os.path.join(self.target, "archfit"), "rb") as f:
            self.assertEqual(f.read(), self.exe, "the installed executable is untouched")

    def test_a_directory_made_for_a_failed_install_is_removed(self):
        self.publish(sums=f"{'1' * 64}  archfit_{self.version}_linux_amd64.tar.gz\n")
        self.target = os.path.join(self.target, "new", "bin")
        run = self.install()
        self.assertEqual(run.returncode, 1, run)
        self.assertFalse(os.path.exists(self.target), "the directory it made is gone")

    def test_other_platforms_are_told_to_build_from_source(self):
        shim = os.path.join(self.root, f"uname-{self.id()}")
        for system, machine in (("Darwin", "arm64"), ("Linux", "s390x"), ("MINGW64_NT-10.0", "x86_64")):
            os.makedirs(shim, exist_ok=True)
            with open(os.path.join(shim, "uname"), "w") as f:
                f.write(f'#!/bin/sh\ncase "$1" in -s) echo {system};; -m) echo {machine};; esac\n')
            os.chmod(os.path.join(shim, "uname"), 0o755)
            run = self.install(env={"PATH": f"{shim}:{os.environ['PATH']}"})
            self.assertEqual(run.returncode, 3, run)
            self.assertIn(f"no release executable for {system}/{machine}", run.stderr)
            self.assertIn("build archfit from source", run.stderr)
            self.assertNothingInstalled(run)

    def test_hostile_values_are_refused_or_stay_operands(self):
        for version in ("1.2.3; touch /tmp/pwned", "--help", "../../etc", "1.2", "vv1.2.3", "V1.2.3", ""):
            run = self.install(version=version)
            self.assertEqual(run.returncode, 1, (version, run))
            self.assertIn("is not a release version", run.stderr)
        for url in ("file:///etc", "-o/tmp/x http://127.0.0.1/", "http://a b/", "ftp://x/"):
            run = self.install(env={"ARCHFIT_RELEASE_BASE_URL": url})
            self.assertEqual(run.returncode, 1, (url, run))
            self.assertIn("is not an http(s) URL", run.stderr)
            self.assertNothingInstalled(run)
        # A directory named like an option is a directory.
        self.target = os.path.join(self.root, "-rf")
        run = subprocess.run([INSTALL, "--version", self.version, "--dir", "-rf"],
                             cwd=self.root, capture_output=True, text=True,
                             env={"PATH": os.environ["PATH"], **self.release.env})
        self.assertEqual(run.returncode, 0, run)
        self.assertEqual(os.listdir(self.target), ["archfit"])

    # The signature: nothing of SHA256SUMS is believed before it verifies.

    def test_a_release_without_a_signature_installs_nothing(self):
        self.publish(signed_by=None)
        run = self.install()
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("cannot download", run.stderr)
        self.assertIn("SHA256SUMS.asc, the signature of SHA256SUMS", run.stderr)
        self.assertNothingInstalled(run)

    def test_a_mirror_that_replaced_the_archive_and_re_signed_installs_nothing(self):
        # A mirror controls the archive, SHA256SUMS and its signature, but not
        # the key the installer trusts: its own key's signature is refused...
        with open(os.path.join(self.target, "archfit"), "wb") as f:
            f.write(b"#!/bin/sh\necho old\n")
        evil = b"#!/bin/sh\necho archfit " + self.version.encode() + b"\n"
        self.publish(exe=evil, signed_by="mirror")
        run = self.install()
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("does not verify against", run.stderr)
        self.assertNothingInstalled(run, had=b"#!/bin/sh\necho old\n")
        # ...and so is a SHA256SUMS changed under the release's true signature.
        self.publish()
        evil_archive = archive_of(evil)
        with open(os.path.join(self.release.dir, self.release.archive), "wb") as f:
            f.write(evil_archive)
        with open(os.path.join(self.release.dir, "SHA256SUMS"), "w") as f:
            f.write(f"{hashlib.sha256(evil_archive).hexdigest()}  {self.release.archive}\n")
        run = self.install()
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("does not verify against", run.stderr)
        self.assertNothingInstalled(run, had=b"#!/bin/sh\necho old\n")

    def test_the_built_in_key_is_trusted_unless_another_is_given(self):
        # Without ARCHFIT_RELEASE_KEY, the project's key (not the test's) is
        # the only one trusted; --key names another, armored or binary.
        env = {"ARCHFIT_RELEASE_KEY": ""}
        run = self.install(env=env)
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("does not verify against the project's key", run.stderr)
        self.assertNothingInstalled(run)
        run = self.install("--key", self.release.key, env=env)
        self.assertEqual(run.returncode, 0, run)
        self.assertIn("signed", run.stderr)
        binary = os.path.join(self.root, f"key-{self.id()}.gpg")
        with open(self.release.key, "rb") as armored, open(binary, "wb") as f:
            f.write(subprocess.run(["gpg", "--dearmor"], stdin=armored, capture_output=True, check=True).stdout)
        self.assertEqual(self.install("--key", binary, env=env).returncode, 0)
        run = self.install("--key", os.path.join(self.root, "no-such-key"), env=env)
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("is not a file", run.stderr)

    def test_the_installer_needs_gpgv_and_says_so(self):
        shim = os.path.join(self.root, f"path-{self.id()}")
        os.makedirs(shim)
        for tool in ("bash", "sed", "head", "uname", "mkdir", "curl", "cat"):
            os.symlink(shutil.which(tool), os.path.join(shim, tool))
        run = self.install(env={"PATH": shim})
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("gpgv checks the release's signature and is not installed", run.stderr)
        self.assertNothingInstalled(run)

    def test_any_release_file_is_downloaded_checked_as_the_executable_is(self):
        plugin = b"a helm plugin archive\n" * 1000
        name = f"archfit-{self.version}-helm3.tgz"
        with open(os.path.join(self.release.dir, name), "wb") as f:
            f.write(plugin)
        sums = f"{hashlib.sha256(plugin).hexdigest()}  {name}\n"
        self.release.write_sums(sums)
        run = self.install("--file", name)
        self.assertEqual(run.returncode, 0, run)
        self.assertEqual(os.listdir(self.target), [name], "the file, not the executable")
        with open(os.path.join(self.target, name), "rb") as f:
            self.assertEqual(f.read(), plugin)
        os.unlink(os.path.join(self.target, name))
        # A file changed under the signed SHA256SUMS, a file it does not list,
        # and names that are not a release file's are refused.
        with open(os.path.join(self.release.dir, name), "ab") as f:
            f.write(b"tampered")
        run = self.install("--file", name)
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("checksum mismatch", run.stderr)
        self.assertNothingInstalled(run)
        run = self.install("--file", "archfit-unlisted.tgz")
        self.assertIn("has no checksum for archfit-unlisted.tgz", run.stderr)
        self.assertNothingInstalled(run)
        for hostile in ("../SHA256SUMS", "-rf", "a/b.tgz", "", ".hidden"):
            run = self.install("--file", hostile)
            self.assertEqual(run.returncode, 1, (hostile, run))
            self.assertIn("is not the name of a release file", run.stderr)
            self.assertNothingInstalled(run)

    def test_several_files_follow_one_file_option(self):
        names = [f"archfit-{self.version}-helm3.tgz", f"archfit-{self.version}.tgz", "archfit.krew.yaml"]
        sums = ""
        for n, name in enumerate(names):
            data = f"release file {n}\n".encode() * 100
            with open(os.path.join(self.release.dir, name), "wb") as f:
                f.write(data)
            sums += f"{hashlib.sha256(data).hexdigest()}  {name}\n"
        self.release.write_sums(sums)
        run = self.install("--file", *names[:2], "--file", names[2])
        self.assertEqual(run.returncode, 0, run)
        self.assertEqual(sorted(os.listdir(self.target)), sorted(names))
        for name in names:
            os.unlink(os.path.join(self.target, name))
        run = self.install("--file")
        self.assertEqual(run.returncode, 1, run)
        self.assertIn("--file needs a release file's name", run.stderr)
        self.assertNothingInstalled(run)

    # The installer is one file: what the release publishes as install.sh.

    def test_the_installer_alone_takes_a_mirror_root_and_either_spelling_of_the_version(self):
        alone = os.path.join(self.root, f"alone-{self.id()}")
        os.makedirs(alone)
        shutil.copy(INSTALL, os.path.join(alone, "install.sh"))
        for version, url in ((self.version, self.url), ("v" + self.version, self.url + "/")):
            os.unlink(os.path.join(self.target, "archfit")) if os.path.exists(
                os.path.join(self.target, "archfit")) else None
            run = subprocess.run(["bash", "install.sh", "--version", version, "--dir", self.target,
                                  "--base-url", url, "--key", self.release.key],
                                 cwd=alone, capture_output=True, text=True, env={"PATH": os.environ["PATH"]})
            self.assertEqual(run.returncode, 0, run)
            self.assertEqual(os.listdir(self.target), ["archfit"])
        self.assertEqual(os.listdir(alone), ["install.sh"], "it needs nothing beside it")
        help_text = subprocess.run(["bash", os.path.join(alone, "install.sh"), "--help"],
                                   capture_output=True, text=True)
        self.assertEqual(help_text.returncode, 0)
        self.assertIn("--base-url", help_text.stdout)
        self.assertIn("Exit status", help_text.stdout)
        self.assertNotIn("set -euo", help_text.stdout)


if __name__ == "__main__":
    sys.exit(unittest.main())
