/**
 * The Worker's size as `wrangler deploy --dry-run` reports it, and a cold start: the steps `npm start` takes
 * (build the page, apply the migrations, `wrangler dev`) up to the first 200 from /api/health — each on a
 * temporary output and state folder, so the developer's own .wrangler/state and web/dist are not touched.
 */
import { execFile } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import type { BenchContext } from "./lib/context";
import type { Row } from "./lib/report";
import { fixed, p50, spread } from "./lib/stats";
import { ROOT, WRANGLER, startWrangler, tempDir, wranglerEnv } from "./lib/wrangler";

const DEV_TRIALS = 3;
const run = promisify(execFile);

async function timed(what: string, command: string[]): Promise<number> {
  const t = performance.now();
  try {
    await run(process.execPath, command, {
      cwd: ROOT,
      env: wranglerEnv(),
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${what} failed: ${e.message}\n${(e.stdout ?? "").slice(-2000)}\n${(e.stderr ?? "").slice(-2000)}`);
  }
  return (performance.now() - t) / 1000;
}

/** `wrangler dev` as `npm start` runs it (the project's config, bundling the sources) until /api/health answers 200. */
async function devTo200(persistTo: string): Promise<number> {
  let spawned = 0;
  // Timed from the spawn that got its ports: the launcher starts again when another process took one.
  const server = await startWrangler({
    persistTo,
    config: path.join(ROOT, "wrangler.toml"),
    timeoutMs: 180_000,
    onSpawn: () => (spawned = performance.now()),
  });
  const seconds = (performance.now() - spawned) / 1000;
  await server.stop();
  return seconds;
}

export async function workerBundleBench(ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const snap = await ctx.snapshot();
  const bundle = await readFile(path.join(snap.dir, "bundle/index.js"));
  const ownGzip = gzipSync(bundle).length / 1024;

  const dir = await tempDir("coldstart");
  ctx.onClose(() => rm(dir, { recursive: true, force: true }));
  const build = await timed("npm run build", [
    path.join(ROOT, "node_modules/vite/bin/vite.js"),
    "build",
    "--config",
    "web/vite.config.ts",
    "--outDir",
    path.join(dir, "dist"),
    "--emptyOutDir",
  ]);
  const persistTo = path.join(dir, "state");
  const migrate = await timed("npm run db:migrate", [
    WRANGLER,
    "d1",
    "migrations",
    "apply",
    "DB",
    "--local",
    "--persist-to",
    persistTo,
  ]);
  const dev: number[] = [];
  for (let i = 0; i < DEV_TRIALS; i++) dev.push(await devTo200(persistTo));
  const total = build + migrate + dev[0];
  const upload = snap.upload
    ? `${fixed(snap.upload.kib, 0)} KiB, ${fixed(snap.upload.gzipKib, 0)} KiB gzip`
    : "size not found in its output";
  return {
    name,
    benchmark: "Worker bundle and cold start",
    baseline: "`wrangler deploy --dry-run`; `npm start` to first 200",
    result: `bundle ${upload}; cold start ${fixed(total, 1)} s (build ${fixed(build, 1)} s + migrations ${fixed(migrate, 1)} s + wrangler dev to first 200 ${fixed(dev[0], 1)} s)`,
    target: "printed",
    verdict: "printed",
    details: [
      `wrangler deploy --dry-run: Total Upload ${upload} (bundle/index.js ${fixed(bundle.length / 1024, 0)} KiB, ${fixed(ownGzip, 0)} KiB gzip by zlib here); the dry run took ${fixed(snap.dryRunSeconds, 1)} s`,
      `npm start's steps, timed apart: vite build ${fixed(build, 1)} s, wrangler d1 migrations apply --local ${fixed(migrate, 1)} s (fresh state), wrangler dev → GET /api/health 200: first ${fixed(dev[0], 1)} s, then ${spread(dev.slice(1), (x) => `${fixed(x, 1)} s`)} (migrated state; p50 of all ${fixed(p50(dev), 1)} s)`,
      "the page is built into a temporary folder and the state is temporary; wrangler dev serves the project's web/dist as configured",
    ],
    problems: [],
  };
}
