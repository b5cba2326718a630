/**
 * A leaderboard at the Arena's scale and past it: 1,000 models and 1,000,000 imported battles, sandwich
 * intervals (the default), on one `wrangler dev`. Times the cold first read of the freshly imported view (which
 * answers "computing" with its counts), the rooms' exact fit and online replay behind it with /api/health read
 * meanwhile, warm reads, and reads right after a new battle (one imported line, the import source's vote) — which
 * must show it — with /api/health during the exact refit each one asks for.
 */
import { rm } from "node:fs/promises";
import { getJson } from "./lib/client";
import type { BenchContext } from "./lib/context";
import type { Row } from "./lib/report";
import { fixed, ms, p50, p95, thousands } from "./lib/stats";
import { migrate, startWrangler, tempDir } from "./lib/wrangler";
import { battles, health, importLines, type Line, timed } from "./large-fit";

const CATEGORY = "fit-1m";
const MODELS = 1_000;
const BATTLES = 1_000_000;
const VOTES = 10;
/** No exact fit here should take longer; one that does is a failure, not a figure. */
const FIT_TIMEOUT_MS = 10 * 60_000;
const QUERY = `source=import&category=${CATEGORY}`;

interface Board {
  rows: { modelId: string; bt: number | null; ciLower: number | null; battles: number }[];
  totalBattles: number;
  fit: { status: string; mode?: string; models: number };
  online: { status: string };
}

const board = (url: string) => timed(() => getJson<Board>(`${url}/api/leaderboard?${QUERY}`));

/** /api/health back to back until `done` says stop, each read timed; the board is read every 10th. */
async function healthUntil(url: string, done: (b: Board) => boolean): Promise<{ healthMs: number[]; ms: number }> {
  const t = performance.now();
  const healthMs: number[] = [];
  for (;;) {
    for (let k = 0; k < 10; k++) healthMs.push(await health(url));
    if (done((await board(url)).value)) return { healthMs, ms: performance.now() - t };
    if (performance.now() - t > FIT_TIMEOUT_MS) throw new Error(`no exact fit after ${FIT_TIMEOUT_MS} ms`);
  }
}

/** The full standings: the exact fit, and online ratings over every battle. */
const exact = (b: Board) => b.fit.status === "ready" && b.fit.mode === "exact" && b.online.status === "ready";

