/**
 * `wrangler dev` as the browser tests and the bench run it: 127.0.0.1 unless told otherwise, a free port and inspector port,
 * its own state folder (`--persist-to`), only the variables given (`--env-file /dev/null` keeps the
 * developer's .dev.vars and .env out), in a process group of its own that is stopped by its pid, never by name.
 */
import { type ChildProcess, execFile, type SpawnOptions, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { promisify } from "node:util";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const WRANGLER = path.join(ROOT, "node_modules/wrangler/bin/wrangler.js");
const run = promisify(execFile);

/**
 * Environment for wrangler: no metrics, no offline cf lookups, no colours, no prompts, and, as `npm start`
 * runs it, no local trace collector unless X_LOCAL_OBSERVABILITY asks for one (README, Configuration).
 */
export const wranglerEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  X_LOCAL_OBSERVABILITY: process.env.X_LOCAL_OBSERVABILITY ?? "false",
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
  CI: "1",
});

/** Ports this process has handed out: the system may offer a closed one again, and two servers can't share it. */
const handedOut = new Set<number>();

/** A port nothing listens on right now, and one this process hasn't handed out before. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

/** `wrangler d1 migrations apply DB --local --persist-to dir`, with the migrations of `config` when given. */
export async function migrate(persistTo: string, config?: string): Promise<void> {
  await run(
    process.execPath,
    [
      WRANGLER,
      "d1",
      "migrations",
      "apply",
      "DB",
      "--local",
      "--persist-to",
      persistTo,
      ...(config ? ["--config", config] : []),
    ],
    {
      cwd: ROOT,
      env: wranglerEnv(),
      timeout: 120_000,
    },
  );
}

export interface DevOptions {
  persistTo: string;
  /** the address to listen on (127.0.0.1); the Worker is told it as `npm start` tells it (QUORUM_LISTEN) */
  ip?: string;
  vars?: Record<string, string>;
  /** a wrangler.toml other than the project's own */
  config?: string;
  logLevel?: "info" | "warn";
  /** the path that answers 200 once the Worker is up */
  readyPath?: string;
  /** headers for that request (the access token, when the Worker wants one) */
  readyHeaders?: Record<string, string>;
  timeoutMs?: number;
  /** starts the process in a group of its own (`detached`); the bench passes one that also tracks it */
  spawn?: (command: string, args: string[], opts: SpawnOptions) => ChildProcess;
  /** stops that process group */
  stop?: (child: ChildProcess) => Promise<void>;
}

export interface DevServer {
  url: string;
  /** wrangler's devtools inspector (Chrome DevTools Protocol), for profiling the Worker */
  inspectorPort: number;
  child: ChildProcess;
  /** the last 20,000 characters wrangler printed, for failure messages */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts `wrangler dev` and resolves once `readyPath` answers 200; on failure it is stopped again.
 * A free port is only free until someone binds it: when another process took one of ours between
 * `freePort()` and wrangler's bind ("Address already in use"), it starts again on fresh ports, twice at most.
 */
export async function launchWranglerDev(opts: DevOptions): Promise<DevServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchOnce(opts);
    } catch (err) {
      if (attempt === 3 || !/Address already in use/.test((err as Error).message)) throw err;
    }
  }
}

async function launchOnce(opts: DevOptions): Promise<DevServer> {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const args = [
    WRANGLER,
    "dev",
    ...(opts.config ? ["--config", opts.config] : []),
    "--ip",
    opts.ip ?? "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    opts.persistTo,
    "--env-file",
    "/dev/null",
    "--show-interactive-dev-session=false",
    "--log-level",
    opts.logLevel ?? "info",
    ...Object.entries({ QUORUM_LISTEN: opts.ip ?? "127.0.0.1", ...opts.vars }).flatMap(([k, v]) => [
      "--var",
      `${k}:${v}`,
    ]),
  ];
  const start = opts.spawn ?? ((command, args, spawnOpts) => spawn(command, args, { ...spawnOpts, detached: true }));
  const child = start(process.execPath, args, { cwd: ROOT, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = () => (opts.stop ?? stopGroup)(child);
  try {
    await waitFor200(`${url}${opts.readyPath ?? "/api/health"}`, child, opts.timeoutMs ?? 120_000, opts.readyHeaders);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n--- wrangler output ---\n${output.slice(-4000)}`);
  }
  return { url, inspectorPort, child, output: () => output, stop };
}

/** Polls until `url` answers 200; returns the ms it took. Throws when the process exits or time runs out. */
export async function waitFor200(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<number> {
  const started = performance.now();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before ${url} answered`);
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
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

/** SIGTERM to the child's process group (wrangler and its workerd), SIGKILL after 5 s; resolves once it has exited. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
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
