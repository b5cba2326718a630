/**
 * `wrangler dev` as the bench runs it: 127.0.0.1 only, a free port and inspector port, its own state
 * folder (`--persist-to`), only the variables given (`--env-file /dev/null` keeps .dev.vars out).
 */
import { execFile, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createServer } from "node:net";
import { spawnTracked, stopTracked } from "./processes";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const WRANGLER = path.join(ROOT, "node_modules/wrangler/bin/wrangler.js");
const run = promisify(execFile);

export const wranglerEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
  CI: "1",
});

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `quorum-bench-${prefix}-`));
}

/** `wrangler d1 migrations apply DB --local --persist-to dir` with the migrations of `config`. */
export async function migrate(persistTo: string, config: string): Promise<void> {
  await run(process.execPath, [WRANGLER, "d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo, "--config", config], {
    cwd: ROOT,
    env: wranglerEnv(),
    timeout: 120_000,
  });
}

/** The SQLite file behind the local D1 database in a state folder (there is one D1 binding). */
export function d1File(persistTo: string): string {
  const dir = path.join(persistTo, "v3/d1/miniflare-D1DatabaseObject");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite") : [];
  if (files.length !== 1) throw new Error(`expected one D1 SQLite file in ${dir}, found ${files.length}: ${files.join(", ")}`);
  return path.join(dir, files[0]);
}

export interface Server {
  url: string;
  /** wrangler's devtools inspector (Chrome DevTools Protocol), for profiling the Worker */
  inspectorPort: number;
  pid: number;
  child: ChildProcess;
  persistTo: string;
  output: () => string;
  stop: () => Promise<void>;
}

export interface StartOptions {
  persistTo: string;
  vars?: Record<string, string>;
  /** the snapshot's wrangler.toml, or the bench's own Worker's */
  config: string;
  readyPath?: string;
  timeoutMs?: number;
}

/** Starts `wrangler dev` and resolves once `readyPath` answers 200. */
export async function startWrangler(opts: StartOptions): Promise<Server> {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const args = [
    WRANGLER,
    "dev",
    "--config",
    opts.config,
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    opts.persistTo,
    "--env-file",
    "/dev/null",
    "--show-interactive-dev-session=false",
    // Request lines cost CPU in wrangler's own process on a 2-core machine; warnings and errors still show.
    "--log-level",
    "warn",
    ...Object.entries(opts.vars ?? {}).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
  ];
  const child = spawnTracked(process.execPath, args, { cwd: ROOT, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  const server: Server = { url, inspectorPort, pid: child.pid!, child, persistTo: opts.persistTo, output: () => output, stop: () => stopTracked(child) };
  try {
    await waitFor200(`${url}${opts.readyPath ?? "/api/health"}`, child, opts.timeoutMs ?? 120_000);
  } catch (err) {
    await server.stop();
    throw new Error(`${(err as Error).message}\n--- wrangler output ---\n${output.slice(-4000)}`);
  }
  return server;
}

/** Polls until `url` answers 200; returns the ms it took. Throws when the process exits or time runs out. */
export async function waitFor200(url: string, child: ChildProcess, timeoutMs: number): Promise<number> {
  const started = performance.now();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before ${url} answered`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    // A server starting to listen has no event to wait on: ask again shortly.
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}
