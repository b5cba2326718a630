/**
 * Live latency: from the moment the stub hands a chunk to its socket to the moment a WebSocket client of the
 * run (or comparison) receives it, against the same chunk read straight from the stub over loopback.
 * Every chunk carries a unique marker, so each is timed on its own.
 */
import { openEvents, postJson } from "./lib/client";
import type { BenchContext } from "./lib/context";
import { startRelay, stubCompletions, stubTarget } from "./lib/relay";
import type { Row } from "./lib/report";
import { fixed, ms, p50, p95, sleep, spread } from "./lib/stats";
import { markedText, markersIn, type BenchStub } from "./lib/stub";

const CHUNKS = 40;
const CHUNK_GAP_MS = 20;
/** the first chunk comes this long after the call, so the client's socket is open before anything streams */
const FIRST_BYTE_MS = 400;
const TRIALS = 5;

const liveProfile = {
  answer: () => ({ delayMs: FIRST_BYTE_MS, chunkDelayMs: CHUNK_GAP_MS, text: markedText(CHUNKS) }),
  review: { delayMs: 0 },
};

/** Latency of each marked chunk from the stub's write to this process reading it over a direct HTTP stream. */
async function directSamples(stub: BenchStub, model: string, streams: number): Promise<number[]> {
  const one = async () => {
    const res = await fetch(stubCompletions(stub.url), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-bench-openai" },
      body: JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    const out: number[] = [];
    const decoder = new TextDecoder();
    let carry = "";
    for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
      const at = performance.now();
      // A marker split across two reads is found in the carried tail.
      const text = carry + decoder.decode(part, { stream: true });
      carry = text.slice(-24);
      for (const m of new Set(markersIn(text))) {
        const sent = stub.sentAt(m);
        if (sent !== undefined && !seen.has(m)) {
          seen.add(m);
          out.push(at - sent);
        }
      }
    }
    return out;
  };
  const seen = new Set<string>();
  return (await Promise.all(Array.from({ length: streams }, one))).flat();
}

/** The latencies of the first `EARLY` chunks of each stream, apart (a stream's start costs more). */
const EARLY = 3;
const early: { run: number[]; comparison: number[] } = { run: [], comparison: [] };

/** Latency of each marked chunk from the stub's write to a WebSocket client receiving the delta event. */
function collect(stub: BenchStub, out: number[], opened: () => number, earlyOut: number[]) {
  return (r: { at: number; event: { type: string; text?: unknown } }) => {
    if (!["answer.delta", "side.delta", "relay.delta"].includes(r.event.type) || typeof r.event.text !== "string")
      return;
    for (const m of markersIn(r.event.text)) {
      const sent = stub.sentAt(m);
      // Only chunks sent while the socket was open: a replayed event says nothing about live latency.
      if (sent === undefined || sent <= opened()) continue;
      out.push(r.at - sent);
      if (Number(/n(\d+)z/.exec(m)![1]) < EARLY) earlyOut.push(r.at - sent);
    }
  };
}

async function runSamples(
  url: string,
  stub: BenchStub,
  models: string[],
): Promise<{ samples: number[]; missed: number }> {
  const samples: number[] = [];
  let missed = 0;
  for (let t = 0; t < TRIALS; t++) {
    const created = await postJson<{ id: string }>(`${url}/api/runs`, {
      question: "Stream something.",
      models: models.map((id) => ({ id })),
      settings: { concurrency: models.length, autoEvaluate: false, timeoutMs: 60_000 },
    });
    if (created.status !== 201) throw new Error(`POST /api/runs answered ${created.status}`);
    let openedAt = Number.POSITIVE_INFINITY;
    const before = samples.length;
    const events = await openEvents(
      `${url}/api/runs/${created.body.id}/ws?since=0`,
      collect(stub, samples, () => openedAt, early.run),
    );
    openedAt = performance.now();
    try {
      await events.until((e) => e.type === "run.completed" || e.type === "run.failed", "the end of the run");
    } finally {
      events.close();
    }
    missed += models.length * CHUNKS - (samples.length - before);
  }
  return { samples, missed };
}

async function comparisonSamples(
  url: string,
  stub: BenchStub,
  models: [string, string],
): Promise<{ samples: number[]; missed: number }> {
  const samples: number[] = [];
  let missed = 0;
  for (let t = 0; t < TRIALS; t++) {
    const created = await postJson<{ id: string }>(`${url}/api/comparisons`, { prompt: "Stream something.", models });
    if (created.status !== 201)
      throw new Error(`POST /api/comparisons answered ${created.status}: ${JSON.stringify(created.body)}`);
    let openedAt = Number.POSITIVE_INFINITY;
    const before = samples.length;
    const events = await openEvents(
      `${url}/api/comparisons/${created.body.id}/ws?since=0`,
      collect(stub, samples, () => openedAt, early.comparison),
    );
    openedAt = performance.now();
    try {
      await events.until(
        (e) => e.type === "comparison.status" && (e.status === "ready" || e.status === "failed"),
        "both sides answered",
      );
    } finally {
      events.close();
    }
    missed += 2 * CHUNKS - (samples.length - before);
  }
  return { samples, missed };
}

