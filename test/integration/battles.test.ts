import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { errorOf, leaderboard } from "../helpers/arena";
import { type Battle, referenceBradleyTerry, referenceElo, simulateBattles } from "../helpers/arena-reference";
import { type ExportQuery, exportedLines } from "../helpers/battle-export";
import { api } from "../helpers/runs";

interface ImportReport {
  importId: string;
  accepted: number;
  inserted: number;
  alreadyImported: number;
  rejected: number;
  errors: { line: number; message: string }[];
}

async function importBody(body: string, query = ""): Promise<Response> {
  return api(`/battles/import${query}`, { method: "POST", body, headers: { "content-type": "application/x-ndjson" } });
}

async function importBattles(battles: unknown[], query = ""): Promise<ImportReport> {
  const res = await importBody(battles.map((b) => JSON.stringify(b)).join("\n"), query);
  if (res.status !== 200) throw new Error(`import answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Model names unique to each test, so tests in this file don't share ratings. */
const named = (battles: Battle[], prefix: string) =>
  battles.map((b) => ({ ...b, model_a: `${prefix}${b.model_a}`, model_b: `${prefix}${b.model_b}` }));

describe("importing Chatbot Arena battle logs", () => {
  it("reports accepted and rejected lines with their numbers, and a retried chunk writes nothing twice", async () => {
    const body = [
      JSON.stringify({ model_a: "imp-x", model_b: "imp-y", winner: "model_a", tstamp: 1_700_000_000 }),
      JSON.stringify({ model_a: "imp-x", model_b: "imp-y", winner: "left", tstamp: 1_700_000_001 }),
      "{not json",
      JSON.stringify({
        model_a: "imp-y",
        model_b: "imp-x",
        winner: "tie (bothbad)",
        tstamp: 1_700_000_002,
        anony: true,
        language: "English",
        question_id: "q1",
      }),
      JSON.stringify({ model_a: "imp-x", model_b: "imp-x", winner: "tie", tstamp: 1_700_000_003 }),
    ].join("\n");
    const res = await importBody(body, "?importId=first-chunk&offset=100");
    expect(res.status).toBe(200);
    const report: ImportReport = await res.json();
    expect(report).toMatchObject({
      importId: "first-chunk",
      accepted: 2,
      inserted: 2,
      alreadyImported: 0,
      rejected: 3,
    });
    expect(report.errors.map((e) => e.line)).toEqual([102, 103, 105]);
    expect(report.errors[0].message).toMatch(/winner must be one of model_a, model_b, tie, tie \(bothbad\)/);

    const again: ImportReport = await (await importBody(body, "?importId=first-chunk&offset=100")).json();
    expect(again).toMatchObject({ accepted: 2, inserted: 0, alreadyImported: 2 });
    const stored = await env.DB.prepare(
      "SELECT id, language, question_id AS q FROM battles WHERE import_id = 'first-chunk' ORDER BY id",
    ).all();
    expect(stored.results).toEqual([
      { id: "import:first-chunk:101", language: null, q: null },
      { id: "import:first-chunk:104", language: "English", q: "q1" },
    ]);
  });

  it("answers a body none of whose lines is a battle with a 422 carrying the line errors, and writes nothing", async () => {
    const res = await importBody("garbage", "?importId=garbage");
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; message: string; details: ImportReport } };
    expect(body.error.code).toBe("nothing_imported");
    expect(body.error.message).toMatch(
      /^The one line of this import is not a battle, so nothing was imported \(line 1: not valid JSON: .+\)\. Fix the lines listed in details\.errors and send them again\.$/,
    );
    expect(body.error.details).toMatchObject({
      importId: "garbage",
      accepted: 0,
      inserted: 0,
      rejected: 1,
      errors: [{ line: 1 }],
    });

    const two = await importBody(
      ['{"model_a":"a"}', JSON.stringify({ model_a: "nul\u0000a", model_b: "b", winner: "tie", tstamp: 1 })].join("\n"),
      "?importId=no-good-line",
    );
    expect(two.status).toBe(422);
    const details = ((await two.json()) as { error: { message: string; details: ImportReport } }).error;
    expect(details.message).toMatch(/^All 2 lines of this import are not a battle/);
    expect(details.details.errors.map((e) => e.message)).toEqual([
      "model_b is missing",
      "model_a must not contain control or invisible characters; found U+0000",
    ]);
    const count = await env.DB.prepare(
      "SELECT count(*) AS n FROM battles WHERE import_id IN ('garbage', 'no-good-line')",
    ).first<{ n: number }>();
    expect(count!.n).toBe(0);
  });

  it("takes a JSON array as well as JSON Lines", async () => {
    const array = JSON.stringify([
      { model_a: "arr-a", model_b: "arr-b", winner: "model_b", tstamp: 1 },
      { model_a: "arr-b", model_b: "arr-a", winner: "tie", tstamp: 2 },
    ]);
    const report: ImportReport = await (await importBody(array, "?importId=array")).json();
    expect(report).toMatchObject({ accepted: 2, rejected: 0 });
  });

  it("refuses a request over QUORUM_IMPORT_MAX_LINES with 413 and writes none of it", async () => {
    const lines = Array.from({ length: 10_001 }, (_, i) =>
      JSON.stringify({ model_a: "big-a", model_b: "big-b", winner: "model_a", tstamp: i }),
    );
    const res = await importBody(lines.join("\n"), "?importId=too-big");
    expect(res.status).toBe(413);
    expect((await errorOf(res)).message).toMatch(/npm run import -- FILE/);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM battles WHERE import_id = 'too-big'").first<{
      n: number;
    }>();
    expect(count!.n).toBe(0);
    expect((await importBody("", "?importId=empty")).status).toBe(400);
  });

  it("gives the Bradley–Terry ratings and online Elo of Chatbot Arena's method on the same battles, with intervals that cover them", async () => {
    const strengths = { alpha: 1250, bravo: 1180, charlie: 1100, delta: 1030, echo: 980, foxtrot: 900 };
    const battles = named(simulateBattles(strengths, 6000, 7), "sim-");
    for (let i = 0; i < battles.length; i += 2500)
      await importBattles(battles.slice(i, i + 2500), `?importId=sim&offset=${i}`);
    const board = await leaderboard({ source: "import", order: "bt" });
    const rows = board.rows.filter((r) => r.modelId.startsWith("sim-"));
    expect(rows).toHaveLength(6);
    const bt = referenceBradleyTerry(battles);
    const elo = referenceElo(battles);
    // Other imported models in this file form their own components: compare differences from one model, as Arena's anchoring does.
    const base = rows.find((r) => r.modelId === "sim-alpha")!;
    for (const row of rows) {
      expect(row.bt! - base.bt!).toBeCloseTo(bt[row.modelId] - bt["sim-alpha"], 2);
      expect(row.elo!).toBeCloseTo(elo[row.modelId], 6);
      expect(row.ciLower!).toBeLessThan(row.bt!);
      expect(row.ciUpper!).toBeGreaterThan(row.bt!);
      expect(row.battles).toBe(battles.filter((b) => b.model_a === row.modelId || b.model_b === row.modelId).length);
      expect(row.appearances).toBe(row.battles);
    }
    expect(rows.map((r) => r.modelId)).toEqual(Object.keys(strengths).map((m) => `sim-${m}`));
  });

  it("replays online Elo in time order when older battles arrive after newer ones", async () => {
    const battles = named(simulateBattles({ one: 1100, two: 1000, three: 950 }, 900, 11), "late-");
    const late = battles.slice(0, 300);
    const early = battles.slice(300);
    await importBattles(early, "?importId=late&offset=300");
    const first = (await leaderboard({ source: "import" })).rows.find((r) => r.modelId === "late-one")!;
    expect(first.elo).toBeCloseTo(referenceElo(early)["late-one"], 6);
    await importBattles(late, "?importId=late&offset=0");
    const after = (await leaderboard({ source: "import" })).rows.filter((r) => r.modelId.startsWith("late-"));
    const expected = referenceElo(battles);
    for (const row of after) expect(row.elo!).toBeCloseTo(expected[row.modelId], 6);
  });
});

describe("exporting battle logs", () => {
  it("gives back the same battles in Arena's format, and anonymous=false battles only when flagged ones are asked for", async () => {
    const battles = [
      {
        model_a: "exp-a",
        model_b: "exp-b",
        winner: "model_a",
        tstamp: 1_600_000_000.5,
        question_id: "q-1",
        turn: 1,
        anony: true,
        language: "German",
        category: "maths",
      },
      {
        model_a: "exp-b",
        model_b: "exp-a",
        winner: "tie (bothbad)",
        tstamp: 1_600_000_001,
        anony: false,
        judge: "gpt-4",
        conv_metadata: { sum_assistant_a_tokens: 120 },
      },
    ];
    await importBattles(battles, "?importId=export");
    const read = async (query: ExportQuery) => (await exportedLines(query)).map((l) => JSON.parse(l));
    const counted = (await read({ source: "import" })).filter((b) => b.model_a.startsWith("exp-"));
    expect(counted).toEqual([{ ...battles[0], source: "import" }]);
    const everything = (await read({ source: "import", includeFlagged: "true" })).filter((b) =>
      b.model_a.startsWith("exp-"),
    );
    expect(everything).toEqual(battles.map((b) => ({ ...b, source: "import" })));
    const res = await api("/battles/export?source=import");
    expect(res.headers.get("content-type")).toMatch(/application\/x-ndjson/);
  });
});

describe("online Elo checkpoints", () => {
  it("after a battle is deleted, starts again from the checkpoint before it and gives the ratings of a full replay", async () => {
    const all = named(simulateBattles({ one: 1100, two: 1000, three: 950 }, 25_000, 5), "ckpt-");
    for (let offset = 0; offset < all.length; offset += 10_000)
      await importBattles(all.slice(offset, offset + 10_000), `?importId=ckpt&offset=${offset}`);
    const stream = "import|0|";
    const snapshots = async () =>
      (
        await env.DB.prepare(
          "SELECT stream, upto_rowid AS upto FROM elo_snapshots WHERE stream = ?1 OR stream LIKE ?1 || '|%' ORDER BY upto_rowid",
        )
          .bind(stream)
          .all<{ stream: string; upto: number }>()
      ).results;
    /** FastChat's Elo over the stream's battles as D1 now holds them, in time order. */
    const expected = async () =>
      referenceElo(
        (
          await env.DB.prepare(
            "SELECT model_a, model_b, winner, tstamp FROM battles WHERE source = 'import' AND flagged = 0 ORDER BY tstamp, rowid",
          ).all<Battle>()
        ).results,
      );
    /** The view once its online ratings are replayed: a room replays more than QUORUM_INLINE_REPLAY_BATTLES. */
    const replayed = async () => {
      for (let k = 0; k < 400; k++) {
        const board = await leaderboard({ source: "import", rounds: "0" });
        if (board.online.status === "ready") return board;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("the online ratings were not replayed after 400 reads");
    };
    const check = async () => {
      const want = await expected();
      const rows = (await replayed()).rows.filter((r) => r.modelId.startsWith("ckpt-"));
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(row.elo!).toBeCloseTo(want[row.modelId], 6);
    };

    await check();
    const written = await snapshots();
    const checkpoints = written.filter((s) => s.stream !== stream);
    expect(checkpoints.length).toBeGreaterThanOrEqual(2);

    // A battle just past the first checkpoint goes: that checkpoint stays, every snapshot that counted the battle goes.
    const victim = (await env.DB.prepare(
      "SELECT rowid AS id FROM battles WHERE import_id = 'ckpt' AND rowid > ? ORDER BY rowid LIMIT 1",
    )
      .bind(checkpoints[0].upto)
      .first<{ id: number }>())!.id;
    await env.DB.prepare("DELETE FROM battles WHERE rowid = ?").bind(victim).run();
    const left = await snapshots();
    expect(left.map((s) => s.stream)).toEqual(written.filter((s) => s.upto < victim).map((s) => s.stream));
    expect(left.length).toBeGreaterThanOrEqual(1);

    await check();
    // The replay from that checkpoint wrote the later checkpoints and the newest state again.
    expect((await snapshots()).length).toBeGreaterThanOrEqual(written.length - 1);
  });
});
