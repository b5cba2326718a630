import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { callsFor, scriptModel } from "../helpers/stub-client";
import { createRun, finished, getRun, openSocket } from "../helpers/runs";
import type { RunDetail } from "../../worker/shared/run";

const stub = inject("stubUrl");

/** Borda counted independently of the server, from the reviews the API reports. */
function bordaFromReviews(detail: RunDetail): Record<string, number> {
  const totals: Record<string, number> = Object.fromEntries(
    detail.answers.filter((a) => a.status === "done").map((a) => [a.label, 0]),
  );
  for (const reviewer of detail.reviewers.filter((r) => r.status === "done")) {
    const ranked = reviewer.ranking!.filter((l) => l !== reviewer.reviewerLabel && l in totals);
    ranked.forEach((label, i) => {
      totals[label] += ranked.length - 1 - i;
    });
  }
  return totals;
}

describe("a council run across the three vendors", () => {
  it("streams every answer through the SDKs, reviews blind with structured output, and ranks by Borda", async () => {
    await scriptModel(stub, "happy-gpt", [
      { text: "Paris is the capital of France. It sits on the Seine.", tokensIn: 11, tokensOut: 13 },
    ]);
    await scriptModel(stub, "happy-claude", [
      { text: "The capital of France is Paris, home of the Louvre.", tokensIn: 12, tokensOut: 14 },
    ]);
    await scriptModel(stub, "happy-gemini", [
      { text: "France's capital: Paris (about two million people).", tokensIn: 9, tokensOut: 12 },
    ]);
    const id = await createRun({
      question: "What is the capital of France?",
      models: [{ id: "openai:happy-gpt" }, { id: "anthropic:happy-claude" }, { id: "google:happy-gemini" }],
    });

    const socket = await openSocket(id);
    await socket.waitFor("snapshot");
    await socket.waitFor("run.completed");
    socket.close();

    const deltas = socket.events.filter((e) => e.type === "answer.delta");
    const detail = await getRun(id);
    expect(detail.run.status).toBe("done");
    const byModel = Object.fromEntries(detail.answers.map((a) => [a.modelId, a]));
    expect(byModel["openai:happy-gpt"].text).toBe("Paris is the capital of France. It sits on the Seine.");
    expect(byModel["anthropic:happy-claude"].text).toBe("The capital of France is Paris, home of the Louvre.");
    expect(byModel["google:happy-gemini"].text).toBe("France's capital: Paris (about two million people).");
    for (const a of detail.answers) {
      expect(a.status).toBe("done");
      expect(a.latencyMs).toBeGreaterThanOrEqual(0);
      // every answer arrived in more than one piece, and the pieces add up to the answer
      const own = deltas.filter((e) => e.type === "answer.delta" && e.answerId === a.id);
      expect(own.length).toBeGreaterThan(1);
      expect(own.map((e) => (e.type === "answer.delta" ? e.text : "")).join("")).toBe(a.text);
    }
    expect([byModel["openai:happy-gpt"].tokensIn, byModel["openai:happy-gpt"].tokensOut]).toEqual([11, 13]);
    expect([byModel["anthropic:happy-claude"].tokensIn, byModel["anthropic:happy-claude"].tokensOut]).toEqual([12, 14]);
    expect([byModel["google:happy-gemini"].tokensIn, byModel["google:happy-gemini"].tokensOut]).toEqual([9, 12]);

    // three reviewers, each judging the two answers that are not its own
    expect(detail.reviewers).toHaveLength(3);
    expect(detail.reviews).toHaveLength(6);
    for (const r of detail.reviewers) {
      expect(r.status).toBe("done");
      expect(r.ranking).toHaveLength(2);
      expect(r.ranking).not.toContain(r.reviewerLabel);
    }
    const agg = detail.aggregation!;
    expect(agg.voteBreakdown.bordaTotals).toEqual(bordaFromReviews(detail));
    for (const e of agg.finalRanking) expect(e.borda).toBe(bordaFromReviews(detail)[e.label]);
    expect(agg.finalRanking.map((e) => e.modelId).sort()).toEqual([
      "anthropic:happy-claude",
      "google:happy-gemini",
      "openai:happy-gpt",
    ]);

    // the review requests used each vendor's structured output and named no model
    const names = [
      "happy-gpt",
      "happy-claude",
      "happy-gemini",
      "openai",
      "anthropic",
      "google",
      "gpt",
      "claude",
      "gemini",
    ];
    const gptReview = (await callsFor(stub, "happy-gpt")).filter((c) => c.kind === "review");
    const claudeReview = (await callsFor(stub, "happy-claude")).filter((c) => c.kind === "review");
    const geminiReview = (await callsFor(stub, "happy-gemini")).filter((c) => c.kind === "review");
    expect(gptReview).toHaveLength(1);
    expect(claudeReview).toHaveLength(1);
    expect(geminiReview).toHaveLength(1);
    expect(gptReview[0].body.response_format.type).toBe("json_schema");
    expect(claudeReview[0].body.tool_choice.type).toBe("tool");
    expect(geminiReview[0].body.generationConfig.responseMimeType).toBe("application/json");
    for (const call of [...gptReview, ...claudeReview, ...geminiReview]) {
      const { model: _model, ...rest } = call.body;
      const sent = JSON.stringify(rest).toLowerCase();
      for (const name of names) expect(sent).not.toContain(name);
    }
  });

  it("keeps model ids hidden next to labels until the run is done, then reveals them", async () => {
    const id = await createRun({
      question: "Blind?",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }],
    });
    const socket = await openSocket(id);
    await socket.waitFor("run.completed");
    socket.close();
    const before = socket.events.filter((e) => e.type !== "run.completed" && e.type !== "aggregation.completed");
    for (const e of before) {
      if ("modelId" in e) expect(e.modelId).toBeNull();
      if ("reviewerModelId" in e) expect(e.reviewerModelId).toBeNull();
    }
    const done = socket.events.find((e) => e.type === "run.completed");
    expect(done?.type === "run.completed" && done.reveal.map((r) => r.modelId).sort()).toEqual([
      "demo:concise",
      "demo:skeptic",
      "demo:thorough",
    ]);
  });
});

