/**
 * `wrangler dev` as the bench runs it: the launcher the browser tests use too (scripts/lib/wrangler-dev.ts),
 * with warnings only and every process tracked, so Ctrl+C and failures stop it by its pid too.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { launchWranglerDev } from "../../scripts/lib/wrangler-dev";
import { spawnTracked, stopTracked } from "./processes";

export { freePort, migrate, ROOT, WRANGLER, waitFor200, wranglerEnv } from "../../scripts/lib/wrangler-dev";

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `quorum-bench-${prefix}-`));
}

/** The SQLite file behind the local D1 database in a state folder (there is one D1 binding). */
export function d1File(persistTo: string): string {
  const dir = path.join(persistTo, "v3/d1/miniflare-D1DatabaseObject");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite") : [];
  if (files.length !== 1)
    throw new Error(`expected one D1 SQLite file in ${dir}, found ${files.length}: ${files.join(", ")}`);
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
  /** the snapshot's wrangler.toml, the bench's own Worker's, or the project's own (the cold start) */
  config: string;
  readyPath?: string;
  timeoutMs?: number;
  /** called as each attempt's process is spawned (a port taken meanwhile starts it again) */
  onSpawn?: () => void;
}

/** Starts `wrangler dev` and resolves once `readyPath` answers 200. */
export async function startWrangler(opts: StartOptions): Promise<Server> {
  const server = await launchWranglerDev({
    ...opts,
    // Request lines cost CPU in wrangler's own process on a 2-core machine; warnings and errors still show.
    logLevel: "warn",
    spawn: (command, args, spawnOpts) => {
      opts.onSpawn?.();
      return spawnTracked(command, args, spawnOpts);
    },
    stop: stopTracked,
  });
  return { ...server, pid: server.child.pid!, persistTo: opts.persistTo };
}
