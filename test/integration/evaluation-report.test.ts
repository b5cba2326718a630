/**
 * The report routes over D1 rows written as an evaluation leaves them (answers and judgments), so the figures
 * can be checked by hand: the room that writes them has its own tests.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { client, ok } from "../helpers/client";

type Verdict = "A>>B" | "A>B" | "A=B" | "B>A" | "B>>A";

async function seed(
  id: string,
  opts: { contestants: string[]; baseline: string; verdicts: Record<string, [Verdict, Verdict]> },
) {
  const setId = `set-${id}`;
  const db = env.DB;
  const items = Object.keys(opts.verdicts);
  const statements = [
    db
      .prepare("INSERT OR IGNORE INTO prompt_sets (id, name, items) VALUES (?, ?, ?)")
      .bind(setId, "report set", items.length),
    ...items.map((itemId, position) =>
      db
        .prepare(
          "INSERT OR IGNORE INTO prompt_set_items (set_id, position, item_id, prompt, category, reference) VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(setId, position, itemId, `Question ${itemId}?`, position % 2 ? "math" : "code", null),
    ),
    db
      .prepare(
        "INSERT INTO evaluations (id, name, prompt_set_id, method, contestants, judges, baseline, settings, status) VALUES (?, ?, ?, 'pairwise', ?, ?, ?, '{}', 'completed')",
      )
      .bind(
        id,
        `Evaluation ${id}`,
        setId,
        JSON.stringify(opts.contestants),
        JSON.stringify(["demo:skeptic"]),
        opts.baseline,
      ),
  ];
  const [x] = opts.contestants.filter((c) => c !== opts.baseline);
  for (const itemId of items) {
    for (const contestant of opts.contestants)
      statements.push(
        db
          .prepare(
            "INSERT INTO evaluation_answers (evaluation_id, item_id, contestant, sample, status, text, tokens_in, tokens_out, latency_ms, first_token_ms, cost_usd, completed_at) VALUES (?, ?, ?, 0, 'complete', ?, 10, ?, ?, 50, 0.002, 1)",
          )
          .bind(
            id,
            itemId,
            contestant,
            contestant === x ? "A short answer." : "## A longer answer\n\n- one\n- two",
            5,
            800,
          ),
      );
    const [shownFirst, shownSecond] = opts.verdicts[itemId];
    statements.push(
      db
        .prepare(
          "INSERT INTO evaluation_judgments (evaluation_id, item_id, sample, judge, first, second, status, verdict, reasons, cost_usd, completed_at) VALUES (?, ?, 0, 'demo:skeptic', ?, ?, 'complete', ?, ?, 0.001, 1700000000000)",
        )
        .bind(id, itemId, x, opts.baseline, shownFirst, `Reasons for ${itemId}, ${x} first.`),
      db
        .prepare(
          "INSERT INTO evaluation_judgments (evaluation_id, item_id, sample, judge, first, second, status, verdict, reasons, cost_usd, completed_at) VALUES (?, ?, 0, 'demo:skeptic', ?, ?, 'complete', ?, ?, 0.001, 1700000000000)",
        )
        .bind(id, itemId, opts.baseline, x, shownSecond, `Reasons for ${itemId}, baseline first.`),
    );
  }
  await db.batch(statements);
}

describe("an evaluation's report routes", () => {
  it("report, matrix, one item and every export agree with a hand count", async () => {
    // x wins q1 strongly both ways (3 + 3), ties q2 one way and loses the other (tie + 1 loss), flips on q3.
    await seed("eval-report-1", {
      contestants: ["demo:concise", "demo:thorough"],
      baseline: "demo:thorough",
      verdicts: { q1: ["A>>B", "B>>A"], q2: ["A=B", "A>B"], q3: ["A>B", "A>B"] },
    });
    const report = await ok(client.evaluations[":id"].report.$get({ param: { id: "eval-report-1" } }));
    const x = report.rows.find((r) => r.contestant === "demo:concise")!;
    // x: 6 + 0 + 1 = 7 wins, 0 + 1 + 1 = 2 losses, 1 tie: 10 games.
    expect(x.games).toBe(10);
    expect(x.observedWinRate).toBeCloseTo(7.5 / 10, 12);
    expect(x.displayName).toBe("Demo · Concise");
    // The judges' shown names come with the contestants', so no page shows a raw id.
    expect(report.names).toEqual({
      "demo:concise": { displayName: "Demo · Concise", modelId: null },
      "demo:thorough": { displayName: "Demo · Thorough", modelId: null },
      "demo:skeptic": { displayName: "Demo · Skeptic", modelId: null },
    });
    expect(x.costUsd).toBeCloseTo(0.006, 12);
    expect(report.rows.find((r) => r.contestant === "demo:thorough")!.bt).toBe(1000);
    expect(report.judgeSummaries).toEqual([
      expect.objectContaining({ judge: "demo:skeptic", judgments: 6, pairs: 3, flips: 1 }),
    ]);
    expect(report.categories.map((c) => c.category)).toEqual(["code", "math"]);

    const matrix = await ok(
      client.evaluations[":id"].matrix.$get({ param: { id: "eval-report-1" }, query: { filter: "flips" } }),
    );
    expect(matrix.rows.map((r) => r.itemId)).toEqual(["q3"]);
    expect(matrix.total).toBe(3);

    const item = await ok(
      client.evaluations[":id"].items[":itemId"].$get({ param: { id: "eval-report-1", itemId: "q2" } }),
    );
    expect(item.prompt).toBe("Question q2?");
    expect(item.answers.map((a) => a.contestant)).toEqual(["demo:concise", "demo:thorough"]);
    expect(item.judgments.map((j) => [j.first, j.verdict, j.reasons])).toEqual([
      ["demo:concise", "A=B", "Reasons for q2, demo:concise first."],
      ["demo:thorough", "A>B", "Reasons for q2, baseline first."],
    ]);

    const csv = await client.evaluations[":id"].export.$get({
      param: { id: "eval-report-1" },
      query: { format: "csv" },
    });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\n");
    expect(lines[0]).toBe(
      "item_id,category,demo:concise outcome,demo:concise score,demo:thorough outcome,demo:thorough score,flips",
    );
    expect(lines[1]).toBe("q1,code,win,1,baseline,,0");

    const md = await (
      await client.evaluations[":id"].export.$get({ param: { id: "eval-report-1" }, query: { format: "md" } })
    ).text();
    expect(md).toContain("# Evaluation eval-report-1");
    expect(md).toContain("| Demo · Concise |");
    expect(md).toContain("Flip rate");

    const battles = await (
      await client.evaluations[":id"].export.$get({ param: { id: "eval-report-1" }, query: { format: "battles" } })
    ).text();
    const rows = battles
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { winner: string; model_a: string });
    // 3 + 3 (q1) + 1 tie + 1 (q2) + 1 + 1 (q3): ten clean battles, one per game.
    expect(rows).toHaveLength(10);
    expect(rows.filter((r) => r.winner === "tie")).toHaveLength(1);
  });

  it("holds the judge's side against the arena's counted human votes on the same pair", async () => {
    // The judge favours x on both items (x wins both orders of q1, ties q2 both ways).
    await seed("eval-report-human", {
      contestants: ["openai:human-x", "openai:human-base"],
      baseline: "openai:human-base",
      verdicts: { q1: ["A>B", "B>A"], q2: ["A=B", "A=B"] },
    });
    // People: x 4, base 1, one tie — 6 counted votes for x, in two categories; three flagged votes for base and
    // a judge battle for base, which the figure leaves out (with them base would draw level).
    const battle = (id: string, a: string, b: string, winner: string, source = "human", flagged = 0) =>
      env.DB.prepare(
        "INSERT INTO battles (id, source, model_a, model_b, winner, category, tstamp, flagged) VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
      ).bind(id, source, a, b, winner, id.endsWith("c") ? "code" : "general", flagged);
    const [x, base] = ["openai:human-x", "openai:human-base"];
    await env.DB.batch([
      battle("hv-1", x, base, "model_a"),
      battle("hv-2", base, x, "model_b"),
      battle("hv-3c", x, base, "model_a"),
      battle("hv-4c", base, x, "model_b"),
      battle("hv-5", base, x, "model_a"),
      battle("hv-6", x, base, "tie"),
      ...[7, 8, 9].map((n) => battle(`hv-${n}`, base, x, "model_a", "human", 1)),
      battle("hv-judge", base, x, "model_a", "judge"),
    ]);
    const report = await ok(client.evaluations[":id"].report.$get({ param: { id: "eval-report-human" } }));
    expect(report.judgeHumanAgreement).toEqual([
      { judge: "demo:skeptic", pairs: 1, humanVotes: 6, agreed: 1, agreement: 1, pairsWithTooFewVotes: 0 },
    ]);
    expect(report.methods.humanAgreement).toContain("at least 5 times");
    const md = await client.evaluations[":id"].export.$get({
      param: { id: "eval-report-human" },
      query: { format: "md" },
    });
    expect(await md.text()).toContain("| Demo · Skeptic | 1 | 6 | 1 | 100.0% |");
  });

  it("lists each evaluation's winner only when the leader is apart at 95%, and names presets", async () => {
    const [x, base] = ["preset:list-terse@2", "openai:list-base"];
    await env.DB.prepare(
      "INSERT INTO presets (slug, version, name, model_id, system_prompt) VALUES ('list-terse', 2, 'Terse', 'demo:concise', 'Be brief.')",
    ).run();
    const verdicts = { q1: ["A>B", "B>A"], q2: ["A>B", "B>A"] } as Record<string, [Verdict, Verdict]>;
    for (const id of ["eval-list-apart", "eval-list-close", "eval-list-none"])
      await seed(id, { contestants: [x, base], baseline: base, verdicts });
    // The list reads the `eval` battles the room writes beside each judgment: 20–1 is apart, 3–2 is not.
    const battles = (id: string, xWins: number, baseWins: number) =>
      Array.from({ length: xWins + baseWins }, (_, k) =>
        env.DB.prepare(
          "INSERT INTO battles (id, source, model_a, model_b, winner, category, tstamp, evaluation_id) VALUES (?, 'eval', ?, ?, ?, 'code', 1, ?)",
        ).bind(`${id}/${k}`, x, base, k < xWins ? "model_a" : "model_b", id),
      );
    await env.DB.batch([...battles("eval-list-apart", 20, 1), ...battles("eval-list-close", 3, 2)]);
    const list = await ok(client.evaluations.$get({ query: { limit: "100" } }));
    const row = (id: string) => list.items.find((e) => e.id === id)!;
    expect(row("eval-list-apart")).toMatchObject({ winner: x, winnerReason: null, tiedWithBest: [] });
    // Named as the leaderboard names them: a preset by its name and version, its model beside it.
    expect(row("eval-list-apart").names).toEqual({
      [x]: { displayName: "Terse v2", modelId: "demo:concise" },
      [base]: { displayName: base.replace("openai:", ""), modelId: null },
    });
    expect(row("eval-list-close")).toMatchObject({ winner: null, winnerReason: "not_separable" });
    expect(row("eval-list-close").tiedWithBest.sort()).toEqual([base, x].sort());
    expect(row("eval-list-none")).toMatchObject({ winner: null, winnerReason: "no_games", tiedWithBest: [] });
  });

  it("compares before and after on the items they share, worst first, and refuses evaluations with nothing in common", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO presets (slug, version, name, model_id) VALUES ('terse', 1, 'Terse', 'demo:concise'), ('terse', 2, 'Terse', 'demo:concise')",
    ).run();
    await seed("eval-before", {
      contestants: ["preset:terse@1", "demo:thorough"],
      baseline: "demo:thorough",
      verdicts: { q1: ["A>B", "B>A"], q2: ["A>B", "B>A"], q3: ["A=B", "A=B"] },
    });
    await seed("eval-after", {
      contestants: ["preset:terse@2", "demo:thorough"],
      baseline: "demo:thorough",
      verdicts: { q1: ["A>B", "B>A"], q2: ["B>>A", "A>>B"], q3: ["A=B", "A=B"] },
    });
    const result = await ok(client.evaluations.compare.$get({ query: { a: "eval-before", b: "eval-after" } }));
    expect(result.contestants[0]).toMatchObject({ before: "preset:terse@1", after: "preset:terse@2" });
    // Every contestant it names, with its shown name, so the page shows no raw id.
    expect(result.names).toEqual({
      "preset:terse@1": { displayName: "Terse v1", modelId: "demo:concise" },
      "preset:terse@2": { displayName: "Terse v2", modelId: "demo:concise" },
      "demo:thorough": { displayName: "Demo · Thorough", modelId: null },
    });
    expect(result.contestants[0].winRateChange).toBeLessThan(0);
    expect(result.items).toEqual([
      { itemId: "q2", contestant: "preset:terse@2", scoreBefore: 1, scoreAfter: 0, change: -1 },
    ]);

    await seed("eval-other", {
      contestants: ["demo:concise", "demo:skeptic"],
      baseline: "demo:skeptic",
      verdicts: { q1: ["A>B", "B>A"] },
    });
    const refused = await client.evaluations.compare.$get({ query: { a: "eval-before", b: "eval-other" } });
    expect(refused.status).toBe(409);
    const missing = await client.evaluations[":id"].report.$get({ param: { id: "no-such-evaluation" } });
    expect(missing.status).toBe(404);
  });
});
