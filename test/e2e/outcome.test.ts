/**
 * The outcome first, in a real browser: a finished council run opens on its winner, ranking, reviewer agreement
 * (with the count it rests on), tokens and cost, with each answer card badged with its rank and in ranking order;
 * an arena round shows who won and who each side was above the answers, once voted and not before; and the
 * leaderboard says when it leaves the demo models out of a mixed view, and shows them on request.
 */
import { expect, test } from "vitest";
import type { ComparisonDetail } from "../../worker/shared/arena";
import { reviewerAgreement } from "../../worker/shared/reviewer-agreement";
import type { RunDetail } from "../../worker/shared/run";
import { screenshot } from "../helpers/e2e-browser";
import { comesBefore, pageScrollWidth, readableText } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";

const DONE_WAIT = 30_000;
const NTH: Record<number, string> = { 1: "1st", 2: "2nd", 3: "3rd" };

describeInBrowser("the outcome first", () => {
  // A real provider configured (never called here): the demo models then leave mixed leaderboard views.
  const { server, open } = browserSuite({
    vars: { QUORUM_DEMO_DELAY_MS: "1", QUORUM_MIN_VOTE_MS: "0", OPENAI_API_KEY: "sk-e2e-never-called" },
  });

  const post = async (path: string, body: unknown): Promise<{ id: string }> => {
    const res = await fetch(`${server.url}/api${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const get = async <T>(path: string): Promise<T> => (await (await fetch(`${server.url}/api${path}`)).json()) as T;

  /** "Demo · Concise (Answer B)", as the page names a ranked answer once the run is done. */
  const titleOf = (run: RunDetail, label: string) => {
    const a = run.answers.find((x) => x.label === label)!;
    return `${a.displayName ?? a.modelId} (Answer ${label})`;
  };
  const rankOf = (run: RunDetail, rank: number) => {
    const nth = NTH[rank] ?? `${rank}th`;
    return run.aggregation!.finalRanking.filter((e) => e.rank === rank).length > 1 ? `tied ${nth}` : nth;
  };

  test("a finished demo run leads with its winner, ranking, reviewer agreement and cost, and badges every card with its rank", async () => {
    // Self-review down-weighted: every reviewer ranks all three answers, so two reviewers share three pairs each.
    const { id } = await post("/runs", {
      question: "Which is better for a small team's first database: Postgres or SQLite?",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }],
      settings: { selfReview: "downweight" },
    });
    const page = await open();
    await page.goto(`${server.url}/runs/${id}`);
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: DONE_WAIT });
    const strip = page.getByTestId("run-outcome");
    await strip.waitFor({ timeout: 10_000 });
    const run = await get<RunDetail>(`/runs/${id}`);
    const ranking = run.aggregation!.finalRanking;

    // First on the page: right under the question, above the actions and the answers.
    expect(await comesBefore(page, "#run-title", "[data-testid=run-outcome]")).toBe(true);
    expect(await comesBefore(page, "[data-testid=run-outcome]", "[aria-label='Run actions']")).toBe(true);
    expect(await comesBefore(page, "[data-testid=run-outcome]", ".answers")).toBe(true);
    const winners = ranking.filter((e) => e.rank === 1).map((e) => titleOf(run, e.label));
    expect(await readableText(page.getByTestId("winner"))).toBe(
      `${winners.length > 1 ? "Tied winners" : "Winner"}: ${winners.join(", ")}`,
    );
    expect(await strip.locator(".outcome-ranking li").allInnerTexts()).toEqual(
      ranking.map((e) => `${rankOf(run, e.rank)} ${titleOf(run, e.label)}`),
    );
    const agreement = reviewerAgreement(run.aggregation!.voteBreakdown.reviewers.map((r) => r.ranking));
    expect(agreement.comparisons).toBe(9);
    expect(await readableText(page.getByTestId("reviewer-agreement"))).toBe(
      `${Math.round(agreement.percent!)}% (${agreement.agreeing} of 9 head-to-head calls)`,
    );
    expect(await readableText(strip.locator(".outcome-facts"))).toMatch(
      new RegExp(`Tokens ${run.totals.tokensIn + run.totals.tokensOut} Cost \\(est\\.\\) \\$0$`),
    );

    // The cards in ranking order, each with its rank.
    const cards = page.locator(".answer-card");
    expect(await cards.evaluateAll((els) => els.map((el) => el.getAttribute("data-label")))).toEqual(
      ranking.map((e) => e.label),
    );
    for (const e of ranking)
      expect(await readableText(page.locator(`.answer-card[data-label=${e.label}] [data-testid=rank-badge]`))).toBe(
        rankOf(run, e.rank) === "1st" ? "Winner · 1st" : rankOf(run, e.rank),
      );
    await screenshot(page, "outcome-run");
  });

  test("with three answers and self-review excluded, no two reviewers share a pair, so agreement is too few to say", async () => {
    const { id } = await post("/runs", {
      question: "Tabs or spaces?",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }],
    });
    const page = await open();
    await page.goto(`${server.url}/runs/${id}`);
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: DONE_WAIT });
    expect(await readableText(page.getByTestId("reviewer-agreement"))).toBe(
      "too few to say: no two reviewers ranked the same two answers (5 shared calls needed)",
    );
  });

  test("an arena round shows no outcome before the vote, then who won and who each side was, above the answers", async () => {
    const { id } = await post("/comparisons", {
      prompt: "Name a prime number.",
      models: ["demo:concise", "demo:thorough"],
    });
    const page = await open();
    await page.goto(`${server.url}/arena/${id}`);
    await page
      .getByTestId("comparison-status")
      .filter({ hasText: "Ready for your vote" })
      .waitFor({ timeout: DONE_WAIT });
    expect(await page.getByTestId("arena-outcome").count()).toBe(0);

    await page.locator("button.vote[data-choice=right]").click();
    const strip = page.getByTestId("arena-outcome");
    await strip.waitFor({ timeout: 10_000 });
    const { reveal } = await get<ComparisonDetail>(`/comparisons/${id}`);
    expect(await readableText(page.getByTestId("arena-winner"))).toBe(
      `${reveal!.right.displayName} (Model B) won (your vote)`,
    );
    expect(await readableText(strip.locator(".outcome-facts"))).toBe(
      `Model A ${reveal!.left.displayName} ${reveal!.left.modelId} Model B ${reveal!.right.displayName} ${reveal!.right.modelId}`,
    );
    expect(await comesBefore(page, "[data-testid=arena-outcome]", ".arena-panes")).toBe(true);
    await screenshot(page, "outcome-arena");
  });
  test("on a 390 px phone a finished run's outcome and a voted round's outcome fit the screen, with no sideways scroll", async () => {
    const phone = { width: 390, height: 844 };
    const run = await post("/runs", {
      question: "Which is better for a small team's first database: Postgres or SQLite?",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }],
      settings: { selfReview: "downweight" },
    });
    const page = await open({ viewport: phone, touch: true });
    await page.goto(`${server.url}/runs/${run.id}`);
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: DONE_WAIT });
    const strip = page.getByTestId("run-outcome");
    await strip.waitFor({ timeout: 10_000 });
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(phone.width);
    // The strip itself: within the screen, and nothing in it wider than it.
    const box = (await strip.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(phone.width);
    expect(await strip.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    await screenshot(page, "outcome-run-phone");

    const round = await post("/comparisons", {
      prompt: "Name a prime number.",
      models: ["demo:concise", "demo:thorough"],
    });
    await page.goto(`${server.url}/arena/${round.id}`);
    await page
      .getByTestId("comparison-status")
      .filter({ hasText: "Ready for your vote" })
      .waitFor({ timeout: DONE_WAIT });
    await page.locator("button.vote[data-choice=left]").click();
    const arena = page.getByTestId("arena-outcome");
    await arena.waitFor({ timeout: 10_000 });
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(phone.width);
    const arenaBox = (await arena.boundingBox())!;
    expect(arenaBox.x + arenaBox.width).toBeLessThanOrEqual(phone.width);
    expect(await arena.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    await screenshot(page, "outcome-arena-phone");
  });

  test("the leaderboard leaves the demo models out of a view mixed with real ones, says so, and shows them on request", async () => {
    const log = [
      { model_a: "demo:concise", model_b: "demo:skeptic", winner: "model_a", tstamp: 1_700_000_000 },
      { model_a: "real-alpha", model_b: "real-beta", winner: "model_a", tstamp: 1_700_000_100 },
      { model_a: "real-beta", model_b: "real-alpha", winner: "tie", tstamp: 1_700_000_200 },
    ];
    const res = await fetch(`${server.url}/api/battles/import?importId=outcome-demo`, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: log.map((b) => JSON.stringify(b)).join("\n"),
    });
    expect(res.status).toBe(200);
    const page = await open();
    await page.goto(`${server.url}/leaderboard?source=import`);
    const note = page.getByTestId("demo-left-out");
    await note.waitFor({ timeout: 10_000 });
    expect(await readableText(note)).toBe(
      "2 demo models are left out: a real provider is configured, so the offline demo's models don't mix with real ones here. Show demo models",
    );
    expect(await page.locator("table.leaderboard tbody tr").evaluateAll((rows) => rows.length)).toBe(2);
    expect(await readableText(page.locator(".lb-summary"))).toBe("2 battles counted");

    await page.getByRole("button", { name: "Show demo models" }).click();
    await page.locator('tr[data-model="demo:concise"]').waitFor({ timeout: 10_000 });
    expect(page.url()).toContain("demo=include");
    expect(await readableText(page.locator(".lb-summary"))).toBe("3 battles counted");
    await page.getByRole("button", { name: "Leave them out of mixed views" }).click();
    await note.waitFor({ timeout: 10_000 });
    expect(await page.locator('tr[data-model="demo:concise"]').count()).toBe(0);
    expect(page.url()).not.toContain("demo=");
  });
});
