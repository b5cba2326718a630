/**
 * Starts the Worker as a person would run it (`wrangler dev`, static assets included) on ports of its own,
 * with its own local D1/Durable Object state in a temp folder, and only the variables the test passes:
 * `--env-file /dev/null` keeps the developer's .dev.vars (and .env) out.
 */
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const ROOT = path.resolve(import.meta.dirname, "../..");
const WRANGLER = path.join(ROOT, "node_modules/wrangler/bin/wrangler.js");
const run = promisify(execFile);

/** Environment for wrangler: no metrics, no offline cf lookups, no colours, no prompts. */
const wranglerEnv = () => ({ ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", NO_COLOR: "1", FORCE_COLOR: "0", CI: "1" });

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Builds the web app into web/dist exactly as `npm run build` does. */
export async function buildWeb(): Promise<string> {
  const vite = path.join(ROOT, "node_modules/vite/bin/vite.js");
  const { stdout } = await run(process.execPath, [vite, "build", "--config", "web/vite.config.ts"], { cwd: ROOT, env: wranglerEnv(), timeout: 120_000 });
  return stdout;
}

export interface WranglerDev {
  url: string;
  /** everything wrangler printed so far, for failure messages */
  output: () => string;
  close: () => Promise<void>;
}

/** Applies the D1 migrations to a fresh state folder, then starts `wrangler dev` and waits for /api/health. */
export async function startWranglerDev(vars: Record<string, string>, timeoutMs = 90_000): Promise<WranglerDev> {
  const persistTo = await mkdtemp(path.join(tmpdir(), "quorum-e2e-state-"));
  await run(process.execPath, [WRANGLER, "d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], {
    cwd: ROOT,
    env: wranglerEnv(),
    timeout: 60_000,
  });
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const args = [
    WRANGLER,
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    persistTo,
    "--env-file",
    "/dev/null",
    "--show-interactive-dev-session=false",
    "--log-level",
    "info",
    ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
  ];
  // Its own process group, so closing it stops workerd too (by this pid, never by name).
  const child = spawn(process.execPath, args, { cwd: ROOT, env: wranglerEnv(), detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    await stop(child);
    await rm(persistTo, { recursive: true, force: true });
  };
  try {
    // With APP_TOKEN set, /api/health wants it too.
    await waitForHealth(url, child, timeoutMs, vars.APP_TOKEN ? { Authorization: `Bearer ${vars.APP_TOKEN}` } : {});
  } catch (err) {
    await close();
    throw new Error(`${(err as Error).message}\n--- wrangler output ---\n${output.slice(-4000)}`);
  }
  return { url, output: () => output, close };
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number, headers: Record<string, string>) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once("exit", () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error("wrangler dev exited before it was ready");
    try {
      const res = await fetch(`${url}/api/health`, { headers, signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    // Waiting for a server to start listening has no event to wait on: retry the request briefly.
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not answer /api/health within ${timeoutMs} ms`);
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
