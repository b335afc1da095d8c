#!/usr/bin/env node
// archfit from npm: runs the release executable that npm installed for this
// platform, the optional dependency @SCOPE/linux-x64 or @SCOPE/linux-arm64
// (npm installs only the one whose os and cpu match), with the arguments,
// standard streams and exit status of this command.
"use strict";

const { spawnSync } = require("node:child_process");
const path = require("node:path");

const scope = "@SCOPE";
const arches = { x64: "x64", arm64: "arm64" };

function executable() {
  const arch = arches[process.arch];
  if (process.platform !== "linux" || !arch) {
    return { error: `archfit has no release executable for ${process.platform}/${process.arch}; build it from source (see the README)` };
  }
  const name = `${scope}/linux-${arch}`;
  try {
    return { path: path.join(path.dirname(require.resolve(`${name}/package.json`)), "bin", "archfit") };
  } catch {
    // Installed for another CPU (node_modules copied from another machine,
    // or npm install --cpu=...): the package for that CPU is here instead.
    for (const other of Object.values(arches)) {
      if (other === arch) continue;
      try {
        require.resolve(`${scope}/linux-${other}/package.json`);
        return {
          error: `this node runs on linux/${arch}, and npm installed archfit for linux/${other} (${scope}/linux-${other}): run npm install on this machine, or with --cpu=${arch}`,
        };
      } catch {
        // not this one either
      }
    }
    return { error: `${name} is not installed: install archfit again without --omit=optional or --no-optional` };
  }
}

const found = executable();
if (found.error) {
  process.stderr.write(`archfit: ${found.error}\n`);
  process.exit(2);
}
const run = spawnSync(found.path, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  process.stderr.write(`archfit: cannot run ${found.path}: ${run.error.message}\n`);
  process.exit(2);
}
if (run.signal) {
  process.kill(process.pid, run.signal);
}
process.exit(run.status === null ? 2 : run.status);
