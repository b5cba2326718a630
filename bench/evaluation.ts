/**
 * An evaluation's throughput against its providers' caps: every call takes L at the stub, so with each provider
 * held to its cap (QUORUM_PROVIDER_CONCURRENCY) an evaluation can't finish before its busiest provider has made
 * all its calls in waves of its cap: ideal = max over providers of ⌈calls ÷ cap⌉ × L. The room's memory (the
 * isolate's JavaScript heap in use) is read as it starts and at every poll after; half-way and at the end it is the
 * lowest reading of a window (the heap as the last collection left it: the live data, not the garbage a collection
 * has yet to take), and should stay flat however many items there are. workerd's RSS is sampled too, but under `wrangler dev` it grows with
 * every request whatever the request does (bench/HISTORY.md, Soak), so it is shown, not judged.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { getJson, postJson } from "./lib/client";
import { type BenchContext, stubVars } from "./lib/context";
import { connectInspector, heapUsedMiB, liveHeapMiB } from "./lib/inspector";
import { cpuSecondsByName, memorySampler } from "./lib/processes";
import { describeProfile, profileOver } from "./lib/profile";
import type { Row } from "./lib/report";
import { fixed, ms, p50, sleep, spread, thousands } from "./lib/stats";
import type { BenchStub, Profile, WatchedCall } from "./lib/stub";
import { migrate, type Server, startWrangler, tempDir } from "./lib/wrangler";

const L_MS = 200;
const DEFAULT_ITEMS = 1000;
/** Balanced so both caps bind: openai makes 2 calls an item (2 ÷ 2), anthropic 5 (5 ÷ 4). Six in all: one room. */
const CAPS = { openai: 2, anthropic: 4 };
/**
 * Caps past one room's six: 24 in all, so the evaluation runs in four rooms of six (openai 2 + anthropic 4 each),
 * the caps dividing evenly over them; anthropic binds (5 calls an item ÷ 16 against openai's 2 ÷ 8).
 */
const SPREAD_CAPS = { openai: 8, anthropic: 16 };
const BASELINE = "openai:eval-bench-base";
const CONTESTANTS = [BASELINE, "openai:eval-bench-a", "anthropic:eval-bench-b"];
const JUDGE = "anthropic:eval-bench-judge";
const WARMUP_ITEMS = 6;
/** Throughput ≥ 90% of the ideal's, i.e. wall time ≤ ideal ÷ 0.9. */
const TARGET_SHARE = 0.9;
/** Flat: the JS heap grows by less than this share of the start's between the middle and the end. */
/** The share of calls finished that makes the half-way window, and the end's (which ends with the last reading). */
const HALF_WINDOW = [0.4, 0.6] as const;
const END_WINDOW = 0.85;
const FLAT_SHARE = 0.1;

const profile: Profile = {
  answer: { delayMs: L_MS, chunkDelayMs: 0, text: "An answer of a few words." },
  review: { delayMs: L_MS, review: { reasons: "A is clearer.", verdict: "A>B" } },
};

const providerOf = (model: string) => model.slice(0, model.indexOf(":"));

/** The calls each provider makes for one item: every contestant answers, the judge compares each with the baseline both ways. */
function callsPerItem(): Map<string, number> {
  const calls = new Map<string, number>();
  const add = (provider: string, n: number) => calls.set(provider, (calls.get(provider) ?? 0) + n);
  for (const c of CONTESTANTS) add(providerOf(c), 1);
  add(providerOf(JUDGE), 2 * (CONTESTANTS.length - 1));
  return calls;
}

