/**
 * `npm run import` of Chatbot Arena clean battle lines into a fresh Quorum: lines per second, and the peak
 * memory of both processes (the importer, the server) at 100k and at 1M lines, which should not grow with
 * the input. Each size gets its own fresh server and state folder, so each peak covers that import alone.
 */
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { getJson } from "./lib/client";
import type { BenchContext } from "./lib/context";
import { memorySampler, spawnTracked, stopTracked } from "./lib/processes";
import type { Row } from "./lib/report";
import { fixed, thousands } from "./lib/stats";
import { FIRST_TSTAMP, MODELS, WINNER_NAMES, makeBattles, type Battles } from "./lib/synthetic";
import { ROOT, migrate, startWrangler, tempDir } from "./lib/wrangler";

const SIZES = [100_000, 1_000_000];
const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const LANGUAGES = ["English", "Chinese", "Russian", "German", "Spanish"];

/** One clean battle line as FastChat writes them, with style metadata of the usual size (~400 bytes). */
function line(b: Battles, k: number): string {
  const n = (x: number) => (k * 7919 + x * 104_729) % 997;
  return JSON.stringify({
    question_id: `bench-${k.toString(16)}`,
    model_a: MODELS[b.a[k]].slice(MODELS[b.a[k]].indexOf(":") + 1),
    model_b: MODELS[b.b[k]].slice(MODELS[b.b[k]].indexOf(":") + 1),
    winner: WINNER_NAMES[b.outcome[k]],
    judge: `arena_user_${k % 9973}`,
    turn: 1 + (k % 3 === 0 ? 1 : 0),
    anony: true,
    language: LANGUAGES[k % LANGUAGES.length],
    tstamp: FIRST_TSTAMP + k * 1.5,
    conv_metadata: {
      sum_user_tokens: n(1) % 200,
      sum_assistant_a_tokens: n(2),
      sum_assistant_b_tokens: n(3),
      context_a_tokens: n(4) % 300,
      context_b_tokens: n(5) % 300,
      turns: 1 + (k % 3 === 0 ? 1 : 0),
      header_count_a: { h1: 0, h2: n(6) % 4, h3: n(7) % 5, h4: 0, h5: 0, h6: 0 },
      list_count_a: { ordered: n(8) % 9, unordered: n(9) % 12 },
      bold_count_a: { "**": n(10) % 15, __: 0 },
      header_count_b: { h1: 0, h2: n(11) % 4, h3: n(12) % 5, h4: 0, h5: 0, h6: 0 },
      list_count_b: { ordered: n(13) % 9, unordered: n(14) % 12 },
      bold_count_b: { "**": n(15) % 15, __: 0 },
    },
  });
}

async function writeLines(file: string, battles: Battles, count: number): Promise<void> {
  const out = createWriteStream(file);
  let buffer: string[] = [];
  for (let k = 0; k < count; k++) {
    buffer.push(line(battles, k));
    if (buffer.length === 10_000 || k === count - 1) {
      if (!out.write(`${buffer.join("\n")}\n`)) await once(out, "drain");
      buffer = [];
    }
  }
  out.end();
  await once(out, "finish");
}

interface ImportRun {
  lines: number;
  seconds: number;
  reported: string;
  importerMiB: Record<string, number>;
  importerProcesses: number;
  serverMiB: Record<string, number>;
  /** workerd's RSS at 25, 50, 75 and 100% of the import */
  workerdCurve: number[];
  stored: number;
  exitCode: number | null;
}

