/**
 * The leaderboard at 1,000,000 human votes over 50 models, against seed 000's on-demand query on the same
 * D1 data and indexes. Both are timed the same way: over HTTP to a Worker under `wrangler dev` on this
 * machine, one after the other on the same state folder (Quorum's own Worker, then the bench's baseline
 * Worker in leaderboard-baseline/, which binds the same local D1 database).
 */
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { readFile } from "node:fs/promises";
import type { BenchContext } from "./lib/context";
import type { Row } from "./lib/report";
import { seedVotes } from "./lib/seed-votes";
import { fixed, ms, p50, p95, spread, thousands } from "./lib/stats";
import { MODELS, expectedStats, makeBattles } from "./lib/synthetic";
import { d1File, migrate, startWrangler, tempDir, type Server } from "./lib/wrangler";
import { memoryOf, processTree } from "./lib/processes";

const VOTES = 1_000_000;
/** comparisons nobody voted on: appearances without a vote, as the seed defines them */
const UNVOTED = 20_000;
const WARM_TRIALS = 15;
const BASELINE_TRIALS = 7;
/** reads spaced past the default staleness window (QUORUM_LEADERBOARD_STALE_MS, 1000 ms): each asks D1 for the data version first */
const CHECKED_TRIALS = 8;
const CHECKED_GAP_MS = 1100;

interface Timed<T> {
  ms: number;
  body: T;
}

async function timedGet<T>(url: string): Promise<Timed<T>> {
  const t = performance.now();
  const res = await fetch(url);
  const text = await res.text();
  const elapsed = performance.now() - t;
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return { ms: elapsed, body: JSON.parse(text) as T };
}

interface Board {
  rows: {
    modelId: string;
    wins: number;
    appearances: number;
    winRate: number;
    elo: number | null;
    bt: number | null;
    ciLower: number | null;
    ciUpper: number | null;
  }[];
  totalBattles: number;
  fit: { status: string };
}