function itemsFromArgs(): number {
  const i = process.argv.indexOf("--items");
  if (i < 0) return DEFAULT_ITEMS;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--items wants a whole number of items, got ${process.argv[i + 1]}`);
  return n;
}

interface CallCounts {
  done: number;
  failed: number;
  total: number;
}

interface Detail {
  status: string;
  error: string | null;
  progress: { answers: CallCounts; judgments: CallCounts };
}

async function createSet(url: string, name: string, items: number): Promise<string> {
  const created = await postJson<{ id: string }>(`${url}/api/prompt-sets`, {
    name,
    items: Array.from({ length: items }, (_, i) => ({ id: `q${i + 1}`, prompt: `Question ${i + 1}: why is it so?` })),
  });
  if (created.status !== 201)
    throw new Error(`POST /api/prompt-sets answered ${created.status}: ${JSON.stringify(created.body)}`);
  return created.body.id;
}

/**
 * Starts an evaluation of `setId` and polls it until it ends, telling `onPoll` the share of its calls finished;
 * its wall time runs from the POST to the poll that saw it end.
 */
async function evaluate(url: string, setId: string, onPoll: (finished: number) => Promise<void> = async () => {}) {
  const t0 = performance.now();
  const created = await postJson<{ id: string }>(`${url}/api/evaluations`, {
    promptSetId: setId,
    contestants: CONTESTANTS,
    baseline: BASELINE,
    judges: [JUDGE],
    settings: { timeoutMs: 60_000 },
  });
  if (created.status !== 201)
    throw new Error(`POST /api/evaluations answered ${created.status}: ${JSON.stringify(created.body)}`);
  for (;;) {
    const detail = await getJson<Detail>(`${url}/api/evaluations/${created.body.id}`);
    const { answers, judgments } = detail.progress;
    const finished = answers.done + answers.failed + judgments.done + judgments.failed;
    await onPoll(finished / (answers.total + judgments.total));
    if (["completed", "failed", "cancelled"].includes(detail.status)) {
      const wallMs = performance.now() - t0;
      if (detail.status !== "completed" || detail.error)
        throw new Error(`the evaluation ended ${detail.status}: ${detail.error ?? ""}`);
      return { wallMs, detail };
    }
    await sleep(250);
  }
}

type Caps = Record<string, number>;

/** The evaluation bench under caps that fit one room (`evaluation`). */
export const evaluationBench = (ctx: BenchContext, name: string) => capsBench(ctx, name, CAPS);
/** The same evaluation under caps past one room's six, spread over shard rooms (`spread-evaluation`). */
export const spreadEvaluationBench = (ctx: BenchContext, name: string) => capsBench(ctx, name, SPREAD_CAPS);

async function capsBench(ctx: BenchContext, name: string, caps: Caps): Promise<Omit<Row, "seconds">> {
  const items = itemsFromArgs();
  const [stub, snap] = [await ctx.stub(), await ctx.snapshot()];
  const server = await evaluationServer(ctx, stub, snap.config, caps);
  for (const model of [...CONTESTANTS, JUDGE]) stub.setProfile(model.slice(model.indexOf(":") + 1), profile);

  await evaluate(server.url, await createSet(server.url, "bench warm-up", WARMUP_ITEMS));
  const setId = await createSet(server.url, `bench ${items} items`, items);

  const perItem = callsPerItem();
  const before = new Map([...CONTESTANTS, JUDGE].map((m) => [m, stub.calls(m.slice(m.indexOf(":") + 1))]));
  const watch = stub.watch();
  const inspector = await connectInspector(server.inspectorPort);
  let memory: ReturnType<typeof memorySampler> | null = null;
  /** the isolate's JS heap when the evaluation had started; its lowest readings half-way and at the end */
  const heap: (number | null)[] = [null, null, null];
  const lowest = (at: 1 | 2, miB: number | null) => {
    if (miB !== null) heap[at] = Math.min(heap[at] ?? miB, miB);
  };
  let run: Awaited<ReturnType<typeof evaluate>>;
  let cpuAfter: { server: Record<string, number>; bench: NodeJS.CpuUsage } | null = null;
  /** the live heap (after a full collection) before the evaluation starts and after it ends: outside the timing */
  const live: (number | null)[] = [await liveHeapMiB(inspector), null];
  const cpuBefore = { server: cpuSecondsByName(server.pid), bench: process.cpuUsage() };
  const cpuCapturedBefore = cpuBefore.server;
  let profiled: string[] = [];
  try {
    const measured = () =>
      evaluate(server.url, setId, async (finished) => {
        if (!memory) {
          memory = memorySampler(server.pid, 500);
          heap[0] = await heapUsedMiB(inspector);
        } else if (finished >= HALF_WINDOW[0] && finished <= HALF_WINDOW[1]) lowest(1, await heapUsedMiB(inspector));
        else if (finished >= END_WINDOW) lowest(2, await heapUsedMiB(inspector));
      });
    if (process.argv.includes("--profile")) {
      const snap = await ctx.snapshot();
      const out = await profileOver(inspector, measured, path.join(snap.dir, "bundle/index.js.map"));
      run = out.value;
      profiled = describeProfile(out.summary, out.error).map(
        (line) => `profile (of this run: its figures include the profiler's cost): ${line}`,
      );
    } else run = await measured();
    lowest(2, await heapUsedMiB(inspector));
    cpuAfter = { server: cpuSecondsByName(server.pid), bench: process.cpuUsage(cpuBefore.bench) };
    live[1] = await liveHeapMiB(inspector);
  } finally {
    watch.stop();
    inspector.close();
  }
  const mem = (memory as ReturnType<typeof memorySampler> | null)?.stop();
  if (!mem) throw new Error("the memory sampler never started");

  const made = [...CONTESTANTS, JUDGE].map((m) => stub.calls(m.slice(m.indexOf(":") + 1)) - (before.get(m) ?? 0));
  const madeTotal = made.reduce((s, n) => s + n, 0);
  const planned = [...perItem.values()].reduce((s, n) => s + n, 0) * items;
  const waves = [...perItem].map(([provider, n]) => {
    const cap = caps[provider];
    return { provider, calls: n * items, cap, ms: Math.ceil((n * items) / cap) * L_MS };
  });
  const ideal = Math.max(...waves.map((w) => w.ms));
  const ratio = run.wallMs / ideal;
  const share = ideal / run.wallMs;

  const rss = [0, 0.5, 1].map((f) => mem.rssAt(f, "workerd"));
  const [start, middle, end] = rss;
  const [heapStart, heapMiddle, heapEnd] = heap;
  const [liveBefore, liveAfter] = live;
  // Judged on the heap after full collections when the inspector gives them, else on the polled readings.
  const flat =
    liveBefore !== null && liveAfter !== null
      ? liveAfter - liveBefore < FLAT_SHARE * liveBefore
      : heapStart !== null && heapMiddle !== null && heapEnd !== null && heapEnd - heapMiddle < FLAT_SHARE * heapStart;
  const cpu = cpuAfter as { server: Record<string, number>; bench: NodeJS.CpuUsage } | null;
  const cpuPerCall = (seconds: number) => `${fixed((seconds * 1000) / Math.max(1, madeTotal), 2)} ms`;
  const cpuLine = cpu
    ? `CPU per call made (user + system, the run's whole CPU over its calls; less sensitive to the machine's load than the wall time): ${Object.entries(
        cpu.server,
      )
        .map(([n, sec]) => `${n} ${cpuPerCall(sec - (cpuCapturedBefore[n] ?? 0))}`)
        .join(" · ")} · this process (the stub and the polls) ${cpuPerCall((cpu.bench.user + cpu.bench.system) / 1e6)}`
    : "CPU: not read";
  const providerCalls = watch.calls.filter((c) => c.kind !== "models");
  const atStub = providerCalls.map((c) => c.ended - c.arrived);
  const idle = idleSpells(providerCalls);
  const problems: string[] = [];
  if (madeTotal !== planned) problems.push(`the stub saw ${madeTotal} calls, the plan has ${planned}`);
  const { answers, judgments } = run.detail.progress;
  if (answers.failed + judgments.failed > 0)
    problems.push(`${answers.failed} answer(s) and ${judgments.failed} judgment(s) failed`);

  return {
    name,
    benchmark: `evaluation, ${thousands(items)} items × ${CONTESTANTS.length} contestants (one the baseline) + 1 judge, caps ${Object.entries(
      caps,
    )
      .map(([p, c]) => `${p}=${c}`)
      .join(",")}, L = ${L_MS} ms per call`,
    baseline: `ideal = max over providers of ⌈calls ÷ cap⌉ × L = ${waves
      .map((w) => `${w.provider} ⌈${thousands(w.calls)} ÷ ${w.cap}⌉ × ${L_MS} ms = ${fixed(w.ms / 1000, 1)} s`)
      .join(" · ")} → ${fixed(ideal / 1000, 1)} s`,
    result: `${fixed(share * 100, 1)}% of the ideal's throughput (wall ${fixed(run.wallMs / 1000, 1)} s = ${fixed(ratio, 3)}× ideal), ${fixed(madeTotal / (run.wallMs / 1000), 1)} calls/s; the isolate's JS heap ${heap.map((x) => (x === null ? "?" : fixed(x, 1))).join(" → ")} MiB (start → half-way → end), ${live.map((x) => (x === null ? "?" : fixed(x, 1))).join(" → ")} MiB live before → after: ${flat ? "flat" : "NOT flat"}`,
    target: `≥ ${TARGET_SHARE * 100}% of the ideal's throughput (DESIGN: ≤ 1.1 × ideal); JS heap flat (live after − live before < ${FLAT_SHARE * 100}% of before; without those, end − half-way < ${FLAT_SHARE * 100}% of start)`,
    verdict: share >= TARGET_SHARE && flat ? "met" : "MISSED",
    details: [
      `calls made: ${thousands(madeTotal)} (planned ${thousands(planned)}): ${[...CONTESTANTS, JUDGE].map((m, i) => `${m} ${thousands(made[i])}`).join(" · ")}`,
      `throughput: ${fixed(madeTotal / (run.wallMs / 1000), 1)} calls/s against the ideal's ${fixed(planned / (ideal / 1000), 1)} calls/s`,
      `one call at the stub (request in → response out): ${spread(atStub, (x) => ms(x))}; p50 over L: ${ms(p50(atStub) - L_MS, 1)}`,
      `calls in flight at the stub, on average from the first call's arrival to the last's end: ${fixed(idle.meanInFlight, 2)} of ${Object.values(caps).reduce((a, b) => a + b, 0)}; ${idle.spells} spell(s) with none in flight, ${fixed(idle.idleMs / 1000, 1)} s in all (longest ${ms(idle.longestMs)})`,
      cpuLine,
      `the isolate's live JS heap (in use right after the full collection a devtools heap snapshot makes; taken outside the timed run), MiB, before the evaluation / after it ended: ${live.map((x) => (x === null ? "?" : fixed(x, 1))).join(" / ")}`,
      `overhead over ideal: ${fixed((run.wallMs - ideal) / 1000, 1)} s; wall time from POST /api/evaluations sent to the poll (every 250 ms) that saw it completed`,
      `the isolate's JS heap in use (devtools Runtime.getHeapUsage, read at every poll; ? = no answer), MiB, at the start / the lowest while ${HALF_WINDOW.map((x) => x * 100).join("–")}% of the calls had finished / the lowest from ${END_WINDOW * 100}% to the end: ${heap.map((x) => (x === null ? "?" : fixed(x, 1))).join(" / ")}`,
      `workerd RSS (MiB; grows with every request under wrangler dev) at start / middle / end of the run: ${rss.map((x) => fixed(x, 1)).join(" / ")}; end − middle = ${fixed(end - middle, 1)} MiB (${fixed(((end - middle) / start) * 100, 1)}% of start); peak per process: ${Object.entries(
        mem.peakMiB,
      )
        .map(([n, v]) => `${n} ${fixed(v, 0)}`)
        .join(" · ")}`,
      `a warm-up evaluation of ${WARMUP_ITEMS} items ran first; its own Quorum (QUORUM_PROVIDER_CONCURRENCY set), fresh state`,
      ...profiled,
      ...server
        .output()
        .split("\n")
        .filter((l) => l.includes("EVALTIMING"))
        .slice(-3),
    ],
    problems,
  };
}

