/**
 * The first minutes of a fresh clone: the lockfile carries every platform's native packages (so `npm ci` on a Mac
 * or Windows gets workerd's and the bundlers' binaries, and an install here never rewrites it), and `npm start`
 * (scripts/start.mjs) says what it applied once and ends with the address to open, leaving the clone unchanged.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, ROOT } from "../../scripts/lib/wrangler-dev";

interface LockEntry {
  optionalDependencies?: Record<string, string>;
}

/** Where Node would find `name` from the package at `from`: its own node_modules, then each folder above. */
function resolveInLock(packages: Record<string, LockEntry>, from: string, name: string): string | null {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ""}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
    const cut = base.lastIndexOf("/node_modules/");
    base = cut < 0 ? "" : base.slice(0, cut);
  }
}

describe("the lockfile", () => {
  const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };

  it("holds every optional (per-platform) package its packages ask for", () => {
    const missing: string[] = [];
    let optional = 0;
    for (const [from, entry] of Object.entries(lock.packages))
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        optional++;
        if (!resolveInLock(lock.packages, from, name)) missing.push(`${from || "(root)"} → ${name}`);
      }
    expect(missing).toEqual([]);
    // workerd's five platform builds at least, so the check has something to check
    expect(optional).toBeGreaterThanOrEqual(5);
    for (const platform of ["darwin-arm64", "darwin-64", "linux-64", "linux-arm64", "windows-64"])
      expect(resolveInLock(lock.packages, "node_modules/workerd", `@cloudflare/workerd-${platform}`)).not.toBeNull();
  });
});

describe("npm start", () => {
  let child: ChildProcess | undefined;
  let persistTo: string | undefined;

  afterAll(async () => {
    if (child?.pid && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      process.kill(-child.pid, "SIGTERM");
      await exited;
    }
    if (persistTo) await rm(persistTo, { recursive: true, force: true });
  });

  it("ends with the address to open, lists the migrations once and leaves the clone as it was", {
    timeout: 180_000,
  }, async () => {
    const status = () => execFileSync("git", ["status", "--porcelain"], { cwd: ROOT, encoding: "utf8" });
    const before = status();
    persistTo = await mkdtemp(path.join(tmpdir(), "quorum-start-"));
    const [port, inspector] = [await freePort(), await freePort()];
    child = spawn(
      process.execPath,
      ["scripts/start.mjs", "--inspector-port", String(inspector), "--env-file", "/dev/null"],
      {
        cwd: ROOT,
        detached: true,
        env: {
          ...process.env,
          PATH: `${path.join(ROOT, "node_modules/.bin")}${path.delimiter}${process.env.PATH}`,
          PORT: String(port),
          PERSIST_TO: persistTo,
          NO_COLOR: "1",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let printed = "";
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start wasn't ready in 150 s:\n${printed}`)), 150_000);
      const read = (chunk: Buffer) => {
        printed += chunk.toString();
        if (printed.includes("Quorum is ready")) {
          clearTimeout(timer);
          resolve();
        }
      };
      child!.stdout!.on("data", read);
      child!.stderr!.on("data", read);
      child!.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${code}) before it was ready:\n${printed}`));
      });
    });
    await ready;

    const lines = printed.trimEnd().split("\n");
    expect(lines.at(-1)).toBe(`Quorum is ready: open http://localhost:${port} (Ctrl+C stops it)`);
    const count = readdirSync(path.join(ROOT, "migrations")).filter((f) => f.endsWith(".sql")).length;
    expect(lines.filter((l) => l.startsWith("Applied "))).toEqual([
      expect.stringMatching(new RegExp(`^Applied ${count} migration\\(s\\) to the local database: 0000_init, `)),
    ]);
    expect(printed).not.toMatch(/EBADENGINE|┌|⛅️/);

    const health = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(10_000) });
    expect(health.status).toBe(200);
    expect(status()).toBe(before);
  });
});
