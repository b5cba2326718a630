// Runs before every npm script a user may start from a fresh clone (start, test, deploy, import, stub,
// bench), on whatever Node the machine has (20 is enough): installs the dependencies when node_modules is
// missing or older than the lockfile.
// After it, npm puts node_modules/.bin first on PATH, so the scripts run on the pinned Node 24.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

const stamp = "node_modules/.package-lock.json";
const stale =
  !existsSync(stamp) ||
  !existsSync("node_modules/.bin/node") ||
  statSync("package-lock.json").mtimeMs > statSync(stamp).mtimeMs;

// On a Node older than the tools need, npm warns (EBADENGINE) about every package that needs the newer one,
// although none of them will ever run on it: everything after this install runs on the pinned Node 24. Those
// warnings are kept back then; errors still print.
const [major, minor] = process.versions.node.split(".").map(Number);
const bootstrapOnly = major < 22 || (major === 22 && minor < 12);

if (stale) {
  console.log(
    bootstrapOnly
      ? `Installing dependencies, with Node 24 for Quorum to run on (this is Node ${process.versions.node})…`
      : "Installing dependencies (first run, or package-lock.json changed)…",
  );
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const quiet = bootstrapOnly ? ["--loglevel=error"] : [];
  const result = spawnSync(npm, ["install", "--no-audit", "--no-fund", ...quiet], { stdio: "inherit" });
  if (result.status !== 0) {
    console.error("npm install failed: see the messages above. Quorum needs the npm registry for its first install.");
    process.exit(result.status ?? 1);
  }
  if (bootstrapOnly) console.log("Dependencies installed.");
}
