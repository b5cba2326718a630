import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { VoteRows } from "../../worker/db/arena-queries";
import { voteWriterFor, WRITER_SHARDS } from "../../worker/rooms/vote-writer";
import { readyComparison } from "../helpers/arena";

/** A left win on comparison `id`, as a room would send it; with `key`, under that Idempotency-Key. */
function leftWin(id: string, left: string, right: string, n: number, key: string | null = null): VoteRows {
  const voteId = `writer-test-${id}-${n}`;
  const at = 1_900_000_000_000 + n;
  return {
    status: null,
    idempotency: key ? [key, id, JSON.stringify({ voteId }), at] : null,
    modelVotes: [[`${voteId}:1`, id, voteId, "left", left, "client:writer-test", at, "[]"]],
    battle: [`vote:${voteId}`, left, right, "model_a", "", at / 1000, 0, voteId, id, 1, 1, "{}"],
  };
}

const count = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;

describe("the vote writer", () => {
  it("writes votes sent together, each once, and fails only the one whose Idempotency-Key was already taken", async () => {
    const c = await readyComparison(["demo:concise", "demo:thorough"]);
    const id = c.comparison.id;
    const { left, right } = (await env.DB.prepare(
      "SELECT model1_id AS left, model2_id AS right FROM comparisons WHERE id = ?",
    )
      .bind(id)
      .first<{ left: string; right: string }>())!;
    const writer = voteWriterFor(env, id);
    expect(await writer.write(leftWin(id, left, right, 0, "writer-key-taken"))).toEqual({ ok: true });

    // Sent at once, they queue behind each other's transactions and share them; one of them reuses the key.
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        writer.write(leftWin(id, left, right, n + 1, n === 6 ? "writer-key-taken" : `writer-key-${n}`)),
      ),
    );
    expect(outcomes.map((o) => o.ok)).toEqual(Array.from({ length: 12 }, (_, n) => n !== 6));
    expect(outcomes[6].ok === false && outcomes[6].error).toMatch(/UNIQUE constraint failed: idempotency_keys.key/);

    // 1 + 11 votes: their model_votes rows, battles and keys, and nothing of the refused one.
    expect(
      await count("SELECT count(*) AS n FROM model_votes WHERE comparison_id = ? AND vote_id LIKE 'writer-test-%'", id),
    ).toBe(12);
    expect(
      await count("SELECT count(*) AS n FROM battles WHERE comparison_id = ? AND vote_id LIKE 'writer-test-%'", id),
    ).toBe(12);
    expect(await count("SELECT count(*) AS n FROM model_votes WHERE vote_id = ?", `writer-test-${id}-7`)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM idempotency_keys WHERE comparison_id = ?", id)).toBe(12);
  });

  it("spreads comparisons over its shards", () => {
    const shards = new Set(Array.from({ length: 200 }, (_, i) => voteWriterFor(env, `comparison-${i}`).id.toString()));
    expect(shards.size).toBe(WRITER_SHARDS);
  });
});
