/**
 * Council run wall time against its ideal: every call takes L at the stub, so a run can't beat
 * (waves per phase) × (one streamed answer + one structured review), each timed directly against the same stub.
 */
import OpenAI from "openai";
import { reviewJsonSchema } from "../worker/council/review-schema";
import { getJson, openEvents, postJson, type Received } from "./lib/client";
import type { BenchContext } from "./lib/context";
import type { Row } from "./lib/report";
import { fixed, ms, p50, p95, spread } from "./lib/stats";
import type { BenchStub, Profile } from "./lib/stub";

export const L_MS = 300;
/** Answers: first byte after 100 ms, then 9 chunks 25 ms apart (three words each): L in all. */
const ANSWER_TEXT = Array.from({ length: 27 }, (_, i) => `word${i}`).join(" ");
export const councilProfile: Profile = {
  answer: { delayMs: 100, chunkDelayMs: 25, text: ANSWER_TEXT },
  review: { delayMs: L_MS },
};

const TRIALS = 11;
/**
 * Runs before the measured ones. The first run on a fresh server wakes the Worker and its SDK code, and the
 * next few are still slower than the later ones (bench/HISTORY.md, Council, has the slope).
 */
const WARMUP_RUNS = 5;
const DIRECT_TRIALS = 7;

/** One streamed answer and one structured review, timed straight against the stub with the same SDK the Worker uses. */
export async function directCallTimes(stub: BenchStub, model: string, labels: string[]) {
  const client = new OpenAI({ apiKey: "sk-bench-openai", baseURL: `${stub.url}/v1`, maxRetries: 0 });
  const answers: number[] = [];
  const reviews: number[] = [];
  for (let i = 0; i < DIRECT_TRIALS; i++) {
    let t = performance.now();
    const stream = await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "Why is the sky blue?" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    answers.push(performance.now() - t);
    if (text.trim() !== ANSWER_TEXT) throw new Error(`direct answer came back different: ${text.slice(0, 80)}`);
    t = performance.now();
    await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: `Review the answers ${labels.join(", ")}.` }],
      response_format: {
        type: "json_schema",
        json_schema: { name: "review", strict: true, schema: reviewJsonSchema(labels) },
      },
    });
    reviews.push(performance.now() - t);
  }
  return { answerMs: p50(answers), reviewMs: p50(reviews), answers, reviews };
}

interface Trial {
  wallMs: number;
  /** provider-call latency as the room measured it (answer.completed / review.completed latencyMs) */
  answerLatency: number[];
  reviewLatency: number[];
  /** ms after the POST was sent */
  marks: Record<string, number>;
}

async function oneRun(stub: BenchStub, url: string, models: string[], concurrency: number): Promise<Trial> {
  const watch = stub.watch();
  const t0 = performance.now();
  const created = await postJson<{ id: string }>(`${url}/api/runs`, {
    question: "Why is the sky blue?",
    models: models.map((id) => ({ id })),
    settings: { concurrency, timeoutMs: 60_000 },
  });
  if (created.status !== 201)
    throw new Error(`POST /api/runs answered ${created.status}: ${JSON.stringify(created.body)}`);
  const postMs = performance.now() - t0;
  const events = await openEvents(`${url}/api/runs/${created.body.id}/ws?since=0`);
  try {
    const end = await events.until(
      (e) => e.type === "run.completed" || e.type === "run.failed" || e.type === "run.cancelled",
      "the end of the run",
      60_000,
    );
    if (end.event.type !== "run.completed" || end.event.status !== "done")
      throw new Error(`the run ended ${end.event.type} ${String(end.event.status)}`);
    const at = (r: Received | undefined) => (r ? r.at - t0 : Number.NaN);
    const of = (type: string) => events.received.filter((r) => r.event.type === type);
    const detail = await getJson<{ answers: { status: string }[]; reviewers?: unknown[] }>(
      `${url}/api/runs/${created.body.id}`,
    );
    const failed = detail.answers.filter((a) => a.status !== "done").length;
    if (failed) throw new Error(`${failed} answer(s) did not succeed`);
    if (of("review.completed").length !== models.length)
      throw new Error(`expected ${models.length} reviews, saw ${of("review.completed").length}`);
    const latencies = (type: string) => of(type).map((r) => Number(r.event.latencyMs));
    const calls = (kind: string) => watch.calls.filter((c) => c.kind === kind);
    const first = (xs: number[]) => Math.min(...xs) - t0;
    const last = (xs: number[]) => Math.max(...xs) - t0;
    return {
      wallMs: end.at - t0,
      answerLatency: latencies("answer.completed"),
      reviewLatency: latencies("review.completed"),
      marks: {
        "POST answered": postMs,
        "first answer request at the stub": first(calls("answer").map((c) => c.arrived)),
        "first answer.started": at(of("answer.started")[0]),
        "last answer sent by the stub": last(calls("answer").map((c) => c.ended)),
        "last answer.completed": at(of("answer.completed").at(-1)),
        "run.status reviewing": at(
          events.received.find((r) => r.event.type === "run.status" && r.event.status === "reviewing"),
        ),
        "first review request at the stub": first(calls("review").map((c) => c.arrived)),
        "first review.started": at(of("review.started")[0]),
        "last review sent by the stub": last(calls("review").map((c) => c.ended)),
        "last review.completed": at(of("review.completed").at(-1)),
        "run.completed": end.at - t0,
      },
    };
  } finally {
    watch.stop();
    events.close();
  }
}

