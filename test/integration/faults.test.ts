import { describe, expect, inject, it } from "vitest";
import { callsFor, releaseHold, scriptModel, waitForHeld, type Step } from "../helpers/stub-client";
import { client } from "../helpers/client";
import { createRun, finished, getRun } from "../helpers/runs";
import { createComparison, getComparison, openComparisonSocket, settled } from "../helpers/arena";
import { SCORE_KEYS, type RunDetail } from "../../worker/shared/run";

const stub = inject("stubUrl");
const WAIT = 45_000;
const PROVIDERS = ["openai", "anthropic", "google"] as const;
const ANSWER =
  "Water boils at 100 degrees Celsius at sea level, and at lower temperatures higher up, because the air pressure is lower there.";

/** What each model of the mixed run does when it answers; the reviewers also review, each with a slip of its own. */
const ANSWER_FAULTS = {
  "server-error": Array.from({ length: 4 }, (): Step => ({ status: 500 })),
  hang: [{ hang: true }],
  "rate-limited-told-when": [{ status: 429, retryAfter: 1 }, { text: ANSWER }],
  "rate-limited-untold": [{ status: 429 }, { text: ANSWER }],
  "stream-dropped": Array.from({ length: 4 }, (): Step => ({ text: ANSWER, breakAfterChunks: 2 })),
  empty: [{ text: "" }],
} satisfies Record<string, Step[]>;
/** The reviewers, in the order every one of them ranks the others: the true order of the survivors. */
const REVIEWERS = [
  "rev-missing",
  "rate-limited-told-when",
  "rev-unknown",
  "rate-limited-untold",
  "rev-duplicate",
] as const;
type Role = keyof typeof ANSWER_FAULTS | (typeof REVIEWERS)[number];

interface Mixed {
  id: string;
  modelOf: Record<Role, string>;
}

/** A seeded shuffle, so each repetition puts the faults on different vendors' SDKs, the same way every time. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A review ranking the others in the true order, with `slip` applied to its ranking. */
function reviewBy(detail: RunDetail, modelOf: Record<Role, string>, reviewer: (typeof REVIEWERS)[number]) {
  const labelOf = (role: Role) => detail.answers.find((a) => a.modelId === modelOf[role])!.label;
  const judged = REVIEWERS.filter((r) => r !== reviewer).map(labelOf);
  const reviews = judged.map((label, i) => ({
    label,
    critique: `Answer ${label}, as good as its rank.`,
    scores: Object.fromEntries(SCORE_KEYS.map((k) => [k, 9 - i])),
  }));
  const ranking =
    reviewer === "rev-unknown"
      ? [judged[0], "Z", ...judged.slice(1)]
      : reviewer === "rev-duplicate"
        ? [...judged, judged[0]]
        : reviewer === "rev-missing"
          ? judged.slice(0, -1)
          : judged;
  return { reviews, ranking, confidence: 0.7 };
}

/** Starts one mixed run: answers first (the reviewers' held until their reviews are scripted with the labels they got). */
async function startMixed(round: number): Promise<Mixed> {
  const roles = [...Object.keys(ANSWER_FAULTS), ...REVIEWERS.filter((r) => r.startsWith("rev-"))] as Role[];
  const vendors = shuffled(
    roles.map((_, i) => PROVIDERS[i % 3]),
    round + 1,
  );
  const modelOf = Object.fromEntries(roles.map((role, i) => [role, `${vendors[i]}:f${round}-${role}`])) as Record<
    Role,
    string
  >;
  const name = (role: Role) => modelOf[role].slice(modelOf[role].indexOf(":") + 1);
  const hold = `faults-${round}`;
  for (const [role, steps] of Object.entries(ANSWER_FAULTS)) await scriptModel(stub, name(role as Role), steps);
  // No review starts before every answer is in, so holding these answers holds every review.
  const heldBack = REVIEWERS.filter((r) => r.startsWith("rev-"));
  for (const role of heldBack) await scriptModel(stub, name(role), [{ text: `${ANSWER} (${role})`, holdKey: hold }]);
  const id = await createRun({
    question: "At what temperature does water boil?",
    models: shuffled(roles, round + 7).map((role) => ({ id: modelOf[role] })),
    settings: { blind: false, concurrency: 16, timeoutMs: 4_000 },
  });
  const detail = await getRun(id);
  for (const reviewer of REVIEWERS)
    await scriptModel(stub, name(reviewer), [{ review: reviewBy(detail, modelOf, reviewer) }]);
  await waitForHeld(stub, hold, heldBack.length, WAIT);
  await releaseHold(stub, hold);
  return { id, modelOf };
}