describe("the order reviewers see the answers in", () => {
  it("is each reviewer's own, recorded in the vote math, and is the order of its review packet", async () => {
    const models = ["openai:order-a", "anthropic:order-b", "google:order-c", "openai:order-d"];
    const id = await createRun({ question: "Name three primes.", models: models.map((m) => ({ id: m })) });
    const detail = await finished(id);
    const reviewers = detail.aggregation!.voteBreakdown.reviewers;
    expect(reviewers).toHaveLength(4);
    for (const r of reviewers) {
      const judged = detail.answers.filter((a) => a.label !== r.reviewerLabel).map((a) => a.label);
      expect([...r.shownOrder!].sort()).toEqual(judged.sort());
      const set = detail.reviewers.find((x) => x.id === r.reviewSetId)!;
      const name = set.reviewerModelId!.slice(set.reviewerModelId!.indexOf(":") + 1);
      const [call] = (await callsFor(stub, name)).filter((c) => c.kind === "review");
      const prompt = JSON.stringify(call.body);
      const positions = r.shownOrder!.map((l) => prompt.indexOf(`### Answer ${l}`));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect([...positions].sort((x, y) => x - y)).toEqual(positions);
    }
    const bias = detail.aggregation!.voteBreakdown.positionBias!;
    expect(bias.reviewers).toBe(4);
    expect(bias.expected).toBeCloseTo(4 / 3, 9);
  });
});

