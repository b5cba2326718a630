/**
 * The app as it is when the bench starts, frozen for the whole run: the Worker bundled once by
 * `wrangler deploy --dry-run` (the bundle that would be deployed), the migrations and the built page
 * copied, and a copy of wrangler.toml that points at them. Others edit worker/ while the bench runs, and
 * `wrangler dev` reloads on every change (resetting every Durable Object and closing every socket), so the
 * servers run this snapshot (`no_bundle = true`) instead: every benchmark measures the same code.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT, WRANGLER, tempDir, wranglerEnv } from "./wrangler";

export interface Snapshot {
  dir: string;
  /** the copied wrangler.toml, for `--config` */
  config: string;
  /** as `wrangler deploy --dry-run` printed it */
  upload: { kib: number; gzipKib: number } | null;
  dryRunSeconds: number;
  dryRunOutput: string;
}

const run = promisify(execFile);

export async function takeSnapshot(): Promise<Snapshot> {
  const dir = await tempDir("snapshot");
  if (!existsSync(path.join(ROOT, "web/dist/index.html"))) {
    // The config's assets folder must exist; build the page as `npm start` would.
    await run(
      process.execPath,
      [path.join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--config", "web/vite.config.ts"],
      { cwd: ROOT, env: wranglerEnv(), timeout: 300_000 },
    );
  }
  const t = performance.now();
  const { stdout, stderr } = await run(
    process.execPath,
    [WRANGLER, "deploy", "--dry-run", "--outdir", path.join(dir, "bundle")],
    {
      cwd: ROOT,
      env: wranglerEnv(),
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const dryRunSeconds = (performance.now() - t) / 1000;
  const dryRunOutput = `${stdout}\n${stderr}`;
  const m = /Total Upload:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(dryRunOutput);
  await cp(path.join(ROOT, "migrations"), path.join(dir, "migrations"), { recursive: true });
  await cp(path.join(ROOT, "web/dist"), path.join(dir, "assets"), { recursive: true });

  const toml = await readFile(path.join(ROOT, "wrangler.toml"), "utf8");
  const lines: [RegExp, string][] = [
    [/^main\s*=.*$/m, `main = "bundle/index.js"\nno_bundle = true`],
    [/^directory\s*=.*$/m, `directory = "assets"`],
    [/^migrations_dir\s*=.*$/m, `migrations_dir = "migrations"`],
  ];
  const replaced = lines.filter(([line]) => line.test(toml)).length;
  const rewritten = lines.reduce((text, [line, value]) => text.replace(line, value), toml);
  if (replaced !== 3)
    throw new Error(
      `wrangler.toml changed shape: expected main, assets directory and migrations_dir lines, found ${replaced} of them`,
    );
  const config = path.join(dir, "wrangler.toml");
  await writeFile(
    config,
    `# A frozen copy for bench/ (see bench/lib/snapshot.ts); the original is ${path.join(ROOT, "wrangler.toml")}\n${rewritten}`,
  );
  return { dir, config, upload: m ? { kib: Number(m[1]), gzipKib: Number(m[2]) } : null, dryRunSeconds, dryRunOutput };
}
