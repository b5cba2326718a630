/**
 * Leaderboards over many imported models on one `wrangler dev`: how long a 1,000-model fit takes in the
 * background, how fast /api/health answers while a 3,000-model fit runs (every Durable Object shares the
 * Worker's one thread here), and how a view past QUORUM_MAX_FIT_MODELS answers. Baseline: one dense Newton
 * fit on the request, with no slices and no bootstrap, on the same 1,000-model cells, in this Node process.
 */
import { rm } from "node:fs/promises";
import { maximizeLikelihood } from "../worker/rating/bradley-terry-newton";
import { type RingBattle, ringBattles } from "../test/helpers/ring-battles";
import { seededRandom } from "../worker/rating/random";
import { getJson } from "./lib/client";
import type { BenchContext } from "./lib/context";
import type { Row } from "./lib/report";
import { fixed, ms, p50, p95, thousands } from "./lib/stats";
import { migrate, startWrangler, tempDir } from "./lib/wrangler";

const SETS = [
  { category: "fit-1000", models: 1_000, extra: 20_000 },
  { category: "fit-3000", models: 3_000, extra: 30_000 },
  { category: "fit-10000", models: 10_000, extra: 0 },
];
/** No fit here should take longer; a fit that does is a failure, not a figure. */
const FIT_TIMEOUT_MS = 10 * 60_000;

export type Line = RingBattle;

/** A ring (so the win graph is strongly connected) and `extra` random pairs, outcomes drawn from spread strengths. */
export function battles(category: string, models: number, extra: number): Line[] {
  const winProbability = (a: number, b: number) => 1 / (1 + 10 ** ((b - a) / models));
  return ringBattles({ models, extra, category, random: seededRandom(models), winProbability, tieRate: 0.1 });
}

