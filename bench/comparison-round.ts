/**
 * An arena round as a person plays it, 16 at a time: POST the prompt, watch both sides stream over the
 * comparison's WebSocket until both have answered, vote. The ideal is the slower side's own stub latency.
 * The 16 lanes start a sixteenth of the ideal apart, as people's rounds would, and keep going from a warm
 * server; the same rounds with every lane starting at once (so every step arrives in a burst) are printed too.
 * The same rounds against the bench's relay Worker give, in the same run, the floor that `wrangler dev`
 * itself puts under them (no Durable Object, storage, D1 or SDK), and that floor with one Durable Object per
 * round storing what a comparison room must (the round, each side, the vote) before it says so: what
 * remains above the second is Quorum's own.
 */
import OpenAI from "openai";
import { openEvents, postJson } from "./lib/client";
import type { BenchContext } from "./lib/context";
import { startRelay, stubCompletions, stubTarget } from "./lib/relay";
import type { Row } from "./lib/report";
import { fixed, ms, p50, p95, pool, spread } from "./lib/stats";
import type { BenchStub } from "./lib/stub";
import type { Server } from "./lib/wrangler";
import { coresUsed, cpuDuring } from "./lib/processes";

const CONCURRENT = 16;
const ROUNDS = 192;
/** Rounds run before measuring: the first few dozen on a fresh server still run cold code (bench/HISTORY.md, Comparison round). */
const WARMUP = 128;
const TEXT = Array.from({ length: 27 }, (_, i) => `word${i}`).join(" ");
/** 9 chunks: the slow side takes 100 + 8 × 25 = 300 ms, the fast one 50 + 8 × 15 = 170 ms */
const SLOW = { delayMs: 100, chunkDelayMs: 25, text: TEXT };
const FAST = { delayMs: 50, chunkDelayMs: 15, text: TEXT };
const CHOICES = ["left", "right", "tie", "both-bad"] as const;
const MODELS = ["round-fast", "round-slow"];

/** Where a round's three steps go: Quorum's comparison API, or one of the relay Worker's rounds of the same shape. */
interface Arena {
  create: string;
  body(prompt: string): object;
  socket(id: string): string;
  votes(id: string): string;
}

const quorumArena = (url: string): Arena => ({
  create: `${url}/api/comparisons`,
  body: (prompt) => ({ prompt, models: MODELS.map((m) => `openai:${m}`) }),
  socket: (id) => `${url}/api/comparisons/${id}/ws?since=0`,
  votes: (id) => `${url}/api/comparisons/${id}/votes`,
});

/** The relay Worker's round: no Durable Object (`/round`), or one per round (`/room`). */
const relayArena = (url: string, stubUrl: string, kind: "round" | "room"): Arena => ({
  create: `${url}/${kind}`,
  body: (prompt) => ({ prompt, target: stubCompletions(stubUrl), models: MODELS }),
  // /round streams from the socket's request, /room from the POST's body
  socket: (id) =>
    kind === "round"
      ? `${url}/round/${id}/ws?${stubTarget(stubUrl)}${MODELS.map((m) => `&model=${m}`).join("")}`
      : `${url}/room/${id}/ws`,
  votes: (id) => `${url}/${kind}/${id}/votes`,
});

async function streamedMs(stub: BenchStub, model: string, trials = 7): Promise<number[]> {
  const client = new OpenAI({ apiKey: "sk-bench-openai", baseURL: `${stub.url}/v1`, maxRetries: 0 });
  const out: number[] = [];
  for (let i = 0; i < trials; i++) {
    const t = performance.now();
    const stream = await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const _ of stream) void _;
    out.push(performance.now() - t);
  }
  return out;
}

