/** lmarena's newer battle-log spelling (issue 26 item 7): `both_bad` read on import, written on request. */
import { describe, expect, it } from "vitest";
import { api } from "../helpers/runs";

const BATTLES = [
  { model_a: "fmt-a", model_b: "fmt-b", winner: "both_bad", tstamp: 1_700_000_000 },
  { model_a: "fmt-b", model_b: "fmt-a", winner: "model_a", tstamp: 1_700_000_001 },
  { model_a: "fmt-a", model_b: "fmt-b", winner: "tie (bothbad)", tstamp: 1_700_000_002 },
];

async function exported(query: string): Promise<{ model_a: string; winner: string }[]> {
  const res = await api(`/battles/export?source=import${query}`);
  expect(res.status).toBe(200);
  const text = new TextDecoder().decode(await res.arrayBuffer());
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { model_a: string; winner: string })
    .filter((b) => b.model_a.startsWith("fmt-"));
}

describe("battle-log spellings", () => {
  it("imports both_bad as both-bad and exports it in the spelling asked for", async () => {
    const res = await api("/battles/import?importId=formats", {
      method: "POST",
      body: BATTLES.map((b) => JSON.stringify(b)).join("\n"),
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ accepted: 3, rejected: 0 });

    expect((await exported("")).map((b) => b.winner)).toEqual(["tie (bothbad)", "model_a", "tie (bothbad)"]);
    expect((await exported("&format=fastchat")).map((b) => b.winner)).toEqual([
      "tie (bothbad)",
      "model_a",
      "tie (bothbad)",
    ]);
    expect((await exported("&format=lmarena")).map((b) => b.winner)).toEqual(["both_bad", "model_a", "both_bad"]);

    // Both-bad is a battle for both and a win for neither, whichever way it was spelled.
    const board = (await (await api("/leaderboard?source=import")).json()) as {
      rows: { modelId: string; wins: number; battles: number }[];
    };
    const a = board.rows.find((r) => r.modelId === "fmt-a")!;
    const b = board.rows.find((r) => r.modelId === "fmt-b")!;
    expect([a.wins, a.battles, b.wins, b.battles]).toEqual([0, 3, 1, 3]);
  });

  it("refuses a format it doesn't know", async () => {
    const res = await api("/battles/export?format=kaggle");
    expect(res.status).toBe(400);
  });
});
