/**
 * The soak's council half: runs of 4–6 models with a fault drawn (fixed seed) for every model's answer
 * call and review call, several runs in flight, each followed over its WebSocket (polling its detail when
 * the socket fails) until it ends or its deadline passes.
 */
import type { Step } from "../../test/helpers/stub/types";
import { openEvents } from "./client";
import type { BenchStub } from "./stub";
import { pool, sleep } from "./stats";
import type { CountingHttp, Random } from "./soak-http";

const ANSWER_TEXT =
  "The sky looks blue because air scatters short wavelengths of sunlight far more than long ones, so blue light reaches the eye from every direction.";
const OK_ANSWER: Step = { delayMs: 40, chunkDelayMs: 10, text: ANSWER_TEXT };
const OK_REVIEW: Step = { delayMs: 60 };
/** more than any retry policy asks for (QUORUM_MAX_ATTEMPTS, 4 by default), so "every attempt" holds */
const times = (n: number, step: Step): Step[] => Array.from({ length: n }, () => step);
const EVERY = 8;

/** Steps for a model's successive answer attempts; once they run out the model answers normally. */
export const ANSWER_FAULTS = {
  healthy: { weight: 30, steps: [OK_ANSWER], fatal: false },
  "500, then ok": { weight: 7, steps: [{ status: 500 }, OK_ANSWER], fatal: false },
  "500 every attempt": { weight: 4, steps: times(EVERY, { status: 500 }), fatal: true },
  "429 with retry-after 1 s, then ok": {
    weight: 6,
    steps: [{ status: 429, retryAfter: 1, retryDelay: "1s" }, OK_ANSWER],
    fatal: false,
  },
  "429 without retry-after, then ok": { weight: 6, steps: [{ status: 429 }, OK_ANSWER], fatal: false },
  "hang (until the run's timeoutMs)": { weight: 5, steps: times(EVERY, { hang: true }), fatal: true },
  "stream dropped midway, then ok": {
    weight: 6,
    steps: [{ ...OK_ANSWER, breakAfterChunks: 2 }, OK_ANSWER],
    fatal: false,
  },
  "stream dropped midway every attempt": {
    weight: 3,
    steps: times(EVERY, { ...OK_ANSWER, breakAfterChunks: 2 }),
    fatal: true,
  },
  "error event mid-stream, then ok": {
    weight: 4,
    steps: [{ ...OK_ANSWER, errorAfterChunks: 2 }, OK_ANSWER],
    fatal: false,
  },
  truncated: { weight: 6, steps: [{ ...OK_ANSWER, truncated: true }], fatal: false },
  "empty answer": { weight: 5, steps: [{ delayMs: 40, text: "" }], fatal: null },
} satisfies Record<string, { weight: number; steps: Step[]; fatal: boolean | null }>;
export type AnswerFault = keyof typeof ANSWER_FAULTS;
const FATAL_ANSWERS = (Object.keys(ANSWER_FAULTS) as AnswerFault[]).filter((k) => ANSWER_FAULTS[k].fatal === true);

export const REVIEW_FAULTS = {
  healthy: { weight: 40, steps: [OK_REVIEW] },
  "invalid review JSON once": { weight: 6, steps: [{ review: '{"ranking": ["A", oops' }, OK_REVIEW] },
  "invalid review JSON every attempt": {
    weight: 5,
    steps: times(EVERY, { review: "I liked them all, no JSON from me." }),
  },
  "500, then ok": { weight: 5, steps: [{ status: 500 }, OK_REVIEW] },
  "500 every attempt": { weight: 3, steps: times(EVERY, { status: 500 }) },
  "429 with retry-after 1 s, then ok": {
    weight: 4,
    steps: [{ status: 429, retryAfter: 1, retryDelay: "1s" }, OK_REVIEW],
  },
  "429 without retry-after, then ok": { weight: 4, steps: [{ status: 429 }, OK_REVIEW] },
  "hang (until the run's timeoutMs)": { weight: 3, steps: times(EVERY, { hang: true }) },
  "truncated review": { weight: 3, steps: [{ ...OK_REVIEW, truncated: true }] },
} satisfies Record<string, { weight: number; steps: Step[] }>;
export type ReviewFault = keyof typeof REVIEW_FAULTS;