async function round(arena: Arena, i: number): Promise<{ ms: number; created: number; ready: number }> {
  const t0 = performance.now();
  const created = await postJson<{ id: string }>(arena.create, arena.body(`Round ${i}: explain recursion.`));
  if (created.status !== 201)
    throw new Error(`POST ${arena.create} answered ${created.status}: ${JSON.stringify(created.body)}`);
  const t1 = performance.now();
  const events = await openEvents(arena.socket(created.body.id));
  let ready: number;
  try {
    const settled = await events.until(
      (e) => e.type === "comparison.status" && (e.status === "ready" || e.status === "failed"),
      "both sides answered",
    );
    if (settled.event.status !== "ready")
      throw new Error(`comparison ${created.body.id} ended ${String(settled.event.status)}`);
    ready = settled.at - t0;
  } finally {
    events.close();
  }
  const voted = await postJson<{ voteId: string }>(
    arena.votes(created.body.id),
    { choice: CHOICES[((i % 4) + 4) % 4] },
    { "X-Client-Id": `round-${i}` },
  );
  if (voted.status !== 201) throw new Error(`vote answered ${voted.status}: ${JSON.stringify(voted.body)}`);
  return { ms: performance.now() - t0, created: t1 - t0, ready };
}

type Measured = Awaited<ReturnType<typeof measure>>;

/**
 * After WARMUP rounds, ROUNDS rounds with the lanes' first starts spread over one ideal, as people's would be
 * (the figure; the server's CPU measured while they run); then ROUNDS more with every lane starting at once.
 * Rounds all take about the ideal, so lanes started together stay in lockstep: every step of every round
 * reaches the server in a burst of CONCURRENT.
 */
async function measure(server: Server, arena: Arena, ideal: number) {
  const staggerMs = ideal / CONCURRENT;
  await pool(WARMUP, CONCURRENT, (i) => round(arena, -1 - i), staggerMs);
  const {
    value: rounds,
    seconds,
    cpu,
  } = await cpuDuring(server.pid, () => pool(ROUNDS, CONCURRENT, (i) => round(arena, i), staggerMs));
  const lockstep = await pool(ROUNDS, CONCURRENT, (i) => round(arena, ROUNDS + i));
  return { rounds, seconds, cpu, lockstep };
}

/** The same pools against the relay Worker: without a Durable Object, then with one per round. */
async function relayFloors(
  ctx: BenchContext,
  stub: BenchStub,
  ideal: number,
): Promise<{ bare: Measured; room: Measured }> {
  const relay = await startRelay(ctx);
  try {
    const bare = await measure(relay, relayArena(relay.url, stub.url, "round"), ideal);
    const room = await measure(relay, relayArena(relay.url, stub.url, "room"), ideal);
    return { bare, room };
  } finally {
    await relay.stop();
  }
}

/** The p50 of each third of `values`: how far the same pool drifts while it runs. */
const thirds = (values: number[]) =>
  [0, 1, 2].map((k) => p50(values.slice((k * values.length) / 3, ((k + 1) * values.length) / 3)));

const lockstepLine = (rounds: Measured["lockstep"], ideal: number) => {
  const roundMs = rounds.map((r) => r.ms);
  return `${ms(p50(roundMs))} (${fixed(p50(roundMs) / ideal, 3)}×), p95 ${ms(p95(roundMs))}`;
};

/** A floor's line: its round time as a multiple of the ideal, where its time goes, the cores it used. */
function floorLine(what: string, m: Measured, ideal: number): string {
  const roundMs = m.rounds.map((r) => r.ms);
  return `${what}: round ${spread(roundMs, (x) => ms(x))}, i.e. ${fixed(p50(roundMs) / ideal, 3)}× ideal (p50) · ${fixed(p95(roundMs) / ideal, 3)}× (p95); POST answered after ${spread(
    m.rounds.map((r) => r.created),
    (x) => ms(x),
  )}; both sides ready after ${spread(
    m.rounds.map((r) => r.ready),
    (x) => ms(x),
  )}; vote ${spread(
    m.rounds.map((r) => r.ms - r.ready),
    (x) => ms(x),
  )}; cores used (${fixed(m.seconds, 1)} s): ${coresUsed(m.cpu, m.seconds)}`;
}