/** Reads `url` until its Bradley–Terry fit, run in the background past 24 models, is ready; ms since `since`. */
async function whenFitted(url: string, since: number): Promise<Timed<Board>> {
  for (;;) {
    const { body } = await timedGet<Board>(url);
    if (body.fit.status !== "computing") return { ms: performance.now() - since, body };
    if (performance.now() - since > 120_000) throw new Error(`${url}: the fit was still computing after 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
interface SeedRow {
  model_id: string;
  wins: number;
  appearances: number;
  win_rate: number;
}

async function baselineConfig(snapshotConfig: string, dir: string): Promise<string> {
  const toml = await readFile(snapshotConfig, "utf8");
  const field = (name: string) => new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, "m").exec(toml)?.[1];
  const [id, dbName, date] = [field("database_id"), field("database_name"), field("compatibility_date")];
  if (!id || !dbName || !date)
    throw new Error("could not read database_id, database_name and compatibility_date from wrangler.toml");
  const file = path.join(dir, "baseline-wrangler.toml");
  await writeFile(
    file,
    `name = "quorum-bench-seed000"
main = "${path.join(import.meta.dirname, "leaderboard-baseline/worker.ts")}"
compatibility_date = "${date}"

# The same local D1 database as Quorum's (same binding and id, same --persist-to).
[[d1_databases]]
binding = "DB"
database_name = "${dbName}"
database_id = "${id}"
`,
  );
  return file;
}

function workerdMiB(server: Server): number {
  return processTree(server.pid)
    .filter((p) => p.name === "workerd")
    .reduce((s, p) => s + (memoryOf(p.pid)?.hwmKb ?? 0) / 1024, 0);
}

export async function leaderboardBench(ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const snap = await ctx.snapshot();
  const dir = await tempDir("leaderboard");
  ctx.onClose(() => rm(dir, { recursive: true, force: true }));
  const persistTo = path.join(dir, "state");
  await migrate(persistTo, snap.config);

  const battles = makeBattles(VOTES, 8);
  const unvotedPairs = makeBattles(UNVOTED, 9);
  const unvoted = { a: unvotedPairs.a, b: unvotedPairs.b };
  const t = performance.now();
  const seeded = seedVotes(d1File(persistTo), battles, unvoted);
  const seedSeconds = (performance.now() - t) / 1000;
  console.log(
    `  seeded ${thousands(seeded.comparisons)} comparisons, ${thousands(seeded.voteRows)} model_votes rows, ${thousands(seeded.battles)} battles in ${seedSeconds.toFixed(0)} s`,
  );
  const expected = expectedStats(battles, unvoted);

  // Quorum: the first request replays online Elo over every battle once (cold); then warm reads.
  const quorum = await startWrangler({ config: snap.config, persistTo, vars: { QUORUM_LOG: "off" } });
  let cold: Timed<Board>;
  let fitted: Timed<Board>;
  let coldFlagged: Timed<Board>;
  const warm: number[] = [];
  const noBootstrap: number[] = [];
  const checked: number[] = [];
  let quorumMiB: number;
  let profiled: string[];
  try {
    const start = performance.now();
    cold = await timedGet<Board>(`${quorum.url}/api/leaderboard`);
    fitted = await whenFitted(`${quorum.url}/api/leaderboard`, start);
    await whenFitted(`${quorum.url}/api/leaderboard?rounds=0`, performance.now());
    for (let i = 0; i < WARM_TRIALS; i++) warm.push((await timedGet<Board>(`${quorum.url}/api/leaderboard`)).ms);
    for (let i = 0; i < CHECKED_TRIALS; i++) {
      await new Promise((resolve) => setTimeout(resolve, CHECKED_GAP_MS));
      checked.push((await timedGet<Board>(`${quorum.url}/api/leaderboard`)).ms);
    }
    coldFlagged = await timedGet<Board>(`${quorum.url}/api/leaderboard?includeFlagged=true`);
    // Where the warm time goes: the same read without the bootstrap (rounds=0).
    for (let i = 0; i < 5; i++) noBootstrap.push((await timedGet<Board>(`${quorum.url}/api/leaderboard?rounds=0`)).ms);
    quorumMiB = workerdMiB(quorum);
    profiled = await ctx.profile(quorum, async () => {
      for (let i = 0; i < 3; i++) await timedGet<Board>(`${quorum.url}/api/leaderboard`);
    });
    const withoutBootstrap = await ctx.profile(quorum, async () => {
      for (let i = 0; i < 5; i++) await timedGet<Board>(`${quorum.url}/api/leaderboard?rounds=0`);
    });
    profiled.push(...withoutBootstrap.map((line) => line.replace("profile (", "profile of rounds=0 reads (")));
  } finally {
    await quorum.stop();
  }

  const base = await startWrangler({ config: await baselineConfig(snap.config, dir), persistTo, readyPath: "/health" });
  const baseline: number[] = [];
  let seedRows: SeedRow[];
  let plan: { detail: string }[];
  try {
    const first = await timedGet<{ rows: SeedRow[] }>(`${base.url}/seed000`);
    seedRows = first.body.rows;
    for (let i = 0; i < BASELINE_TRIALS; i++)
      baseline.push((await timedGet<{ rows: SeedRow[] }>(`${base.url}/seed000`)).ms);
    baseline.unshift(first.ms);
    plan = (await timedGet<{ rows: { detail: string }[] }>(`${base.url}/plan`)).body.rows;
  } finally {
    await base.stop();
  }
  const baselineWarm = baseline.slice(1);

  // wins and appearances: Quorum (includeFlagged, where the design promises the seed's numbers) vs the seed's query vs the generator
  const problems: string[] = [];
  const q = new Map(coldFlagged.body.rows.map((r) => [r.modelId, r]));
  const s = new Map(seedRows.map((r) => [r.model_id, r]));
  let same = 0;
  MODELS.forEach((id, i) => {
    const [qr, sr] = [q.get(id), s.get(id)];
    const want = { wins: expected.wins[i], appearances: expected.appearances[i] };
    if (!qr || !sr || qr.wins !== sr.wins || qr.appearances !== sr.appearances) {
      problems.push(
        `${id}: Quorum wins/appearances ${qr?.wins}/${qr?.appearances}, seed 000's query ${sr?.wins}/${sr?.appearances}`,
      );
    } else same++;
    if (sr && (sr.wins !== want.wins || sr.appearances !== want.appearances))
      problems.push(
        `${id}: the seeded data should give ${want.wins}/${want.appearances}, the seed's query says ${sr.wins}/${sr.appearances}`,
      );
  });
  if (cold.body.totalBattles !== VOTES)
    problems.push(`Quorum counts ${cold.body.totalBattles} battles; ${VOTES} were seeded`);
  const incomplete = fitted.body.rows.filter((r) => r.bt === null || r.ciLower === null || r.elo === null).length;
  if (incomplete) problems.push(`${incomplete} leaderboard row(s) lack Elo, BT or an interval`);

  const warmRatio = p50(baselineWarm) / p50(warm);
  const coldRatio = p50(baselineWarm) / cold.ms;
  const checkedRatio = p50(baselineWarm) / p50(checked);
  const target = 50;
  return {
    name,
    benchmark: `leaderboard at ${thousands(VOTES)} human votes / ${MODELS.length} models (win rates, Elo, BT with 100 bootstrap rounds)`,
    baseline: `seed 000's query (subquery repeated for win_rate) on the same D1 data and indexes, over HTTP to a bench Worker: ${spread(baselineWarm, (x) => ms(x))}`,
    result: `warm ${fixed(warmRatio, 1)}× faster (p50 ${ms(p50(warm))}, p95 ${ms(p95(warm))}); warm past the 1 s staleness window (D1 asked for the data version) ${fixed(checkedRatio, 1)}× (p50 ${ms(p50(checked))}); cold (first request, Elo replayed over every battle) ${fixed(coldRatio, 1)}× (${ms(cold.ms)}); wins/appearances ${same === MODELS.length ? `identical for all ${same} models` : `DIFFER for ${MODELS.length - same} models`}`,
    target: `≥ ${target}× faster, identical wins/appearances`,
    // The target is for the leaderboard as it is read day to day (warm, back to back, as readers of a busy board
    // mostly are: within the default 1 s window); reads that ask D1 first and the one-off first read are printed beside it.
    verdict: warmRatio >= target && !problems.length ? "met" : "MISSED",
    details: [
      `data: ${thousands(seeded.comparisons)} comparisons (${thousands(UNVOTED)} never voted on), ${thousands(seeded.voteRows)} model_votes rows, ${thousands(seeded.battles)} battles, written into the D1 SQLite file in ${seedSeconds.toFixed(0)} s with the migrations' triggers filling the counters`,
      `Quorum GET /api/leaderboard: cold ${ms(cold.ms)} (fit.status ${cold.body.fit.status}; the ratings ready ${ms(fitted.ms)} after the first read); warm ${spread(warm, (x) => ms(x))}; ${CHECKED_TRIALS} reads ${CHECKED_GAP_MS} ms apart, each asking D1 for the data version first ${spread(checked, (x) => ms(x))}; first includeFlagged=true read (its own Elo stream, so cold too) ${ms(coldFlagged.ms)}; warm without the bootstrap (rounds=0) ${spread(noBootstrap, (x) => ms(x))}; workerd peak RSS ${thousands(quorumMiB)} MiB`,
      ...profiled,
      `seed 000's query: first ${ms(baseline[0])}, then ${spread(baselineWarm, (x) => ms(x))}`,
      `ratio warm = p50(seed query) / p50(Quorum warm) = ${fixed(warmRatio, 1)}; cold = p50(seed query) / Quorum cold = ${fixed(coldRatio, 1)}`,
      `wins/appearances: Quorum (includeFlagged=true) and seed 000's query agree for ${same} of ${MODELS.length} models; both checked against the generator's own counts`,
      `seed 000's query plan (EXPLAIN QUERY PLAN): ${plan.map((p) => p.detail).join(" / ")}`,
    ],
    problems,
  };
}