/**
 * The floor under any live event in `wrangler dev`: the bench's relay Worker (relay-worker/) fetching the
 * stub's stream and sending each chunk to a WebSocket, with no Durable Object, storage or SDK.
 */
async function relayFloor(ctx: BenchContext, stub: BenchStub): Promise<number[]> {
  const relay = await startRelay(ctx);
  const samples: number[] = [];
  const ignored: number[] = [];
  try {
    const one = async () => {
      let openedAt = Number.POSITIVE_INFINITY;
      const events = await openEvents(
        `${relay.url}/relay?${stubTarget(stub.url)}&model=live-direct`,
        collect(stub, samples, () => openedAt, ignored),
      );
      openedAt = performance.now();
      try {
        await events.until((e) => e.type === "relay.done", "the end of the relayed stream");
      } finally {
        events.close();
      }
    };
    await Promise.all([one(), one()]); // warm-up
    samples.length = 0;
    for (let t = 0; t < TRIALS * 2; t++) await Promise.all([one(), one()]);
  } finally {
    await relay.stop();
  }
  return samples;
}

export async function liveLatencyBench(ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const [stub, server] = [await ctx.stub(), await ctx.quorum()];
  const models = ["live-a", "live-b"];
  for (const m of [...models, "live-direct"]) stub.setProfile(m, liveProfile);
  const ids = models.map((m) => `openai:${m}`);

  await runSamples(server.url, stub, ids); // warm-up
  early.run.length = 0;
  const direct: number[] = [];
  const run: number[] = [];
  const comparison: number[] = [];
  let missed = 0;
  // Alternate, so a noisy minute on the machine hits all three alike.
  for (let round = 0; round < 2; round++) {
    for (let t = 0; t < TRIALS; t++) direct.push(...(await directSamples(stub, "live-direct", 2)));
    const r = await runSamples(server.url, stub, ids);
    const c = await comparisonSamples(server.url, stub, ids as [string, string]);
    run.push(...r.samples);
    comparison.push(...c.samples);
    missed += r.missed + c.missed;
    await sleep(100);
  }
  const floor = await relayFloor(ctx, stub);
  const addedRun = p50(run) - p50(direct);
  const addedCmp = p50(comparison) - p50(direct);
  const target = 5;
  const f = (x: number) => ms(x, 2);
  return {
    name,
    benchmark: "live latency: provider chunk sent → WebSocket client receives it",
    baseline: `the same chunks read straight from the stub over loopback: ${spread(direct, f)}`,
    result: `added p50: run ${f(addedRun)}, comparison ${f(addedCmp)}; p95 end to end: run ${f(p95(run))}, comparison ${f(p95(comparison))} (direct ${f(p95(direct))})`,
    target: `p50 added ≤ ${target} ms, p95 printed`,
    verdict: addedRun <= target && addedCmp <= target ? "met" : "MISSED",
    details: [
      `run (answer.delta): ${spread(run, f)}`,
      `comparison (side.delta): ${spread(comparison, f)}`,
      `direct loopback (same stub, fetch from this process): ${spread(direct, f)}`,
      `the first ${EARLY} chunks of each stream: run ${spread(early.run, f)}; comparison ${spread(early.comparison, f)}`,
      `floor under wrangler dev (the bench's relay Worker: fetch the stub's stream, send each chunk to a WebSocket; no Durable Object, storage or SDK): ${spread(floor, f)}, i.e. ${f(p50(floor) - p50(direct))} added at p50 — Quorum's own share is then run ${f(p50(run) - p50(floor))}, comparison ${f(p50(comparison) - p50(floor))}`,
      `added p95 (p95 minus direct p95): run ${f(p95(run) - p95(direct))}, comparison ${f(p95(comparison) - p95(direct))}`,
      `${CHUNKS} chunks ${CHUNK_GAP_MS} ms apart per stream, two streams at a time, ${TRIALS * 2} runs and ${TRIALS * 2} comparisons; chunks not seen live: ${missed}`,
      `ratio of p50s (end to end / direct): run ${fixed(p50(run) / p50(direct))}×, comparison ${fixed(p50(comparison) / p50(direct))}×`,
    ],
    problems: missed > 0 ? [`${missed} marked chunk(s) never reached the WebSocket client live`] : [],
  };
}