async function importOnce(ctx: BenchContext, file: string, lines: number): Promise<ImportRun> {
  const snap = await ctx.snapshot();
  const persistTo = await tempDir(`import-${lines}`);
  try {
    await migrate(persistTo, snap.config);
    const server = await startWrangler({ config: snap.config, persistTo, vars: { QUORUM_LOG: "off" } });
    try {
      const serverMemory = memorySampler(server.pid);
      const t = performance.now();
      // What `npm run import -- FILE --url …` runs (package.json: "import": "tsx scripts/import.ts").
      const child = spawnTracked(process.execPath, [TSX, "scripts/import.ts", file, "--url", server.url], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const importerMemory = memorySampler(child.pid!);
      let output = "";
      child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
      child.stderr!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
      const timer = setTimeout(() => void stopTracked(child), 15 * 60_000);
      const [code] = (await once(child, "exit")) as [number | null];
      clearTimeout(timer);
      const seconds = (performance.now() - t) / 1000;
      const importer = importerMemory.stop();
      const serverMem = serverMemory.stop();
      if (code !== 0) throw new Error(`npm run import exited ${code}:\n${output.slice(-3000)}`);
      const board = await getJson<{ totalBattles: number }>(
        `${server.url}/api/leaderboard?source=import&includeFlagged=true&rounds=0`,
      );
      const reported = /elapsed\s+(.*)/.exec(output)?.[1] ?? "?";
      return {
        lines,
        seconds,
        reported,
        importerMiB: importer.peakMiB,
        importerProcesses: importer.processes,
        serverMiB: {
          workerd: serverMem.peakMiB.workerd ?? Number.NaN,
          "wrangler (node)": serverMem.peakMiB.MainThread ?? serverMem.peakMiB.node ?? Number.NaN,
        },
        workerdCurve: [0.25, 0.5, 0.75, 1].map((f) => serverMem.rssAt(f, "workerd")),
        stored: board.totalBattles,
        exitCode: code,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await rm(persistTo, { recursive: true, force: true });
  }
}

const total = (m: Record<string, number>) => Object.values(m).reduce((a, b) => a + b, 0);
const byName = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${thousands(v)} MiB`)
    .join(", ");

export async function importBench(ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const dir = await tempDir("import-files");
  ctx.onClose(() => rm(dir, { recursive: true, force: true }));
  const battles = makeBattles(Math.max(...SIZES), 21);
  const runs: ImportRun[] = [];
  for (const size of SIZES) {
    const file = path.join(dir, `battles-${size}.jsonl`);
    await writeLines(file, battles, size);
    console.log(`  importing ${thousands(size)} lines…`);
    runs.push(await importOnce(ctx, file, size));
  }
  const [small, large] = [runs[0], runs[1]];
  const problems = runs
    .filter((r) => r.stored !== r.lines)
    .map(
      (r) => `${thousands(r.lines)} lines imported, but the leaderboard counts ${thousands(r.stored)} import battles`,
    );
  const growth = {
    importer: total(large.importerMiB) / total(small.importerMiB),
    server: (large.serverMiB.workerd ?? 0) / (small.serverMiB.workerd ?? 1),
  };
  const flat = growth.importer <= 1.25 && growth.server <= 1.25;
  const rate = large.lines / large.seconds;
  return {
    name,
    benchmark: `import of ${thousands(large.lines)} FastChat battle lines (npm run import)`,
    baseline: "— (lines/s printed; peak memory at 100k vs 1M)",
    result: `${thousands(rate)} lines/s at 1M (${fixed(large.seconds, 1)} s); peak RSS at 100k → 1M: importer ${thousands(total(small.importerMiB))} → ${thousands(total(large.importerMiB))} MiB, server workerd ${thousands(small.serverMiB.workerd ?? NaN)} → ${thousands(large.serverMiB.workerd ?? NaN)} MiB`,
    target: "lines/s; peak memory of both processes flat in input size (here: ≤ 1.25× from 100k to 1M)",
    verdict: flat && !problems.length ? "met" : "MISSED",
    details: [
      ...runs.map(
        (r) =>
          `${thousands(r.lines)} lines: ${fixed(r.seconds, 1)} s wall (${thousands(r.lines / r.seconds)} lines/s; the CLI says ${r.reported}); peak RSS importer ${thousands(total(r.importerMiB))} MiB (${r.importerProcesses} node processes: tsx and the script it runs); server: ${byName(r.serverMiB)}; workerd RSS at 25/50/75/100% of the import: ${r.workerdCurve.map((x) => thousands(x)).join(" / ")} MiB; stored ${thousands(r.stored)} battles`,
      ),
      `growth from 100k to 1M lines: importer ×${fixed(growth.importer)}, server workerd ×${fixed(growth.server)}`,
      "each size on a fresh wrangler dev and state folder; the importer is `tsx scripts/import.ts FILE --url …` (what `npm run import` runs), default chunk 5,000 lines, 2 in flight; lines carry Arena's usual conv_metadata (~400 bytes)",
    ],
    problems,
  };
}
