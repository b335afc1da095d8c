#!/usr/bin/env node
// The command of the `language: node` pre-commit hooks (archfit-fix-npm,
// archfit-lint-npm): pre-commit installs this repository's package.json and,
// at a release, the release's npm package @archfit/cli beside it (the hooks'
// additional_dependencies, set by scripts/prepare-release). This runs that
// package's archfit with the hook's arguments; at a revision that is not a
// release there is none, and it says what to do instead of failing later.
"use strict";

const { spawnSync } = require("node:child_process");
const path = require("node:path");

const cli = "@archfit/cli";

let launcher;
try {
  launcher = path.join(path.dirname(require.resolve(`${cli}/package.json`)), "bin", "archfit.js");
} catch {
  process.stderr.write(
    `archfit: the -npm hooks run the npm package ${cli} of the release that the hooks' rev ` +
      "names, and this revision of the hooks is not a release, so none was installed. In " +
      ".pre-commit-config.yaml, set the archfit repository's rev: to a release tag (vX.Y.Z; " +
      "`pre-commit autoupdate` picks the latest), or use the archfit-fix-build hooks, which " +
      "build archfit from any revision.\n",
  );
  process.exit(2);
}
const run = spawnSync(process.execPath, [launcher, ...process.argv.slice(2)], { stdio: "inherit" });
if (run.error) {
  process.stderr.write(`archfit: cannot run ${launcher}: ${run.error.message}\n`);
  process.exit(2);
}
if (run.signal) {
  process.kill(process.pid, run.signal);
}
process.exit(run.status === null ? 2 : run.status);
