import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { comparisonRoom } from "../../worker/api/comparisons";
import { castVote, getComparison, readyComparison, withdraw } from "../helpers/arena";
import { loadRunRecord, openDb } from "../../worker/db/queries";
import { SCORE_KEYS, runDetail } from "../../worker/shared/run";
import { api, createRun, finished, finishedAgain, getRun } from "../helpers/runs";

type Stored = Record<string, unknown> & { turns?: { left: Record<string, unknown>; right: Record<string, unknown> }[] };

describe("a room's record kept by the code before records had versions", () => {
  it("loads a comparison's record with its votes inline, and moves them to their own keys", async () => {
    const { comparison } = await readyComparison(["demo:concise", "demo:thorough"]);
    const cast = await castVote(comparison.id, "left");
    const before = await getComparison(comparison.id);
    const room = () => comparisonRoom(env, comparison.id);
    // The shape of the previous code: no version, votes inline, no holds, judges' spend nor side costs.
    await runInDurableObject(room(), (_instance, state) => {
      const kv = state.storage.kv;
      const record = kv.get<Stored>("record")!;
      const votes = [...kv.list({ prefix: "vote:" })];
      for (const [key] of votes) kv.delete(key);
      const { version: _v, holds: _h, judgeSpend: _j, ...old } = record;
      for (const t of record.turns ?? []) for (const s of [t.left, t.right]) delete s.costUsd;
      kv.put("record", { ...old, turns: record.turns, votes: votes.map(([, vote]) => vote) });
    });
    await abortAllDurableObjects();

    // A side kept before costs were, has none: its call counts as one of unknown cost, as it did then.
    expect(await getComparison(comparison.id)).toEqual({
      ...before,
      totals: { ...before.totals, unknownCostCalls: 2 },
    });
    const stored = await runInDurableObject(room(), (_instance, state) => ({
      record: state.storage.kv.get<Stored>("record"),
      votes: [...state.storage.kv.list({ prefix: "vote:" })].length,
    }));
    expect(stored.votes).toBe(1);
    const res = await withdraw(cast.voteId, cast.receipt);
    expect(res.status).toBe(200);
    const after = await runInDurableObject(room(), (_instance, state) => ({
      record: state.storage.kv.get<Stored>("record"),
      votes: [...state.storage.kv.list({ prefix: "vote:" })].length,
    }));
    expect(after.votes).toBe(0);
    expect(after.record).toMatchObject({ version: 1, votes: [], holds: [], status: "ready" });
    expect(after.record?.judgeSpend).toEqual({ costUsd: 0, unknownCostCalls: 0 });
    expect(after.record?.turns?.[0].left.costUsd).toBeNull();
  });

  it("loads a run's record without holds, and takes a new evaluation on it", async () => {
    const id = await createRun({ question: "Old shape?", models: [{ id: "demo:concise" }, { id: "demo:skeptic" }] });
    await finished(id);
    const room = () => env.RUN_ROOM.get(env.RUN_ROOM.idFromName(id));
    await runInDurableObject(room(), (_instance, state) => {
      const { version: _v, holds: _h, ...old } = state.storage.kv.get<Stored>("record")!;
      state.storage.kv.put("record", old);
    });
    await abortAllDurableObjects();

    const again = await finishedAgain(id, async () => {
      const res = await api(`/runs/${id}/evaluate`, { method: "POST" });
      expect(res.status).toBe(202);
    });
    expect(again.run.status).toBe("done");
    const record = await runInDurableObject(room(), (_instance, state) => state.storage.kv.get<Stored>("record"));
    expect(record).toMatchObject({ version: 1, holds: [] });
  });

  it("loads a run kept before reviewers and rubrics, from its room and from D1, as the default rubric's", async () => {
    const id = await createRun({ question: "Older still?", models: [{ id: "demo:concise" }, { id: "demo:skeptic" }] });
    const ended = await finished(id);
    const room = () => env.RUN_ROOM.get(env.RUN_ROOM.idFromName(id));
    // What the code before them kept: no version, settings without reviewers, rubric or category, a tie decided by
    // mean correctness, and the six scores of every review.
    await runInDurableObject(room(), (_instance, state) => {
      const { version: _v, holds: _h, ...old } = state.storage.kv.get<Stored>("record")!;
      const aggregation = old.aggregation as { voteBreakdown: { tieBreaks: unknown[] } };
      aggregation.voteBreakdown.tieBreaks = [{ labels: ["A", "B"], decidedBy: "meanCorrectness" }];
      state.storage.kv.put("record", old);
    });
    await abortAllDurableObjects();
    const fromRoom = await room().detail();
    const fromD1 = await loadRunRecord(openDb(env.DB), id);
    for (const detail of [runDetail.parse(fromRoom), await getRun(id)]) {
      expect(detail.run.settings).not.toHaveProperty("rubric");
      expect(detail.reviewers.map((r) => r.id)).toEqual(ended.reviewers.map((r) => r.id));
      for (const v of detail.reviews) expect(Object.keys(v.scores)).toEqual([...SCORE_KEYS]);
    }
    expect(runDetail.parse(fromRoom).aggregation?.voteBreakdown.tieBreaks).toEqual([
      { labels: ["A", "B"], decidedBy: "meanCorrectness" },
    ]);
    expect(fromD1?.reviewSets.map((s) => [s.id, s.reviewerModelId])).toEqual(
      ended.reviewers.map((r) => [r.id, r.reviewerModelId]).sort(),
    );
  });
});
