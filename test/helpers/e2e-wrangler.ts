/**
 * Starts the Worker as a person would run it (`wrangler dev`, static assets included) on ports of its own,
 * with its own local D1/Durable Object state in a temp folder, and only the variables the test passes.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { launchWranglerDev, migrate, ROOT, wranglerEnv } from "../../scripts/lib/wrangler-dev";

const run = promisify(execFile);

/** Builds the web app into web/dist exactly as `npm run build` does. */
export async function buildWeb(): Promise<string> {
  const vite = path.join(ROOT, "node_modules/vite/bin/vite.js");
  const { stdout } = await run(process.execPath, [vite, "build", "--config", "web/vite.config.ts"], {
    cwd: ROOT,
    env: wranglerEnv(),
    timeout: 120_000,
  });
  return stdout;
}

export interface WranglerDev {
  url: string;
  /** the end of what wrangler printed, for failure messages */
  output: () => string;
  close: () => Promise<void>;
}

/** Applies the D1 migrations to a fresh state folder, then starts `wrangler dev` and waits for /api/health. */
export async function startWranglerDev(vars: Record<string, string>, timeoutMs = 90_000): Promise<WranglerDev> {
  const persistTo = await mkdtemp(path.join(tmpdir(), "quorum-e2e-state-"));
  const forget = () => rm(persistTo, { recursive: true, force: true });
  try {
    await migrate(persistTo);
    // With APP_TOKEN set, /api/health wants it too.
    const readyHeaders: Record<string, string> = vars.APP_TOKEN ? { Authorization: `Bearer ${vars.APP_TOKEN}` } : {};
    const server = await launchWranglerDev({ persistTo, vars, readyHeaders, timeoutMs });
    return { url: server.url, output: server.output, close: () => server.stop().then(forget) };
  } catch (err) {
    await forget();
    throw err;
  }
}