/**
 * From the stub's side: how many calls were in flight on average, and the spells when none was (the room between
 * calls: a step ending and the next alarm's starting).
 */
function idleSpells(calls: WatchedCall[]) {
  const edges = calls.flatMap((c) => [
    { at: c.arrived, d: 1 },
    { at: c.ended, d: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || b.d - a.d);
  let inFlight = 0;
  let busyArea = 0;
  let idleMs = 0;
  let longestMs = 0;
  let spells = 0;
  let last = edges[0]?.at ?? 0;
  for (const e of edges) {
    const span = e.at - last;
    busyArea += inFlight * span;
    if (inFlight === 0 && span > 0) {
      spells++;
      idleMs += span;
      longestMs = Math.max(longestMs, span);
    }
    inFlight += e.d;
    last = e.at;
  }
  const total = (edges.at(-1)?.at ?? 0) - (edges[0]?.at ?? 0);
  return { meanInFlight: total > 0 ? busyArea / total : 0, idleMs, longestMs, spells };
}

/** Quorum as the context starts it, with the bench's provider caps: a server of its own, stopped at the end. */
async function evaluationServer(ctx: BenchContext, stub: BenchStub, config: string, caps: Caps): Promise<Server> {
  const persistTo = await tempDir("evaluation");
  ctx.onClose(() => rm(persistTo, { recursive: true, force: true }));
  await migrate(persistTo, config);
  const setting = Object.entries(caps)
    .map(([p, c]) => `${p}=${c}`)
    .join(",");
  const server = await startWrangler({
    config,
    persistTo,
    vars: { ...stubVars(stub.url), QUORUM_PROVIDER_CONCURRENCY: setting },
  });
  ctx.onClose(() => server.stop());
  return server;
}
