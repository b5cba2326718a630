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

if (stale) {
  console.log("Installing dependencies (first run, or package-lock.json changed)…");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, ["install", "--no-audit", "--no-fund"], { stdio: "inherit" });
  if (result.status !== 0) {
    console.error("npm install failed: see the messages above. Quorum needs the npm registry for its first install.");
    process.exit(result.status ?? 1);
  }
}