export async function millionFitBench(ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const snap = await ctx.snapshot();
  const persistTo = await tempDir("million-fit");
  ctx.onClose(() => rm(persistTo, { recursive: true, force: true }));
  await migrate(persistTo, snap.config);
  const server = await startWrangler({ config: snap.config, persistTo, vars: { QUORUM_LOG: "off" } });
  ctx.onClose(() => server.stop());
  const url = server.url;

  const lines = battles(CATEGORY, MODELS, BATTLES - 2 * MODELS);
  console.log(`  importing ${thousands(lines.length)} battles among ${thousands(MODELS)} models…`);
  const imported = await timed(() => importLines(url, lines, CATEGORY));
  const idle: number[] = [];
  for (let k = 0; k < 50; k++) idle.push(await health(url));

  console.log("  cold first read, then the exact fit and online replay with /api/health read meanwhile…");
  const first = await board(url);
  const firstFit = await healthUntil(url, exact);
  const warm: number[] = [];
  for (let k = 0; k < 10; k++) warm.push((await board(url)).ms);

  console.log(`  ${VOTES} new battles, each read right after…`);
  const problems: string[] = [];
  const afterVote: number[] = [];
  const modes: string[] = [];
  const refitHealth: number[] = [];
  const refitMs: number[] = [];
  for (let k = 0; k < VOTES; k++) {
    const before = (await board(url)).value;
    // The weakest model beats the strongest: the vote moves both ratings, so "shows" is visible in bt too.
    const vote: Line = {
      model_a: `${CATEGORY}-0`,
      model_b: `${CATEGORY}-${MODELS - 1}`,
      winner: "model_a",
      tstamp: 1_800_000_000 + k,
      category: CATEGORY,
    };
    await importLines(url, [vote], `${CATEGORY}-vote-${k}`);
    const read = await board(url);
    afterVote.push(read.ms);
    modes.push(`${read.value.fit.status}/${read.value.fit.mode ?? "-"}`);
    const row = (b: Board) => b.rows.find((r) => r.modelId === vote.model_a);
    if (read.value.totalBattles !== before.totalBattles + 1) problems.push(`vote ${k}: totalBattles did not grow by 1`);
    if (row(read.value)?.battles !== (row(before)?.battles ?? 0) + 1)
      problems.push(`vote ${k}: the winner's battles did not grow by 1`);
    if (!(read.value.fit.status === "ready" && (row(read.value)?.bt ?? 0) > (row(before)?.bt ?? Infinity)))
      problems.push(`vote ${k}: the winner's rating did not rise in the read right after (${modes.at(-1)})`);
    const refit = await healthUntil(url, exact);
    refitHealth.push(...refit.healthMs);
    refitMs.push(refit.ms);
  }

  if (first.value.fit.status === "refused") problems.push("the 1,000-model view was refused");
  const during = [...firstFit.healthMs, ...refitHealth];
  const fast = p95(during) <= 50;
  const quick = first.ms < 1000 && p95(afterVote) < 1000 && p50(warm) < 1000;
  const firstAnswer = `fit ${first.value.fit.status}, online ${first.value.online.status}`;
  return {
    name,
    benchmark:
      "leaderboard at 1,000 models and 1,000,000 battles, sandwich intervals: reads, a read after each new battle, /api/health meanwhile",
    baseline: `the work a cold read no longer waits for: the exact fit and the online replay over every battle, done in rooms ${fixed(firstFit.ms / 1000, 1)} s after it`,
    result: `cold first read ${ms(first.ms)} (${firstAnswer}); read right after a new battle p50 ${ms(p50(afterVote))}, p95 ${ms(p95(afterVote))} (${modes.filter((m) => m === "ready/incremental").length} of ${VOTES} incremental); warm p50 ${ms(p50(warm))}; exact fit ${fixed(firstFit.ms / 1000, 1)} s first, refits p50 ${fixed(p50(refitMs) / 1000, 2)} s; /api/health during fits p50 ${ms(p50(during), 1)}, p95 ${ms(p95(during), 1)}`,
    target:
      "a read with sandwich intervals under a second, the cold first one too, showing a new battle at once (incremental until the exact refit); /api/health fast meanwhile (here: p95 ≤ 50 ms)",
    verdict: fast && quick && !problems.length ? "met" : "MISSED",
    details: [
      `imported ${thousands(lines.length)} battles among ${thousands(MODELS)} models in ${fixed(imported.ms / 1000, 1)} s (a ring so every model is rated, then random pairs; 10,000-line import requests); ${thousands(first.value.fit.models)} rated models`,
      `/api/health idle: p50 ${ms(p50(idle), 1)}, p95 ${ms(p95(idle), 1)} (${idle.length} reads)`,
      `cold first read: ${ms(first.ms)} (${firstAnswer}, ${thousands(first.value.totalBattles)} battles counted); full standings (exact fit, online ratings replayed) ${fixed(firstFit.ms / 1000, 2)} s later; /api/health meanwhile p50 ${ms(p50(firstFit.healthMs), 1)}, p95 ${ms(p95(firstFit.healthMs), 1)}, max ${ms(Math.max(...firstFit.healthMs), 1)} (${firstFit.healthMs.length} reads)`,
      `warm reads (cached in the isolate): p50 ${ms(p50(warm))}, p95 ${ms(p95(warm))}`,
      `reads right after a new battle: ${afterVote.map((x) => fixed(x, 0)).join(", ")} ms; fit ${[...new Set(modes)].join(", ")}`,
      `exact refit after each: ${refitMs.map((x) => fixed(x / 1000, 2)).join(", ")} s; /api/health meanwhile p50 ${ms(p50(refitHealth), 1)}, p95 ${ms(p95(refitHealth), 1)}, max ${ms(Math.max(...refitHealth), 1)} (${refitHealth.length} reads)`,
      "one wrangler dev, fresh state; reads sequential from this process",
    ],
    problems,
  };
}
