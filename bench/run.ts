/**
 * `npm run bench` runs every benchmark, prints one table and writes it to bench/RESULTS.md;
 * `npm run bench -- NAME…` runs the named ones only (and prints, without touching RESULTS.md).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { btBench } from "./bt";
import { comparisonRoundBench } from "./comparison-round";
import { councilBench } from "./council";
import { d1RateBench } from "./d1-rate";
import { evaluationBench, spreadEvaluationBench } from "./evaluation";
import { importBench } from "./import";
import { largeFitBench } from "./large-fit";
import { leaderboardBench } from "./leaderboard";
import { pairingBench } from "./pairing";
import { BenchContext } from "./lib/context";
import { installCleanup, stopAll } from "./lib/processes";
import { machine, markdown, table, type Row } from "./lib/report";
import { liveLatencyBench } from "./live-latency";
import { millionFitBench } from "./million-fit";
import { v1FirstTokenBench } from "./v1-first-token";
import { votesBench } from "./votes";
import { webBundleBench } from "./web-bundle";
import { workerBundleBench } from "./worker-bundle";

type Bench = (ctx: BenchContext, name: string) => Promise<Omit<Row, "seconds">>;

const BENCHMARKS: [name: string, what: string, run: Bench][] = [
  ["council-6", "council run, 6 models, concurrency 6", (ctx, name) => councilBench(ctx, name, 6, 6)],
  ["council-12", "council run, 12 models, concurrency 4", (ctx, name) => councilBench(ctx, name, 12, 4)],
  ["live-latency", "provider chunk → WebSocket client, run and comparison", liveLatencyBench],
  ["v1-first-token", "/v1/chat/completions: first streamed token vs a direct provider call", v1FirstTokenBench],
  ["evaluation", "1,000-item evaluation against per-provider caps, room memory", evaluationBench],
  [
    "spread-evaluation",
    "1,000-item evaluation against caps past one room's six (spread over shard rooms)",
    spreadEvaluationBench,
  ],
  ["comparison-round", "prompt → both sides → vote, 16 concurrent", comparisonRoundBench],
  ["votes", "vote ingestion, 64 clients, 10,000 votes", votesBench],
  ["leaderboard", "leaderboard at 1,000,000 votes / 50 models vs seed 000's query", leaderboardBench],
  ["d1-rate", "votes one local D1 writes a second (sequential, concurrent, batched)", d1RateBench],
  ["bt", "Bradley–Terry + 100 bootstrap rounds at 1,000,000 battles", btBench],
  ["import", "npm run import of 1,000,000 battle lines", importBench],
  ["large-fit", "leaderboard fits over 1,000 / 3,000 / 10,000 models, /api/health meanwhile", largeFitBench],
  ["pairing", "active vs uniform arena pairing: votes to a given interval width, simulated", pairingBench],
  [
    "million-fit",
    "leaderboard at 1,000 models / 1,000,000 battles, sandwich intervals, reads after votes",
    millionFitBench,
  ],
  ["web-bundle", "first-load JavaScript, per route", webBundleBench],
  ["worker-bundle", "Worker bundle and cold start", workerBundleBench],
];

function usage(): never {
  console.error(
    `Usage: npm run bench [-- NAME…] [--items N (evaluation, spread-evaluation)] [--profile (evaluation, spread-evaluation)]\n\nBenchmarks (a prefix such as "council" picks several):\n${BENCHMARKS.map(([n, w]) => `  ${n.padEnd(18)} ${w}`).join("\n")}`,
  );
  process.exit(2);
}

/** Options a bench reads itself (`--items 50`), each with its value, and flags (`--profile`): not benchmark names. */
const OPTIONS = new Set(["--items"]);
const FLAGS = new Set(["--profile"]);
const args = process.argv.slice(2).filter((a, i, all) => !OPTIONS.has(a) && !OPTIONS.has(all[i - 1]) && !FLAGS.has(a));
if (args.includes("--help") || args.includes("-h")) usage();
const chosen = args.length
  ? BENCHMARKS.filter(([name]) => args.some((a) => name === a || name.startsWith(`${a}-`)))
  : BENCHMARKS;
const unknown = args.filter((a) => !BENCHMARKS.some(([name]) => name === a || name.startsWith(`${a}-`)));
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(", ")}`);
  usage();
}

installCleanup();
const header = machine();
console.log(header.join("\n"));
const started = performance.now();
const ctx = new BenchContext();
const rows: Row[] = [];
try {
  for (const [name, what, run] of chosen) {
    console.log(`\n▶ ${name}: ${what}`);
    const t = performance.now();
    let row: Row;
    try {
      row = { ...(await run(ctx, name)), seconds: (performance.now() - t) / 1000 };
    } catch (err) {
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      console.error(`✖ ${name} failed: ${message}`);
      row = {
        name,
        benchmark: what,
        baseline: "—",
        result: "did not finish",
        target: "—",
        verdict: "FAILED",
        details: ["```", ...message.split("\n").slice(0, 30), "```"],
        problems: [`${name} failed: ${message.split("\n")[0]}`],
        seconds: (performance.now() - t) / 1000,
      };
    }
    rows.push(row);
    console.log(`  ${row.verdict}: ${row.result}`);
    for (const d of row.details) console.log(`    ${d}`);
    for (const p of row.problems) console.error(`  !!! ${p}`);
  }
} finally {
  await ctx.close();
  await stopAll();
}

const seconds = (performance.now() - started) / 1000;
console.log(`\n${table(rows)}\n`);
const problems = rows.flatMap((r) => r.problems);
if (problems.length)
  console.error(`!!! ${problems.length} sanity check(s) failed:\n${problems.map((p) => `!!!   ${p}`).join("\n")}`);
if (chosen.length === BENCHMARKS.length) {
  const file = path.join(import.meta.dirname, "RESULTS.md");
  await writeFile(file, `${markdown(rows, header, seconds)}\n`);
  console.log(`Written to ${path.relative(process.cwd(), file)} (${(seconds / 60).toFixed(1)} min).`);
} else {
  console.log(
    `Ran ${chosen.length} of ${BENCHMARKS.length} benchmarks in ${(seconds / 60).toFixed(1)} min; bench/RESULTS.md is written by a full run only.`,
  );
}