export async function importLines(url: string, lines: Line[], importId: string): Promise<void> {
  for (let from = 0, part = 0; from < lines.length; from += 10_000, part++) {
    const body = lines
      .slice(from, from + 10_000)
      .map((l) => JSON.stringify(l))
      .join("\n");
    const res = await fetch(`${url}/api/battles/import?importId=${importId}-${part}`, {
      method: "POST",
      body,
      headers: { "content-type": "application/x-ndjson" },
    });
    if (res.status !== 200) throw new Error(`import answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  }
}

interface Board {
  rows: { bt: number | null }[];
  fit: { status: string; models: number; rounds?: number; notice?: string | null };
}

export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = performance.now();
  const value = await work();
  return { value, ms: performance.now() - t };
}

export async function health(url: string): Promise<number> {
  const { value, ms: took } = await timed(() => fetch(`${url}/api/health`));
  if (value.status !== 200) throw new Error(`/api/health answered ${value.status}`);
  await value.arrayBuffer();
  return took;
}

/** Asks for the view, then reads /api/health back to back until the fit is ready (checked every 10th). */
async function fitWithHealth(
  url: string,
  query: string,
): Promise<{ fitMs: number; first: Board; ready: Board; healthMs: number[]; firstMs: number }> {
  const t = performance.now();
  const first = await timed(() => getJson<Board>(`${url}/api/leaderboard?${query}`));
  const healthMs: number[] = [];
  for (let board = first.value; ; ) {
    if (board.fit.status !== "computing")
      return { fitMs: performance.now() - t, first: first.value, ready: board, healthMs, firstMs: first.ms };
    if (performance.now() - t > FIT_TIMEOUT_MS) throw new Error(`${query} still computing after ${FIT_TIMEOUT_MS} ms`);
    for (let k = 0; k < 10; k++) healthMs.push(await health(url));
    board = await getJson<Board>(`${url}/api/leaderboard?${query}`);
  }
}

/** The baseline: one dense Newton fit (no bootstrap) on the same cells, as if it ran on the request. */
function denseFitMs(lines: Line[], models: number): number {
  const at = (name: string) => Number(name.slice(name.lastIndexOf("-") + 1));
  const cells = new Map<number, { a: number; b: number; sa: number; sb: number }>();
  for (const l of lines) {
    const [x, y] = [at(l.model_a), at(l.model_b)];
    const [i, j] = x < y ? [x, y] : [y, x];
    const cell = cells.get(i * models + j) ?? { a: i, b: j, sa: 0, sb: 0 };
    cells.set(i * models + j, cell);
    const iWon = l.winner === "tie" ? 0.5 : (l.winner === "model_a") === (x === i) ? 1 : 0;
    cell.sa += iWon;
    cell.sb += 1 - iWon;
  }
  const list = [...cells.values()];
  const pairs = {
    count: list.length,
    a: Int32Array.from(list, (c) => c.a),
    b: Int32Array.from(list, (c) => c.b),
    scoreA: Float64Array.from(list, (c) => c.sa),
    scoreB: Float64Array.from(list, (c) => c.sb),
  };
  const t = performance.now();
  maximizeLikelihood(models, pairs, 0, new Float64Array(models));
  return performance.now() - t;
}

export async function largeFitBench(ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const snap = await ctx.snapshot();
  const persistTo = await tempDir("large-fit");
  ctx.onClose(() => rm(persistTo, { recursive: true, force: true }));
  await migrate(persistTo, snap.config);
  const server = await startWrangler({ config: snap.config, persistTo, vars: { QUORUM_LOG: "off" } });
  ctx.onClose(() => server.stop());
  const url = server.url;

  const data = SETS.map((s) => ({ ...s, lines: battles(s.category, s.models, s.extra) }));
  for (const d of data) {
    console.log(`  importing ${thousands(d.lines.length)} battles among ${thousands(d.models)} models…`);
    await importLines(url, d.lines, d.category);
  }
  const idle: number[] = [];
  for (let k = 0; k < 50; k++) idle.push(await health(url));

  console.log("  1,000 models, 100 bootstrap rounds…");
  const thousand = await fitWithHealth(url, "source=import&category=fit-1000");
  console.log("  1,000 models, no bootstrap…");
  const thousandBare = await fitWithHealth(url, "source=import&category=fit-1000&rounds=0");
  console.log("  3,000 models (at most 20 bootstrap rounds past 1,000 models), /api/health read throughout…");
  const three = await fitWithHealth(url, "source=import&category=fit-3000");
  console.log("  10,000 models: past the ceiling…");
  const refused = await timed(() => getJson<Board>(`${url}/api/leaderboard?source=import&category=fit-10000&rounds=0`));
  const healthAfterRefused = await health(url);
  console.log("  dense Newton on the 1,000-model cells, in Node…");
  const denseMs = denseFitMs(data[0].lines, 1_000);

  const problems: string[] = [];
  if (thousand.ready.fit.status !== "ready" || thousand.ready.rows.some((r) => r.bt === null))
    problems.push("the 1,000-model view did not end with a rating on every row");
  if (three.ready.fit.status !== "ready" || three.ready.rows.some((r) => r.bt === null))
    problems.push("the 3,000-model view did not end with a rating on every row");
  if (refused.value.fit.status !== "refused")
    problems.push(`the 10,000-model view answered fit.status ${refused.value.fit.status}, not refused`);
  if (three.first.fit.status !== "computing") problems.push("the 3,000-model view did not say computing at first");
  const during = three.healthMs;
  const fast = p95(during) <= 50;
  return {
    name,
    benchmark: "leaderboard fits over 1,000 / 3,000 / 10,000 imported models; /api/health during the 3,000-model fit",
    baseline: `dense Newton, one fit of the 1,000-model cells on the request: ${ms(denseMs)} (Node, no bootstrap)`,
    result: `1,000 models: ${fixed(thousand.fitMs / 1000, 1)} s with 100 rounds (${fixed(thousandBare.fitMs / 1000, 2)} s without) in the background; /api/health during the 3,000-model fit p50 ${ms(p50(during), 1)}, p95 ${ms(p95(during), 1)}, max ${ms(Math.max(...during), 1)} (${during.length} reads); 10,000 models refused in ${ms(refused.ms)}`,
    target:
      "/api/health stays fast while any fit runs (here: p95 ≤ 50 ms); a 1,000-model view answers with ratings; past the ceiling a notice, never a hang",
    verdict: fast && !problems.length ? "met" : "MISSED",
    details: [
      `imported: ${data.map((d) => `${thousands(d.lines.length)} battles among ${thousands(d.models)} models`).join("; ")}`,
      `/api/health idle: p50 ${ms(p50(idle), 1)}, p95 ${ms(p95(idle), 1)}, max ${ms(Math.max(...idle), 1)} (${idle.length} reads)`,
      `1,000 models, 100 rounds: first answer (computing) in ${ms(thousand.firstMs)}, ratings after ${fixed(thousand.fitMs / 1000, 2)} s; /api/health meanwhile p50 ${ms(p50(thousand.healthMs), 1)}, p95 ${ms(p95(thousand.healthMs), 1)}, max ${ms(Math.max(...thousand.healthMs), 1)} (${thousand.healthMs.length} reads)`,
      `1,000 models, no bootstrap: ratings after ${fixed(thousandBare.fitMs / 1000, 2)} s (first answer in ${ms(thousandBare.firstMs)})`,
      `3,000 models, ${three.ready.fit.rounds ?? "?"} rounds: first answer (computing) in ${ms(three.firstMs)}, ratings after ${fixed(three.fitMs / 1000, 2)} s`,
      `10,000 models: fit.status ${refused.value.fit.status} in ${ms(refused.ms)} ("${refused.value.fit.notice ?? ""}"); /api/health right after ${ms(healthAfterRefused, 1)}`,
      "one wrangler dev, fresh state; reads are sequential from this process; the dense baseline runs in this Node process (the same V8 as workerd), one fit without bootstrap",
    ],
    problems,
  };
}
