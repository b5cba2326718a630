/**
 * The offline demo as a new user meets it: the example list the page offers, a council of the three demo models on
 * an example (prepared answers, the intended ranking, a synthesis that reads as one), any other question answered
 * honestly, and a cancelled demo answer that stops cleanly.
 */
import { describe, expect, it } from "vitest";
import { DEMO_NOTICE, EXAMPLES } from "../../worker/providers/demo";
import { streamChunks } from "../../worker/providers/demo/chunks";
import { client, ok } from "../helpers/client";
import { castVote, createComparison, openComparisonSocket, settled } from "../helpers/arena";
import { createRun, finished, openSocket } from "../helpers/runs";

const DEMO3 = [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }];
const styleOf = (modelId: string | null) => (modelId ?? "").replace(/^demo:/, "") as "concise" | "thorough" | "skeptic";

describe("GET /api/examples", () => {
  it("lists the demo's example questions, in order, without their prepared answers", async () => {
    const { examples } = await ok(client.examples.$get());
    expect(examples).toEqual(EXAMPLES.map(({ id, title, kind, question }) => ({ id, title, kind, question })));
    expect(JSON.stringify(examples)).not.toContain(EXAMPLES[0].answers.thorough.text.slice(0, 40));
  });
});

describe("a council of the demo models", () => {
  it("answers an example with its three prepared answers, ranks them as intended and synthesises sensibly", async () => {
    const example = EXAMPLES.find((e) => e.id === "vector-database")!;
    const run = await finished(
      await createRun({
        question: example.question,
        models: DEMO3,
        settings: { synthesis: { modelId: "demo:thorough" } },
      }),
    );
    expect(run.run.status).toBe("done");
    for (const a of run.answers) expect(a.text).toBe(`${example.answers[styleOf(a.modelId)].text}\n\n${DEMO_NOTICE}`);
    expect(new Set(run.answers.map((a) => a.text)).size).toBe(3);

    const modelOf = (label: string) => run.answers.find((a) => a.label === label)!.modelId;
    expect(run.aggregation!.finalRanking.map((e) => styleOf(modelOf(e.label)))).toEqual(example.ranking);
    expect(run.aggregation!.finalRanking.map((e) => e.rank)).toEqual([1, 2, 3]);
    for (const r of run.reviews) {
      const target = run.answers.find((a) => a.id === r.targetAnswerId)!;
      expect(r.critique).toContain(example.answers[styleOf(target.modelId)].strengths[0]);
    }

    expect(run.synthesis!.status).toBe("done");
    expect(run.synthesis!.text.startsWith("**Use Qdrant**, unless your vectors must live")).toBe(true);
    expect(run.synthesis!.text).not.toMatch(/To answer|## Question/);
  });

  it("answers any other question honestly, quoting it in whole words, and its reviews say they judged form alone", async () => {
    const question =
      "How should we shard a multi-tenant Postgres database with metadata-heavy tenants when a few tenants hold most of the rows and the rest are tiny?";
    const run = await finished(await createRun({ question, models: DEMO3 }));
    expect(run.run.status).toBe("done");
    const cut =
      "“How should we shard a multi-tenant Postgres database with metadata-heavy tenants when a few tenants hold most of the…”";
    for (const a of run.answers) {
      expect(a.text).toMatch(/offline demo/i);
      expect(a.text).toContain(cut);
      expect(a.text).not.toContain(DEMO_NOTICE);
    }
    expect(new Set(run.answers.map((a) => a.text)).size).toBe(3);
    for (const r of run.reviews) expect(r.critique).toMatch(/^An offline-demo reply: /);
  });

  it("keeps a cancelled demo answer cut at a chunk, never inside a Markdown span or the notice", async () => {
    const example = EXAMPLES.find((e) => e.id === "gpu-memory")!;
    const id = await createRun({ question: example.question, models: [{ id: "demo:thorough" }] });
    const socket = await openSocket(id, 0);
    await socket.until((e) => e.type === "answer.delta" && e.seq > 20, "some of the answer");
    await ok(client.runs[":id"].cancel.$post({ param: { id } }));
    socket.close();
    const run = await finished(id);
    const [answer] = run.answers;
    const full = `${example.answers.thorough.text}\n\n${DEMO_NOTICE}`;
    const chunks = streamChunks(full);
    const whole = chunks.map((_, n) => chunks.slice(0, n + 1).join(""));
    expect(whole).toContain(answer.text);
    if (answer.status === "cancelled") expect(answer.text.length).toBeLessThan(full.length);
    expect(answer.text.split("**").length % 2).toBe(1);
    expect(answer.text.endsWith("_Offline ")).toBe(false);
  });
});

describe("an arena round of demo models on an example", () => {
  it("is judged by a demo judge for the better prepared answer, whichever side it landed on", async () => {
    const example = EXAMPLES.find((e) => e.id === "ab-significance")!;
    const { id } = await createComparison({
      prompt: example.question,
      models: ["demo:concise", "demo:skeptic"],
      judges: ["demo:thorough"],
    });
    const ready = await settled(id);
    const sides = ready.turns[0];
    expect(new Set([sides.left.text, sides.right.text]).size).toBe(2);
    const socket = await openComparisonSocket(id);
    await socket.waitFor("snapshot");
    const { reveal } = await castVote(id, "tie");
    const done = await socket.waitFor("judge.completed");
    socket.close();
    const better = reveal!.left.modelId === "demo:skeptic" ? "left" : "right";
    expect(done.judge).toMatchObject({ judgeModelId: "demo:thorough", verdict: better, flipped: false });
  });
});
