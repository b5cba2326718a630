import { describe, expect, inject, it } from "vitest";
import { applyEvent } from "../../web/src/lib/run-state";
import type { RunDetail } from "../../worker/shared/run";
import { scriptModel } from "../helpers/stub-client";
import { createRun, getRun, openSocket } from "../helpers/runs";

const stub = inject("stubUrl");

/** What the page would show after folding every event into the snapshot it started from. */
async function followLive(id: string): Promise<RunDetail> {
  const socket = await openSocket(id);
  await socket.until(
    (e) => e.type === "run.completed" || e.type === "run.failed" || e.type === "run.cancelled",
    "end of the run",
  );
  socket.close();
  const [snapshot, ...events] = socket.events;
  if (snapshot.type !== "snapshot") throw new Error(`the first event was ${snapshot.type}`);
  const state = structuredClone(snapshot.state);
  for (const event of events) if (event.type !== "snapshot") applyEvent(state, event);
  return state;
}

const comparable = (d: RunDetail) => ({
  ...d,
  reviewers: [...d.reviewers].sort((a, b) => a.id.localeCompare(b.id)),
  reviews: [...d.reviews].sort((a, b) => a.id.localeCompare(b.id)),
});

describe("the page's copy of a run, built from live events", () => {
  it("ends equal to what the API reports for a finished run", async () => {
    const id = await createRun({
      question: "Fold me",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }],
    });
    const live = await followLive(id);
    const stored = await getRun(id);
    expect(live.run.status).toBe("done");
    expect(comparable(live)).toEqual(comparable(stored));
  });

  it("ends equal to the API for a blind run with a judge-only reviewer and a rubric, the judge named at the end", async () => {
    const id = await createRun({
      question: "Fold a judge",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }],
      settings: {
        reviewers: ["demo:skeptic"],
        rubric: { dimensions: [{ key: "accuracy", description: "Are the facts right?", weight: 2 }] },
      },
    });
    const live = await followLive(id);
    const stored = await getRun(id);
    expect(stored.reviewers.map((r) => [r.reviewerModelId, r.reviewerLabel])).toEqual([["demo:skeptic", null]]);
    expect(comparable(live)).toEqual(comparable(stored));
  });

  it("ends equal to the API for a run with a failed answer and a failed review", async () => {
    await scriptModel(stub, "fold-down", [{ status: 404 }]);
    await scriptModel(stub, "fold-sloppy", [{ text: "A fine answer." }, { review: "nope" }, { review: "still nope" }]);
    const id = await createRun({
      question: "Fold failures",
      models: [
        { id: "openai:fold-down" },
        { id: "google:fold-sloppy" },
        { id: "demo:concise" },
        { id: "demo:skeptic" },
      ],
    });
    const live = await followLive(id);
    const stored = await getRun(id);
    expect(stored.answers.find((a) => a.modelId === "openai:fold-down")!.status).toBe("failed");
    expect(stored.reviewers.find((r) => r.reviewerModelId === "google:fold-sloppy")!.status).toBe("failed");
    expect(comparable(live)).toEqual(comparable(stored));
  });

  it("ends equal to the API for a run with a synthesis, streamed after the ranking", async () => {
    const id = await createRun({
      question: "Fold a synthesis",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }],
      settings: { synthesis: { modelId: "demo:thorough" } },
    });
    const live = await followLive(id);
    const stored = await getRun(id);
    expect(stored.synthesis!.status).toBe("done");
    expect(comparable(live)).toEqual(comparable(stored));
  });
});
