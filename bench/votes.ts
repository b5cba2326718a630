/**
 * Vote ingestion: 64 clients (each its own X-Client-Id) cast 10,000 votes over 200 ready comparisons, against
 * the throughput of a route that does nothing on the same server, then every stored row is counted.
 *
 * Quorum has no no-op route, and the Worker is not ours to change: the baseline is an /api path no route
 * matches (the Worker's own JSON 404: Hono routing and the API's middleware, no I/O). GET /api/health (one
 * D1 `select 1`) is measured beside it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { getJson, postJson } from "./lib/client";
import type { BenchContext } from "./lib/context";
import type { Row } from "./lib/report";
import { fixed, ms, p50, pool, sleep, spread, thousands } from "./lib/stats";
import { coresUsed, cpuDuring } from "./lib/processes";
import { ROOT, WRANGLER, wranglerEnv } from "./lib/wrangler";

const CLIENTS = 64;
const VOTES = 10_000;
const COMPARISONS = 200;
/** the 10,000 votes go in segments, each right after the same number of no-op requests, so noise hits both alike */
const SEGMENTS = 5;
const PER_SEGMENT = VOTES / SEGMENTS;
const HEALTH_PER_SEGMENT = 1_000;
const CHOICES = ["left", "right", "tie", "both-bad"] as const;
const ROWS_OF = { left: 1, right: 1, tie: 2, "both-bad": 1 } as const;
const MODELS = ["openai:vote-a", "openai:vote-b"];

interface Burst {
  seconds: number;
  perSecond: number;
  latencies: number[];
  statuses: Map<number, number>;
  total: number;
  /** CPU seconds by process while the burst ran */
  cpu: Record<string, number>;
}

/** `total` requests from `clients` concurrent loops; each request is `send(i, client)`. */
async function burst(
  serverPid: number,
  total: number,
  clients: number,
  send: (i: number, client: number) => Promise<number>,
): Promise<Burst> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const { seconds, cpu } = await cpuDuring(serverPid, () =>
    Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        while (next < total) {
          const i = next++;
          const t = performance.now();
          const status = await send(i, client).catch(() => 0);
          latencies.push(performance.now() - t);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    ),
  );
  return { seconds, perSecond: total / seconds, latencies, statuses, total, cpu };
}

/** CPU ms per request in the server's workerd, and where the cores went. */
function cpuLine(what: string, bursts: Burst[]): string {
  const perRequest = p50(bursts.map((b) => ((b.cpu["server workerd"] ?? 0) * 1000) / b.total));
  const b = bursts[Math.floor(bursts.length / 2)];
  return `${what}: workerd CPU ${fixed(perRequest, 2)} ms per request (p50 of trials); cores used during one burst: ${coresUsed(b.cpu, b.seconds)}`;
}

const statusList = (s: Map<number, number>) =>
  [...s].map(([k, v]) => `${k === 0 ? "network error" : k}: ${thousands(v)}`).join(", ");

async function get(url: string): Promise<number> {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.status;
}

async function readyComparisons(url: string): Promise<string[]> {
  const ids = await pool(COMPARISONS, 16, async (i) => {
    const created = await postJson<{ id: string }>(`${url}/api/comparisons`, {
      prompt: `Vote bench ${i}`,
      models: MODELS,
    });
    if (created.status !== 201)
      throw new Error(`POST /api/comparisons answered ${created.status}: ${JSON.stringify(created.body)}`);
    return created.body.id;
  });
  for (const id of ids) {
    for (let attempt = 0; ; attempt++) {
      const detail = await getJson<{ comparison: { status: string } }>(`${url}/api/comparisons/${id}`);
      if (detail.comparison.status === "ready") break;
      if (detail.comparison.status === "failed" || attempt >= 300)
        throw new Error(`comparison ${id} is ${detail.comparison.status}, not ready`);
      await sleep(100);
    }
  }
  return ids;
}

async function d1Count(persistTo: string, sql: string): Promise<number> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [WRANGLER, "d1", "execute", "DB", "--local", "--persist-to", persistTo, "--json", "--command", sql],
    { cwd: ROOT, env: wranglerEnv(), timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const parsed = JSON.parse(stdout) as { results: Record<string, number>[] }[];
  return Number(Object.values(parsed[0].results[0])[0]);
}