async function checkMixed({ id, modelOf }: Mixed) {
  const detail = await finished(id, WAIT);
  const answer = (role: Role) => detail.answers.find((a) => a.modelId === modelOf[role])!;
  const name = (role: Role) => modelOf[role].slice(modelOf[role].indexOf(":") + 1);
  expect(detail.run.status).toBe("done");

  // each failure says why, in the answer's own detail
  expect(answer("server-error")).toMatchObject({ status: "failed", text: "" });
  expect(answer("server-error").error).toMatch(/server|500|overloaded|unavailable/i);
  expect(answer("hang")).toMatchObject({ status: "failed" });
  expect(answer("hang").error).toMatch(/timed out.*4 s/i);
  const dropped = answer("stream-dropped");
  expect(dropped).toMatchObject({ status: "failed", truncated: true });
  expect(dropped.text.length).toBeGreaterThan(0);
  expect(ANSWER.startsWith(dropped.text)).toBe(true);
  expect(dropped.error).toBeTruthy();
  expect(answer("empty")).toMatchObject({
    status: "failed",
    text: "",
    error: "The model returned no text. Retry it, or leave it out.",
  });
  for (const role of ["rate-limited-told-when", "rate-limited-untold"] as const) {
    expect(answer(role)).toMatchObject({ status: "done", text: ANSWER, error: null });
    expect((await callsFor(stub, name(role))).filter((c) => c.kind === "answer")).toHaveLength(2);
  }

  // only the answers that came back are reviewed, and every reviewer's slip is repaired, not fatal
  expect(detail.reviewers.map((r) => r.status)).toEqual(REVIEWERS.map(() => "done"));
  const survivors = REVIEWERS.map((r) => answer(r).label);
  for (const reviewer of detail.reviewers) {
    expect([...reviewer.ranking!].sort()).toEqual(survivors.filter((l) => l !== reviewer.reviewerLabel).sort());
    const packet = JSON.stringify(
      (await callsFor(stub, name(REVIEWERS.find((r) => answer(r).label === reviewer.reviewerLabel)!))).find(
        (c) => c.kind === "review",
      )!.body,
    );
    for (const gone of ["server-error", "hang", "stream-dropped", "empty"] as const)
      expect(packet).not.toContain(`### Answer ${answer(gone).label}`);
  }
  // the raw output keeps what was dropped from the ballot
  const rawOf = (role: (typeof REVIEWERS)[number]) =>
    detail.reviewers.find((r) => r.reviewerModelId === modelOf[role])!;
  expect(rawOf("rev-unknown").rawOutput).toContain('"Z"');
  expect(rawOf("rev-unknown").ranking).not.toContain("Z");
  expect(rawOf("rev-duplicate").ranking).toHaveLength(new Set(rawOf("rev-duplicate").ranking).size);
  // so the survivors are ranked in the order every reviewer gave
  expect(detail.aggregation!.finalRanking.map((e) => e.modelId)).toEqual(REVIEWERS.map((r) => modelOf[r]));
  expect(detail.aggregation!.finalRanking.map((e) => e.rank)).toEqual([1, 2, 3, 4, 5]);
}

describe("many faults at once", () => {
  it("a run with every kind of fault still ends, ranks the survivors and explains each failure", async () => {
    await checkMixed(await startMixed(0));
  }, 60_000);

  it("five such runs at once, the faults dealt to different vendors each time, all end the same way", async () => {
    const runs = [];
    for (let round = 1; round <= 5; round++) runs.push(await startMixed(round));
    for (const run of runs) await checkMixed(run);
  }, 120_000);
});

describe("comparisons with faults", () => {
  const SIDE_FAULTS: Record<string, { steps: Step[]; ends: "ready" | "failed"; error?: RegExp }> = {
    "side-error": {
      steps: Array.from({ length: 4 }, (): Step => ({ status: 503 })),
      ends: "failed",
      error: /server or network error/,
    },
    "side-dropped": {
      steps: Array.from({ length: 4 }, (): Step => ({ text: ANSWER, breakAfterChunks: 1 })),
      ends: "failed",
      error: /server or network error/,
    },
    "side-empty": { steps: [{ text: "  \n" }], ends: "failed", error: /returned no text/ },
    "side-limited": { steps: [{ status: 429, retryAfterMs: 20 }, { text: ANSWER }], ends: "ready" },
  };

  it("ends every turn, keeps a dropped side's text, hides the reasons while blind, and a retry mends each failed side", async () => {
    const started: { id: string; fault: string; model: string }[] = [];
    for (let round = 0; round < 3; round++) {
      for (const [fault, { steps }] of Object.entries(SIDE_FAULTS)) {
        const [a, b] = shuffled(PROVIDERS, round * 4 + fault.length);
        const model = `${a}:c${round}-${fault}`;
        await scriptModel(stub, `c${round}-${fault}`, steps);
        await scriptModel(stub, `c${round}-${fault}-other`, [{ text: "The other side answers plainly." }]);
        const { id } = await createComparison({
          prompt: "Why is the sky blue?",
          models: [model, `${b}:c${round}-${fault}-other`],
        });
        started.push({ id, fault, model });
      }
    }
    for (const { id, fault, model } of started) {
      const { ends, error } = SIDE_FAULTS[fault];
      const detail = await settled(id, WAIT);
      expect(detail.comparison.status, fault).toBe(ends);
      expect(detail.reveal).toBeNull();
      const sides = [detail.turns[0].left, detail.turns[0].right];
      if (ends === "ready") {
        expect(sides.every((s) => s.status === "done" && s.error === null)).toBe(true);
        continue;
      }
      const failed = sides.find((s) => s.status === "failed")!;
      expect(failed.error).toMatch(error!);
      expect(JSON.stringify(detail).toLowerCase()).not.toContain(model.split(":")[0]);
      if (fault === "side-dropped") {
        expect(failed.truncated).toBe(true);
        expect(failed.text.length).toBeGreaterThan(0);
        expect(ANSWER.startsWith(failed.text)).toBe(true);
      } else expect(failed).toMatchObject({ text: fault === "side-empty" ? "  \n" : "", truncated: false });

      await scriptModel(stub, model.slice(model.indexOf(":") + 1), [{ text: "Mended on the retry." }]);
      const socket = await openComparisonSocket(id);
      await socket.waitFor("snapshot");
      expect((await client.comparisons[":id"].retry.$post({ param: { id } })).status).toBe(202);
      await socket.waitFor("comparison.status", (e) => e.status === "ready", WAIT);
      socket.close();
      const mended = await getComparison(id);
      expect([mended.turns[0].left.text, mended.turns[0].right.text]).toContain("Mended on the retry.");
    }
  }, 120_000);
});
