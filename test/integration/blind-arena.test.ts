/** Before its first vote, nothing a blind comparison sends tells its providers apart (issue 25, items 3 and 4). */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { callsFor, scriptModel } from "../helpers/stub-client";
import { api } from "../helpers/runs";
import {
  castVote,
  createComparison,
  getComparison,
  openComparisonSocket,
  settled,
  type ComparisonSocket,
} from "../helpers/arena";
import type { ComparisonEvent } from "../../worker/shared/events";

const stub = inject("stubUrl");

const verdict = (winner: "A" | "B") => ({
  review: { winner, scores: { A: winner === "A" ? 8 : 5, B: winner === "B" ? 8 : 5 }, reasons: "Because." },
});

/** Every event a fresh client gets replayed from the start (`ws?since=0`), up to the latest status. */
async function replayed(id: string, last: (e: ComparisonEvent) => boolean): Promise<ComparisonEvent[]> {
  const socket: ComparisonSocket = await openComparisonSocket(id, 0);
  try {
    await socket.until(last, "the latest event");
    return [...socket.events];
  } finally {
    socket.close();
  }
}

const starts = (events: ComparisonEvent[]) => events.filter((e) => e.type === "side.started");

const spendRows = async () =>
  (await env.DB.prepare("SELECT count(*) AS n FROM spend_entries").first<{ n: number }>())!.n;

describe("a blind comparison's events", () => {
  it("start each side once, as attempt 1, though the Anthropic side drops its temperature and calls again; replayed the same after the vote", async () => {
    const { id } = await createComparison({
      prompt: "Hi",
      models: ["anthropic:fp-claude", "openai:fp-gpt"],
      params: { temperature: 0.7 },
    });
    await settled(id);
    const before = await replayed(id, (e) => e.type === "comparison.status" && e.status === "ready");
    expect(
      starts(before)
        .map((e) => [e.side, e.turn, e.attempt])
        .sort(),
    ).toEqual([
      ["left", 1, 1],
      ["right", 1, 1],
    ]);
    for (const e of before)
      expect(JSON.stringify(e)).not.toMatch(/attempt":[2-9]|temperature|dropped|anthropic|openai|cost/i);

    await castVote(id, "left");
    const after = await replayed(id, (e) => e.type === "vote.recorded");
    expect(starts(after)).toEqual(starts(before));
  });
});

describe("a judge request before the vote", () => {
  it("is answered and spent alike whether or not a judge is one of the sides, and the side is left out only after the vote", async () => {
    await scriptModel(stub, "jx-outside", [verdict("A"), verdict("B"), verdict("A"), verdict("B")]);
    const a = (await createComparison({ prompt: "Hi", models: ["openai:jx-left", "google:jx-right"] })).id;
    const b = (await createComparison({ prompt: "Hi", models: ["openai:jx-left", "google:jx-right"] })).id;
    await Promise.all([settled(a), settled(b)]);
    const spent = await spendRows();

    const withSide = await api(`/comparisons/${a}/judge`, {
      method: "POST",
      json: { judges: ["anthropic:jx-outside", "openai:jx-left"] },
    });
    const without = await api(`/comparisons/${b}/judge`, {
      method: "POST",
      json: { judges: ["anthropic:jx-outside", "anthropic:jx-other"] },
    });
    expect([withSide.status, await withSide.json()]).toEqual([without.status, await without.json()]);
    expect([withSide.status]).toEqual([202]);
    // Nothing is asked, so nothing is spent, before the vote.
    expect(await callsFor(stub, "jx-outside")).toHaveLength(0);
    expect(await callsFor(stub, "jx-left")).toHaveLength(2);
    expect(await spendRows()).toBe(spent);
    expect((await getComparison(a)).judges).toBeNull();

    const socket = await openComparisonSocket(a);
    await socket.waitFor("snapshot");
    await castVote(a, "left");
    const outside = await socket.waitFor("judge.completed", (e) => e.judge.judgeModelId === "anthropic:jx-outside");
    const side = await socket.waitFor("judge.completed", (e) => e.judge.judgeModelId === "openai:jx-left");
    socket.close();
    expect(outside.judge).toMatchObject({ status: "done", verdict: "left", flipped: false });
    expect(side.judge).toMatchObject({
      status: "failed",
      verdict: null,
      error: expect.stringMatching(/one of the two sides/),
    });
    // The side was never asked to judge: its two calls are its answers.
    expect(await callsFor(stub, "jx-left")).toHaveLength(2);
    const battles = await env.DB.prepare("SELECT judge FROM battles WHERE comparison_id = ? AND source = 'judge'")
      .bind(a)
      .all();
    expect(battles.results).toEqual([{ judge: "anthropic:jx-outside" }]);
  });
});