export async function comparisonRoundBench(ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const [stub, server] = [await ctx.stub(), await ctx.quorum()];
  stub.setProfile("round-slow", { answer: SLOW, review: { delayMs: 0 } });
  stub.setProfile("round-fast", { answer: FAST, review: { delayMs: 0 } });
  const slow = await streamedMs(stub, "round-slow");
  const fast = await streamedMs(stub, "round-fast");
  const ideal = p50(slow);

  const quorum = quorumArena(server.url);
  const { rounds, seconds, cpu, lockstep } = await measure(server, quorum, ideal);
  const floor = await relayFloors(ctx, stub, ideal);
  const profiled = await ctx.profile(server, () => pool(CONCURRENT, CONCURRENT, (i) => round(quorum, 1000 + i)));
  const roundMs = rounds.map((r) => r.ms);
  const ratios = roundMs.map((x) => x / ideal);
  const share = (m: Measured) => ms(p50(roundMs) - p50(m.rounds.map((r) => r.ms)));
  const target = 1.1;
  return {
    name,
    benchmark: `comparison round: prompt → both sides streamed → vote, ${CONCURRENT} concurrent`,
    baseline: `ideal = slower side's stub latency, streamed directly: ${ms(ideal)} (faster side ${ms(p50(fast))})`,
    result: `${fixed(p50(ratios), 3)}× ideal (p50) · ${fixed(p95(ratios), 3)}× (p95); round p50 ${ms(p50(roundMs))}`,
    target: `≤ ${target} × ideal`,
    verdict: p50(ratios) <= target ? "met" : "MISSED",
    details: [
      `${ROUNDS} rounds, ${CONCURRENT} in flight at any time, the lanes' first starts ${ms(ideal / CONCURRENT)} apart, after ${WARMUP} warm-up rounds (the floors' pools the same); round p50 of each third, in start order: ${thirds(
        roundMs,
      )
        .map((x) => ms(x))
        .join(", ")}`,
      `round time (POST sent → vote's 201 received): ${spread(roundMs, (x) => ms(x))}`,
      `POST /api/comparisons answered after ${spread(
        rounds.map((r) => r.created),
        (x) => ms(x),
      )}; both sides ready (WebSocket) after ${spread(
        rounds.map((r) => r.ready),
        (x) => ms(x),
      )}`,
      `vote (ready → 201): ${spread(
        rounds.map((r) => r.ms - r.ready),
        (x) => ms(x),
      )}`,
      `cores used while the ${ROUNDS} rounds ran (${fixed(seconds, 1)} s): ${coresUsed(cpu, seconds)}`,
      floorLine(
        "floor under wrangler dev (the bench's relay Worker, the same pool: POST /round → WebSocket streaming both stub sides → POST vote; no Durable Object, storage, D1 or SDK)",
        floor.bare,
        ideal,
      ),
      floorLine(
        "floor with a Durable Object per round (POST /room: the round stored before the 201; the room streams both sides to hibernatable sockets and stores each as it ends; the vote stored before its 201; no D1, SDK, event log or rate limit)",
        floor.room,
        ideal,
      ),
      `in lockstep (${ROUNDS} more rounds, every lane started at once, so each step arrives in a burst of ${CONCURRENT}): Quorum round p50 ${lockstepLine(lockstep, ideal)}; floor ${lockstepLine(floor.bare.lockstep, ideal)}; floor with a Durable Object per round ${lockstepLine(floor.room.lockstep, ideal)}`,
      `Quorum's own share: ${share(floor.bare)} over the floor (round p50 − floor round p50), ${share(floor.room)} over the floor with a Durable Object per round`,
      ...profiled,
      `direct streams: slow side ${spread(slow, (x) => ms(x))}; fast side ${spread(fast, (x) => ms(x))}`,
    ],
    problems: [],
  };
}