export async function councilBench(
  ctx: BenchContext,
  name: string,
  models: number,
  concurrency: number,
): Promise<Omit<Row, "seconds">> {
  const [stub, server] = [await ctx.stub(), await ctx.quorum()];
  const ids = Array.from({ length: models }, (_, i) => `openai:council-${models}-${i + 1}`);
  for (const id of ids) stub.setProfile(id.slice("openai:".length), councilProfile);
  const waves = Math.ceil(models / concurrency);
  const labels = Array.from({ length: models }, (_, i) => String.fromCharCode(65 + i));
  stub.setProfile("council-direct", councilProfile);
  const direct = await directCallTimes(stub, "council-direct", labels);
  const ideal = waves * (direct.answerMs + direct.reviewMs);

  const warmup: number[] = [];
  for (let i = 0; i < WARMUP_RUNS; i++) warmup.push((await oneRun(stub, server.url, ids, concurrency)).wallMs / ideal);
  const trials: Trial[] = [];
  for (let i = 0; i < TRIALS; i++) trials.push(await oneRun(stub, server.url, ids, concurrency));
  const profiled = await ctx.profile(server, () => oneRun(stub, server.url, ids, concurrency));
  const ratios = trials.map((t) => t.wallMs / ideal);
  const target = 1.05;
  const marks = Object.keys(trials[0].marks).map((k) => `${k} ${ms(p50(trials.map((t) => t.marks[k])))}`);
  return {
    name,
    benchmark: `council run, ${models} models, concurrency ${concurrency}, L = ${L_MS} ms per call, streaming`,
    baseline: `ideal = ${waves} wave(s) × (streamed answer ${ms(direct.answerMs)} + review ${ms(direct.reviewMs)}) = ${ms(ideal)}, timed directly against the stub`,
    result: `${fixed(p50(ratios), 3)}× ideal (p50) · ${fixed(p95(ratios), 3)}× (p95); wall p50 ${ms(p50(trials.map((t) => t.wallMs)))}`,
    target: `≤ ${target} × ideal`,
    verdict: p50(ratios) <= target ? "met" : "MISSED",
    details: [
      `wall time / ideal per trial: ${ratios.map((r) => fixed(r, 3)).join(", ")} (${TRIALS} trials after ${WARMUP_RUNS} warm-up runs, which took ${warmup.map((r) => fixed(r, 3)).join(", ")})`,
      `wall time: ${spread(
        trials.map((t) => t.wallMs),
        (x) => ms(x),
      )}; from POST /api/runs sent to run.completed received on the run's WebSocket`,
      `direct calls (same stub, same profile, openai SDK from this process): answer ${spread(direct.answers, (x) => ms(x))}; review ${spread(direct.reviews, (x) => ms(x))}`,
      `where the time goes (p50, ms after the POST): ${marks.join(" · ")}`,
      `provider calls as the room timed them (latencyMs in its events): answers ${spread(
        trials.flatMap((t) => t.answerLatency),
        (x) => ms(x),
      )}; reviews ${spread(
        trials.flatMap((t) => t.reviewLatency),
        (x) => ms(x),
      )}`,
      `overhead over ideal (p50): ${ms(p50(trials.map((t) => t.wallMs)) - ideal)}, i.e. ${ms((p50(trials.map((t) => t.wallMs)) - ideal) / (2 * waves))} per wave`,
      ...profiled,
    ],
    problems: [],
  };
}