export async function votesBench(ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const [stub, server] = [await ctx.stub(), await ctx.quorum()];
  for (const m of MODELS)
    stub.setProfile(m.slice("openai:".length), { answer: { text: "A short answer, for votes." }, review: {} });
  const ids = await readyComparisons(server.url);

  const noop = () => burst(server.pid, PER_SEGMENT, CLIENTS, () => get(`${server.url}/api/__bench_noop`));
  const health = () => burst(server.pid, HEALTH_PER_SEGMENT, CLIENTS, () => get(`${server.url}/api/health`));
  let cast = 0;
  let sent = 0;
  let expectedRows = 0;
  let expectedWins = 0;
  const votes = () =>
    burst(server.pid, PER_SEGMENT, CLIENTS, async (_i, client) => {
      const n = sent++;
      const choice = CHOICES[n % 4];
      const res = await postJson(
        `${server.url}/api/comparisons/${ids[n % COMPARISONS]}/votes`,
        { choice },
        { "X-Client-Id": `bench-client-${client}` },
      );
      if (res.status === 201) {
        cast++;
        expectedRows += ROWS_OF[choice];
        expectedWins += choice === "both-bad" ? 0 : ROWS_OF[choice];
      }
      return res.status;
    });

  await noop(); // warm-up of the route and the connections
  const trials: { noop: Burst; health: Burst; votes: Burst }[] = [];
  for (let t = 0; t < SEGMENTS; t++) trials.push({ noop: await noop(), health: await health(), votes: await votes() });

  const profiled = await ctx.profile(server, () => votes());

  // Count what was stored, two ways: the leaderboard's counters (battles) and the rows themselves.
  const board = await getJson<{ rows: { modelId: string; wins: number; battles: number }[] }>(
    `${server.url}/api/leaderboard?includeFlagged=true&rounds=0`,
  );
  const mine = board.rows.filter((r) => MODELS.includes(r.modelId));
  const battles = mine[0]?.battles ?? 0;
  const wins = mine.reduce((s, r) => s + r.wins, 0);
  const inList = `(SELECT id FROM comparisons WHERE model1_id IN ('${MODELS.join("','")}'))`;
  const rows = await d1Count(
    server.persistTo,
    `SELECT count(*) AS n FROM model_votes WHERE comparison_id IN ${inList}`,
  );
  const voteIds = await d1Count(
    server.persistTo,
    `SELECT count(DISTINCT vote_id) AS n FROM model_votes WHERE comparison_id IN ${inList}`,
  );

  const ratios = trials.map((t) => t.votes.perSecond / t.noop.perSecond);
  const healthRatios = trials.map((t) => t.votes.perSecond / t.health.perSecond);
  const problems: string[] = [];
  if (cast !== sent)
    problems.push(
      `${sent - cast} of ${thousands(sent)} votes were not accepted (statuses: ${trials.map((t) => statusList(t.votes.statuses)).join(" | ")})`,
    );
  if (rows !== expectedRows)
    problems.push(
      `model_votes holds ${thousands(rows)} rows for these comparisons; the ${thousands(cast)} accepted votes should have written ${thousands(expectedRows)}`,
    );
  if (voteIds !== cast)
    problems.push(`model_votes holds ${thousands(voteIds)} distinct votes; ${thousands(cast)} were accepted`);
  if (battles !== cast)
    problems.push(
      `the leaderboard counts ${thousands(battles)} battles for the bench models; ${thousands(cast)} votes were accepted`,
    );
  if (wins !== expectedWins)
    problems.push(
      `the leaderboard counts ${thousands(wins)} wins; the votes should have given ${thousands(expectedWins)}`,
    );
  const target = 0.5;
  const perS = (b: Burst[]) =>
    spread(
      b.map((x) => x.perSecond),
      (x) => `${thousands(x)}/s`,
    );
  return {
    name,
    benchmark: `vote ingestion, ${CLIENTS} concurrent clients, ${thousands(VOTES)} votes`,
    baseline: `a no-op on the same server (an unmatched /api path: the Worker's JSON 404, no I/O): ${thousands(p50(trials.map((t) => t.noop.perSecond)))}/s`,
    result: `${fixed(p50(ratios), 3)}× the no-op's throughput (p50 of ${SEGMENTS} segments of ${thousands(PER_SEGMENT)}; ${thousands(p50(trials.map((t) => t.votes.perSecond)))} votes/s); ${fixed(p50(healthRatios), 3)}× GET /api/health's; ${problems.length ? "VOTES LOST" : `0 of ${thousands(cast)} votes lost`}`,
    target: "≥ 50% of the no-op's throughput, zero votes lost",
    verdict: p50(ratios) >= target && !problems.length ? "met" : "MISSED",
    details: [
      `${SEGMENTS} segments of (${thousands(PER_SEGMENT)} no-op requests, ${thousands(HEALTH_PER_SEGMENT)} GET /api/health, ${thousands(PER_SEGMENT)} votes), ${CLIENTS} clients each, after one warm-up burst; then ${thousands(PER_SEGMENT)} more votes under the profiler: ${thousands(sent)} votes in all, every one counted below`,
      `votes: ${perS(trials.map((t) => t.votes))}; latency ${spread(
        trials.flatMap((t) => t.votes.latencies),
        (x) => ms(x, 1),
      )}`,
      `no-op: ${perS(trials.map((t) => t.noop))}; latency ${spread(
        trials.flatMap((t) => t.noop.latencies),
        (x) => ms(x, 1),
      )}`,
      `GET /api/health: ${perS(trials.map((t) => t.health))}; latency ${spread(
        trials.flatMap((t) => t.health.latencies),
        (x) => ms(x, 1),
      )}`,
      `votes / no-op per segment: ${ratios.map((r) => fixed(r, 3)).join(", ")}; votes / health per segment: ${healthRatios.map((r) => fixed(r, 3)).join(", ")}`,
      cpuLine(
        "votes",
        trials.map((t) => t.votes),
      ),
      cpuLine(
        "no-op",
        trials.map((t) => t.noop),
      ),
      cpuLine(
        "GET /api/health",
        trials.map((t) => t.health),
      ),
      `statuses: no-op ${statusList(trials[0].noop.statuses)}; votes ${trials.map((t) => statusList(t.votes.statuses)).join(" | ")}`,
      `counted after: ${thousands(cast)} votes accepted → ${thousands(expectedRows)} model_votes rows expected; D1 holds ${thousands(rows)} rows from ${thousands(voteIds)} votes (wrangler d1 execute --local, same --persist-to); leaderboard: ${thousands(battles)} battles, ${thousands(wins)} wins (expected ${thousands(expectedWins)})`,
      ...profiled,
      `${COMPARISONS} comparisons, votes spread round-robin (${thousands(sent / COMPARISONS)} per comparison, serialised by its room); later votes by the same client are flagged duplicate and stored all the same`,
    ],
    problems,
  };
}