const weights = <K extends string>(table: Record<K, { weight: number }>) =>
  Object.fromEntries(Object.entries(table).map(([k, v]) => [k, (v as { weight: number }).weight])) as Record<K, number>;

const PROVIDERS = ["openai", "anthropic", "google"] as const;
const TERMINAL = ["done", "partial", "failed", "cancelled"];

export interface PlannedModel {
  id: string;
  answer: AnswerFault;
  review: ReviewFault;
}

export interface PlannedRun {
  index: number;
  models: PlannedModel[];
  concurrency: number;
  /** every answer drawn from the fatal faults: the run should end failed */
  doomed: boolean;
}

export interface RunOutcome {
  plan: PlannedRun;
  id: string | null;
  /** the status in its detail after it ended (or at the deadline); "not created" when the POST failed */
  status: string;
  /** how the end was seen: the WebSocket's terminal event, or polling the detail */
  via: "ws" | "poll" | "none";
  seconds: number;
  answers: Record<string, string>;
  reviewers: Record<string, string>;
  /** anything odd about this run that is not a verdict of its own (socket trouble, event/detail disagreement) */
  notes: string[];
}

export interface RunsOptions {
  runs: number;
  inFlight: number;
  timeoutMs: number;
  deadlineMs: number;
}

export function planRuns(random: Random, opts: RunsOptions): PlannedRun[] {
  return Array.from({ length: opts.runs }, (_, index) => {
    const n = random.int(4, 6);
    const doomed = random.next() < 0.06;
    const models = Array.from({ length: n }, (_, j): PlannedModel => {
      const provider = random.pick(PROVIDERS);
      return {
        id: `${provider}:soak-r${index + 1}-m${j + 1}`,
        answer: doomed ? random.pick(FATAL_ANSWERS) : random.weighted(weights(ANSWER_FAULTS)),
        review: random.weighted(weights(REVIEW_FAULTS)),
      };
    });
    return { index, models, concurrency: random.int(3, n), doomed };
  });
}

/** Gives every planned model its own queue of steps at the stub (answers and reviews apart). */
export function scriptStub(stub: BenchStub, plans: PlannedRun[]) {
  for (const plan of plans)
    for (const m of plan.models) {
      const answers = [...ANSWER_FAULTS[m.answer].steps];
      const reviews = [...REVIEW_FAULTS[m.review].steps];
      stub.setProfile(m.id.slice(m.id.indexOf(":") + 1), {
        answer: () => answers.shift() ?? OK_ANSWER,
        review: () => reviews.shift() ?? OK_REVIEW,
      });
    }
}

interface Detail {
  run: { status: string };
  answers: { modelId: string | null; status: string; truncated: boolean; error: string | null }[];
  reviewers: { reviewerModelId: string | null; status: string; error: string | null }[];
}

/** "failed (Timed out: no complete answer within 8 s)": the error's first sentence, so like errors group together */
const withError = (status: string, error: string | null) =>
  status === "failed" && error ? `failed (${error.split(/(?<=[.:])\s/)[0].slice(0, 90)})` : status;

