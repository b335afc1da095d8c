"""A TestCase base for running archfit's CLI against registries the tests
start: config files, per-test cache dirs, JSON output, and the checks every
test shares (no secret in any output, no corrupt cache entry)."""

import base64
import hashlib
import json
import os
import unittest

from . import harness


def to_yaml(obj, indent=0):
    """Block YAML for the config file. Strings are double-quoted (JSON is
    YAML there); integers stay plain, as archfit wants them unquoted."""
    pad = "  " * indent
    lines = []
    for key, value in obj.items():
        if isinstance(value, dict) and not value:
            lines.append(f"{pad}{key}: {{}}")
        elif isinstance(value, dict):
            lines.append(f"{pad}{key}:")
            lines.append(to_yaml(value, indent + 1))
        else:
            lines.append(f"{pad}{key}: {_scalar(value)}")
    return "\n".join(lines)


def _scalar(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    return json.dumps(str(value))


def docker_config(path, auths):
    """Writes a Docker config.json; auths maps host -> (user, password) or a
    dict written as-is (for identitytoken entries)."""
    entries = {}
    for host, cred in auths.items():
        if isinstance(cred, dict):
            entries[host] = cred
        else:
            entries[host] = {"auth": base64.b64encode(f"{cred[0]}:{cred[1]}".encode()).decode()}
    with open(path, "w") as f:
        json.dump({"auths": entries}, f)
    return path


class ArchfitCase(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.tmp = harness.temp_dir(self.id().rsplit(".", 1)[-1])
        self.cache_dir = os.path.join(self.tmp, "cache")

    def write_config(self, resolve, name="archfit.yaml"):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write("apiVersion: archfit.io/v1alpha1\nkind: ArchFit\n")
            f.write(to_yaml({"resolve": resolve}) + "\n")
        return path

    # The executable to run; a test that runs it as another user gives one
    # that user can reach.
    binary = None

    def archfit(self, args, env=None, timeout=120, input=None, preexec_fn=None, under=()):
        return harness.run_archfit(args, env=env, timeout=timeout, cwd=self.tmp, input=input,
                                   preexec_fn=preexec_fn, under=under, binary=self.binary)

    def resolve(self, images, config=None, args=(), env=None, timeout=120, cache_dir=None):
        """Runs `archfit resolve --format json`; returns (run, list of results)."""
        argv = ["resolve", "--format", "json", "--cache-dir", cache_dir or self.cache_dir]
        if config:
            argv += ["--config", config]
        run = self.archfit([*argv, *args, *images], env=env, timeout=timeout)
        try:
            results = json.loads(run.stdout)
        except ValueError:
            self.fail(f"stdout is not JSON: {run!r}")
        self.assertIsInstance(results, list, run)
        self.assertEqual(len(results), len(images), f"one result per image: {run!r}")
        for image, result in zip(images, results):
            self.assertEqual(result.get("image"), image, f"results in argument order: {run!r}")
        return run, results

    # -- shared checks ---------------------------------------------------

    def assertResolved(self, result, platforms, digest=None, canonical=None, source=None):
        self.assertNotIn("error", result, result)
        self.assertEqual(result.get("platforms"), platforms, result)
        self.assertRegex(result.get("digest", ""), r"^sha256:[0-9a-f]{64}$", result)
        if digest:
            self.assertEqual(result["digest"], digest, result)
        if canonical:
            self.assertEqual(result.get("canonical"), canonical, result)
        if source:
            self.assertEqual(result.get("source"), source, result)

    def assertFailed(self, result, *patterns):
        """The result is an error whose message matches every regex in patterns."""
        self.assertIn("error", result, f"expected an error: {result}")
        self.assertNotIn("platforms", result, result)
        for pattern in patterns:
            self.assertRegex(result["error"], pattern, result)

    def assertNamesImage(self, run, result):
        """The error names the image: in its message, or on stderr beside it."""
        image = result["image"]
        self.assertTrue(image in result.get("error", "") or image in run.stderr,
                        f"the error does not name {image}: {run!r}")

    def assertNoSecrets(self, run, secrets, cache_dir=None):
        """No secret in stdout, stderr or any cache file; secrets include their
        base64 forms as a Docker config holds them."""
        texts = {"stdout": run.stdout, "stderr": run.stderr}
        root = cache_dir or self.cache_dir
        for path in _files(root):
            with open(path, "rb") as f:
                texts[path] = f.read().decode("utf-8", "replace")
        for secret in secrets:
            for name, text in texts.items():
                self.assertNotIn(secret, text, f"a credential leaked into {name}")

    def assertCacheValid(self, cache_dir=None):
        """Every entry under the cache's v1/ parses as JSON (no half-written or
        corrupt entry), no temp file was left behind, and the cache is marked
        as archfit's (CACHEDIR.TAG, the only file beside v1/)."""
        root = cache_dir or self.cache_dir
        if os.path.isdir(os.path.join(root, "v1")):
            with open(os.path.join(root, "CACHEDIR.TAG"), "rb") as f:
                self.assertTrue(f.read().startswith(b"Signature: 8a477f597d28d172789f06886806bc55\n"))
        for path in _files(root):
            if os.path.relpath(path, root) == "CACHEDIR.TAG":
                continue
            with open(path, "rb") as f:
                data = f.read()
            try:
                json.loads(data)
            except ValueError:
                self.fail(f"cache file {path} is not JSON: {data[:200]!r}")

    def assertCacheHas(self, digest, canonical=None, cache_dir=None):
        root = os.path.join(cache_dir or self.cache_dir, "v1")
        hexd = digest.split(":", 1)[1]
        path = os.path.join(root, "digests", "sha256", hexd[:2], hexd + ".json")
        self.assertTrue(os.path.isfile(path), f"no cache entry {path}")
        if canonical:
            tag = os.path.join(root, "tags", hashlib.sha256(canonical.encode()).hexdigest() + ".json")
            self.assertTrue(os.path.isfile(tag), f"no tag cache entry {tag} for {canonical}")


def _files(root):
    for dirpath, _, names in os.walk(root):
        for name in names:
            yield os.path.join(dirpath, name)