describe("failures never block a run", () => {
  it("marks a model that answers 500 as failed with its reason and ranks the rest", async () => {
    await scriptModel(
      stub,
      "down-gpt",
      Array.from({ length: 4 }, () => ({ status: 500 })),
    );
    const id = await createRun({
      question: "Q1",
      models: [{ id: "openai:down-gpt" }, { id: "anthropic:fine-claude" }, { id: "google:fine-gemini" }],
    });
    const detail = await finished(id);
    expect(detail.run.status).toBe("done");
    const failed = detail.answers.find((a) => a.modelId === "openai:down-gpt")!;
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/500|server/i);
    expect(detail.aggregation!.finalRanking.map((e) => e.modelId).sort()).toEqual([
      "anthropic:fine-claude",
      "google:fine-gemini",
    ]);
    // four attempts for a transient error, then it gave up
    expect((await callsFor(stub, "down-gpt")).filter((c) => c.kind === "answer")).toHaveLength(4);
  });

  it("times out a model that never answers after timeoutMs", async () => {
    await scriptModel(stub, "slow-claude", [{ hang: true }]);
    const id = await createRun({
      question: "Q2",
      models: [{ id: "anthropic:slow-claude" }, { id: "openai:quick-gpt" }, { id: "google:quick-gemini" }],
      settings: { timeoutMs: 1500 },
    });
    const detail = await finished(id);
    const slow = detail.answers.find((a) => a.modelId === "anthropic:slow-claude")!;
    expect(slow.status).toBe("failed");
    expect(slow.error).toMatch(/timed out.*1\.5 s/i);
    expect(detail.run.status).toBe("done");
    expect(detail.aggregation!.finalRanking).toHaveLength(2);
  });

  it("retries a 429 after its retry-after and then succeeds", async () => {
    await scriptModel(stub, "busy-gemini", [{ status: 429, retryAfterMs: 30 }, { text: "Second time lucky." }]);
    const id = await createRun({ question: "Q3", models: [{ id: "google:busy-gemini" }, { id: "demo:concise" }] });
    const detail = await finished(id);
    const busy = detail.answers.find((a) => a.modelId === "google:busy-gemini")!;
    expect(busy.status).toBe("done");
    expect(busy.text).toBe("Second time lucky.");
    expect((await callsFor(stub, "busy-gemini")).filter((c) => c.kind === "answer")).toHaveLength(2);
  });

  it("asks again once for review output that fails validation, then marks that review failed", async () => {
    await scriptModel(stub, "sloppy-gpt", [
      { text: "An answer." },
      { review: "this is not JSON at all" },
      { review: { ranking: [] } },
    ]);
    const id = await createRun({
      question: "Q4",
      models: [{ id: "openai:sloppy-gpt" }, { id: "demo:concise" }, { id: "demo:thorough" }],
    });
    const detail = await finished(id);
    const sloppy = detail.reviewers.find((r) => r.reviewerModelId === "openai:sloppy-gpt")!;
    expect(sloppy.status).toBe("failed");
    expect(sloppy.error).toMatch(/format/i);
    expect(sloppy.rawOutput).toContain("ranking");
    expect((await callsFor(stub, "sloppy-gpt")).filter((c) => c.kind === "review")).toHaveLength(2);
    // the two demo reviews still rank all three answers
    expect(detail.run.status).toBe("done");
    expect(detail.aggregation!.voteBreakdown.reviewers).toHaveLength(2);
    expect(detail.aggregation!.finalRanking).toHaveLength(3);
  });

  it("fails the run with a clear message when every model fails", async () => {
    await scriptModel(stub, "gone-gpt", [{ status: 401 }]);
    const id = await createRun({ question: "Q5", models: [{ id: "openai:gone-gpt" }] });
    const detail = await finished(id);
    expect(detail.run.status).toBe("failed");
    expect(detail.run.error).toMatch(/every model failed/i);
    expect(detail.answers[0].error).toMatch(/OPENAI_API_KEY/);
    expect(JSON.stringify(detail)).not.toContain(env.OPENAI_API_KEY);
  });
});