async function oneRun(http: CountingHttp, plan: PlannedRun, opts: RunsOptions): Promise<RunOutcome> {
  const t0 = performance.now();
  const deadline = Date.now() + opts.deadlineMs;
  const out: RunOutcome = {
    plan,
    id: null,
    status: "not created",
    via: "none",
    seconds: 0,
    answers: {},
    reviewers: {},
    notes: [],
  };
  const created = await http.call<{ id: string }>("POST /api/runs", "POST", "/api/runs", {
    question: `Soak run ${plan.index + 1}: why is the sky blue?`,
    models: plan.models.map((m) => ({ id: m.id })),
    settings: { concurrency: plan.concurrency, timeoutMs: opts.timeoutMs },
  });
  if (created.status !== 201) {
    out.notes.push(`POST /api/runs answered ${created.status}: ${JSON.stringify(created.body).slice(0, 200)}`);
    out.seconds = (performance.now() - t0) / 1000;
    return out;
  }
  const id = created.body.id;
  out.id = id;

  let wsEnd: string | null = null;
  try {
    const events = await openEvents(`${http.base}/api/runs/${id}/ws?since=0`);
    try {
      const end = await events.until(
        (e) =>
          e.type === "run.completed" ||
          e.type === "run.failed" ||
          e.type === "run.cancelled" ||
          (e.type === "snapshot" &&
            TERMINAL.includes(String((e.state as { run?: { status?: string } } | undefined)?.run?.status))),
        "the end of the run",
        Math.max(1, deadline - Date.now()),
      );
      wsEnd =
        end.event.type === "snapshot"
          ? `snapshot ${String((end.event.state as Detail).run.status)}`
          : `${end.event.type}${end.event.status ? ` ${String(end.event.status)}` : ""}`;
      out.via = "ws";
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (!message.startsWith("no the end of the run within")) {
        http.socketTrouble.push(`run ${id}: ${message.slice(0, 300)}`);
        out.notes.push(`WebSocket: ${message.slice(0, 200)}`);
      }
    } finally {
      events.close();
    }
  } catch (err) {
    http.socketTrouble.push(`run ${id}: ${err instanceof Error ? err.message : String(err)}`);
    out.notes.push("WebSocket did not open; polled instead");
  }

  // The detail decides: after the socket's end event (which should agree), or polled until the deadline.
  let detail: Detail | null = null;
  for (;;) {
    const got = await http.call<Detail>("GET /api/runs/:id", "GET", `/api/runs/${id}`);
    if (got.status === 200) {
      detail = got.body;
      if (TERMINAL.includes(detail.run.status)) {
        if (out.via === "none") out.via = "poll";
        break;
      }
      if (wsEnd) out.notes.push(`the socket said "${wsEnd}" but the detail still says ${detail.run.status}`);
    }
    if (Date.now() >= deadline) break;
    await sleep(wsEnd ? 250 : 1_000);
  }
  out.seconds = (performance.now() - t0) / 1000;
  if (!detail) {
    out.status = "no detail";
    return out;
  }
  out.status = TERMINAL.includes(detail.run.status) ? detail.run.status : `stuck (${detail.run.status})`;
  if (wsEnd && !wsEnd.endsWith(detail.run.status) && !(wsEnd === "run.failed" && detail.run.status === "failed"))
    out.notes.push(`the socket ended with "${wsEnd}", the detail says ${detail.run.status}`);
  for (const a of detail.answers)
    if (a.modelId)
      out.answers[a.modelId] = a.status === "done" && a.truncated ? "done (truncated)" : withError(a.status, a.error);
  for (const r of detail.reviewers)
    if (r.reviewerModelId) out.reviewers[r.reviewerModelId] = withError(r.status, r.error);
  return out;
}

export async function soakRuns(
  http: CountingHttp,
  plans: PlannedRun[],
  opts: RunsOptions,
  onEach?: (o: RunOutcome, done: number) => void,
): Promise<RunOutcome[]> {
  let done = 0;
  return pool(plans.length, opts.inFlight, async (i) => {
    const o = await oneRun(http, plans[i], opts);
    onEach?.(o, ++done);
    return o;
  });
}

/** fault → final status → count, over every planned model call of the runs that were created */
export function outcomeMatrix(outcomes: RunOutcome[], kind: "answer" | "review"): Map<string, Map<string, number>> {
  const matrix = new Map<string, Map<string, number>>();
  for (const o of outcomes) {
    if (!o.id) continue;
    for (const m of o.plan.models) {
      const fault = kind === "answer" ? m.answer : m.review;
      const status = (kind === "answer" ? o.answers[m.id] : o.reviewers[m.id]) ?? "(none)";
      const row = matrix.get(fault) ?? new Map<string, number>();
      row.set(status, (row.get(status) ?? 0) + 1);
      matrix.set(fault, row);
    }
  }
  return matrix;
}
