/**
 * Judges in a real browser: asked from the arena before or after the vote (never seen before it), their
 * verdicts after it, and how far they agree with people on the leaderboard's Judges tab. `wrangler dev`
 * serves the built page and the Worker; the provider stub answers for both sides and for every judge.
 */
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import type { JudgeCalibration } from "../../worker/judges/calibration";
import type { ComparisonDetail, VoteChoice } from "../../worker/shared/arena";
import { type ComparisonEvent, comparisonEvent } from "../../worker/shared/events";
import { screenshot } from "../helpers/e2e-browser";
import { fitsWidth, readableText, recordSockets, unlabelledControls, waitForCount } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";
import { callsFor, releaseHold, type Step, scriptModel, waitForHeld } from "../helpers/stub-client";

const STREAM_WAIT = 30_000;

/** One answer of a judge: `winner` names the answer it was shown as A or B in that order. */
const says = (winner: "A" | "B" | "tie", reasons: string, extra: Step = {}): Step => ({
  review: { winner, scores: { A: winner === "A" ? 8 : 5, B: winner === "B" ? 8 : 5 }, reasons },
  ...extra,
});

interface StandingsRow {
  modelId: string;
  mu: number | null;
  sigma: number | null;
  conservative: number | null;
}

// The test program has no DOM types; page-side code only needs these few.
interface PageElement {
  getAttribute(name: string): string | null;
  ownerDocument: { activeElement: unknown };
}
const judgeRow = (page: Page, id: string) => page.locator(`.judge[data-judge="${id}"]`);
const judgeOrder = (page: Page) =>
  page.locator(".judge").evaluateAll((els: PageElement[]) => els.map((el) => el.getAttribute("data-judge")));
const comparisonIdOf = (page: Page) => new URL(page.url()).pathname.split("/").pop()!;

describeInBrowser("Judges in a real browser", () => {
  const { server, stub, open } = browserSuite({
    stub: true,
    vars: {
      QUORUM_ARENA_MODELS: "openai:gpt-4o,anthropic:claude-sonnet-4-5",
      QUORUM_MIN_VOTE_MS: "0",
      QUORUM_ARENA_TIMEOUT_MS: "30000",
    },
  });

  const api = async <T>(route: string, init?: { method: string; json: unknown }): Promise<T> => {
    const res = await fetch(
      `${server.url}/api${route}`,
      init && { method: init.method, headers: { "content-type": "application/json" }, body: JSON.stringify(init.json) },
    );
    expect(res.ok, `${init?.method ?? "GET"} /api${route} answered ${res.status}`).toBe(true);
    return (await res.json()) as T;
  };

  /** Polls the stored comparison until `done` holds (the API is the page's source too); throws after `timeoutMs`. */
  async function comparisonWhen(
    id: string,
    done: (d: ComparisonDetail) => boolean,
    what: string,
    timeoutMs = STREAM_WAIT,
  ): Promise<ComparisonDetail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const detail = await api<ComparisonDetail>(`/comparisons/${id}`);
      if (done(detail)) return detail;
      if (Date.now() > deadline)
        throw new Error(
          `waited ${timeoutMs} ms for ${what} on comparison ${id}: ${JSON.stringify(detail.comparison.status)}`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Starts a round of two named models from the empty arena (the sides are still shuffled), with auto-judges if given. */
  async function startNamedRound(page: Page, models: [string, string], prompt: string, autoJudges?: string) {
    await page.goto(`${server.url}/arena`);
    await page.getByText("Options: models, category, blind, judges, settings").click();
    await page.getByRole("radio", { name: "Two models I name" }).check();
    await page.getByLabel("First model id").fill(models[0]);
    await page.getByLabel("Second model id").fill(models[1]);
    if (autoJudges !== undefined) await page.getByLabel("Auto-judge (optional)").fill(autoJudges);
    await page.getByLabel("Prompt", { exact: true }).fill(prompt);
    await page.getByLabel("Prompt", { exact: true }).press("Enter");
    await page.waitForURL(/\/arena\/[0-9a-f-]{36}-[0-9a-f]{32}$/, { timeout: 10_000 });
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);
  }

  test("before any judge has judged a voted comparison, the Judges tab says how to get some", async () => {
    const page = await open();
    await page.goto(`${server.url}/leaderboard?tab=judges`);
    await page.getByTestId("judges-empty").waitFor({ timeout: 10_000 });
    expect(await readableText(page.getByTestId("judges-empty"))).toBe(
      "No judge has compared a voted comparison yet: ask judges in the Arena.",
    );
    expect(await page.getByTestId("judges-empty").getByRole("link").getAttribute("href")).toBe("/arena");
    expect(await page.getByRole("tab", { name: "Judges" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.getByRole("tabpanel").count()).toBe(1);
  });

  test("judges asked before the vote wait for it unseen (the page only says they will judge then); the vote shows each verdict, the flipped one marked, and a reload keeps them", async () => {
    const reasons = {
      keen1: "KEEN first: the second answer names the base case.",
      keen2: "KEEN second: the first answer names the base case.",
      sharp1: "SHARP first: B is more precise.",
      sharp2: "SHARP second: A is more precise.",
      fickle1: "FICKLE first: the first one reads better.",
      fickle2: "FICKLE second: the first one reads better again.",
    };
    await scriptModel(stub.url, "jv-one", [{ text: "Recursion: a function that calls itself." }]);
    await scriptModel(stub.url, "jv-two", [
      { text: "Recursion solves a problem through smaller copies of itself, down to a base case." },
    ]);
    // Left is A in the first order and B in the second: keen and sharp prefer the right side (B) both times; fickle prefers whatever came first.
    await scriptModel(stub.url, "judge-keen", [says("B", reasons.keen1), says("A", reasons.keen2)]);
    await scriptModel(stub.url, "judge-sharp", [says("B", reasons.sharp1), says("A", reasons.sharp2)]);
    await scriptModel(stub.url, "judge-fickle", [says("A", reasons.fickle1), says("A", reasons.fickle2)]);
    const judges = ["openai:judge-keen", "google:judge-sharp", "anthropic:judge-fickle"];

    const page = await open();
    const sockets = recordSockets<ComparisonEvent>(page, comparisonEvent);
    await startNamedRound(page, ["openai:jv-one", "anthropic:jv-two"], "What is recursion?");
    const id = comparisonIdOf(page);

    // A judge that is one of the two models is taken like the others (nothing may tell it apart) until the vote.
    await page.getByLabel("Judge model ids").fill(`${judges.join(", ")}, openai:jv-one`);
    await page.getByRole("button", { name: "Ask judges" }).click();
    await page.getByTestId("judges-note").waitFor({ timeout: 10_000 });
    expect(await readableText(page.getByTestId("judges-note"))).toBe(
      "Judges compare the answers after your vote; their verdicts appear then.",
    );
    for (const judge of ["judge-keen", "judge-sharp", "judge-fickle"])
      expect(await callsFor(stub.url, judge)).toHaveLength(0);

    // Before the vote: nothing of the judges anywhere, in the text or the markup, and nothing on the socket.
    const text = await page.locator("body").innerText();
    const markup = await page.content();
    for (const secret of [
      ...Object.values(reasons),
      "judge-keen",
      "judge-sharp",
      "judge-fickle",
      "flipped",
      "Verdict:",
      "Judging",
    ]) {
      expect(text, `page text shows ${secret}`).not.toContain(secret);
      expect(markup, `page markup shows ${secret}`).not.toContain(secret);
    }
    expect(await page.locator(".judge, [data-testid=panel-verdict]").count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Judges", exact: true }).count()).toBe(1);
    expect(sockets.events().filter((e) => e.type === "judge.completed")).toEqual([]);
    const hidden = await api<ComparisonDetail>(`/comparisons/${id}`);
    expect([hidden.judges, hidden.panel]).toEqual([null, null]);
    await page.evaluate("scrollTo(0, document.documentElement.scrollHeight)");
    await screenshot(page, "judges-before-vote");

    // The vote (A, the left side) brings out every verdict in the page's own A and B.
    await page.locator("main").focus();
    await page.keyboard.press("1");
    await page.locator(".vote-result").waitFor({ timeout: 10_000 });
    await waitForCount(page, ".judge[data-status=done]", 3, STREAM_WAIT);
    expect(await page.getByTestId("judges-note").count()).toBe(0);
    expect(await readableText(page.getByTestId("panel-verdict"))).toBe("Verdict: B is better (2 of 3)");
    // One "Judges" heading, over the panel, and the panel doesn't say "Judges" again under it.
    expect(await page.getByRole("heading", { name: "Judges", exact: true }).count()).toBe(1);
    expect((await readableText(page.getByTestId("judges"))).match(/\bJudges\b/g)).toEqual(["Judges"]);
    // In the order they were asked, however their verdicts arrived; the side among them left out, saying why.
    await expect.poll(() => judgeOrder(page), { timeout: 5_000 }).toEqual([...judges, "openai:jv-one"]);
    expect(await readableText(judgeRow(page, "openai:jv-one").locator(".callout.error"))).toMatch(
      /one of the two sides/,
    );
    for (const judge of ["judge-keen", "judge-sharp", "judge-fickle"])
      expect(await callsFor(stub.url, judge)).toHaveLength(2);
    expect(await callsFor(stub.url, "jv-one")).toHaveLength(1);
    for (const judge of ["openai:judge-keen", "google:judge-sharp"]) {
      expect(await readableText(judgeRow(page, judge).locator(".judge-verdict"))).toBe("B is better");
      expect(await judgeRow(page, judge).locator(".badge").count()).toBe(0);
    }
    const fickle = judgeRow(page, "anthropic:judge-fickle");
    expect(await readableText(fickle.locator(".judge-verdict"))).toBe("Tie flipped");
    expect(await readableText(fickle.locator(".flip-note"))).toBe(
      "Flipped: it changed its answer when A and B swapped places, so it counts as a tie.",
    );

    // Both orders, folded away: what it picked, its scores and its reasons, in the page's A and B.
    expect(await fickle.locator(".judge-reasons").first().isVisible()).toBe(false);
    await fickle.getByText("Its answers in both orders").click();
    const orders = fickle.locator(".judge-order");
    expect(await readableText(orders.nth(0))).toBe(`A shown first: picked A · scores A 8, B 5 ${reasons.fickle1}`);
    expect(await readableText(orders.nth(1))).toBe(
      `B shown first: picked B · scores A 5, B 8 ${reasons.fickle2} In this order the judge saw B as its “Answer A” and A as its “Answer B”.`,
    );
    await judgeRow(page, "openai:judge-keen").getByText("Its answers in both orders").click();
    expect(await readableText(judgeRow(page, "openai:judge-keen").locator(".judge-order").nth(1))).toContain(
      `picked B · scores A 5, B 8 ${reasons.keen2}`,
    );

    // The page says what the server stored, and the live events it reduced were all valid.
    const shown = await api<ComparisonDetail>(`/comparisons/${id}`);
    expect(shown.panel).toBe("right");
    expect(shown.judges!.map((j) => [j.judgeModelId, j.verdict, j.flipped])).toEqual([
      ["openai:judge-keen", "right", false],
      ["google:judge-sharp", "right", false],
      ["anthropic:judge-fickle", "tie", true],
      ["openai:jv-one", null, false],
    ]);
    expect(sockets.invalid).toEqual([]);
    expect(sockets.events().filter((e) => e.type === "judge.completed")).toHaveLength(4);
    expect(await unlabelledControls(page)).toEqual([]);
    // Scrolled to the end, the sticky vote bar sits in its own place on the full-page screenshot.
    await page.evaluate("scrollTo(0, document.documentElement.scrollHeight)");
    await screenshot(page, "judges-after-vote");

    // A reload shows the same verdicts at once, from the page's own copy, and resumes the socket after it.
    await page.reload();
    await page.locator("[role=status]", { hasText: "Live" }).waitFor({ timeout: 10_000 });
    await waitForCount(page, ".judge[data-status=done]", 3, 10_000);
    expect(await readableText(page.getByTestId("panel-verdict"))).toBe("Verdict: B is better (2 of 3)");
    expect(await readableText(judgeRow(page, "anthropic:judge-fickle").locator(".judge-verdict"))).toBe("Tie flipped");
    expect(new URL(sockets.sockets.at(-1)!.url).searchParams.has("since")).toBe(true);

    // The judges asked here are the next round's auto-judges.
    await page.getByRole("button", { name: "New round" }).click();
    await page.waitForURL(`${server.url}/arena`);
    await page.getByText("Options: models, category, blind, judges, settings").click();
    expect(await page.getByLabel("Auto-judge (optional)").inputValue()).toBe(`${judges.join(", ")}, openai:jv-one`);
  });

  test("auto-judges from the options are asked right after the vote: one spins until it answers, a failed one says why, and the panel counts as they come", async () => {
    await scriptModel(stub.url, "ja-one", [{ text: "An answer about tides." }]);
    await scriptModel(stub.url, "ja-two", [{ text: "Another answer about tides, with the moon in it." }]);
    await scriptModel(stub.url, "auto-slow", [
      says("A", "SLOW first: A is right.", { holdKey: "auto-slow" }),
      says("B", "SLOW second: A is right."),
    ]);
    await scriptModel(stub.url, "auto-quick", [says("A", "QUICK first: A."), says("B", "QUICK second: A.")]);
    await scriptModel(stub.url, "auto-broken", [
      { status: 404, errorMessage: "The model `auto-broken` does not exist or you do not have access to it." },
    ]);
    const auto = "openai:auto-slow, anthropic:auto-quick, openai:auto-broken";

    const page = await open();
    await startNamedRound(page, ["openai:ja-one", "google:ja-two"], "Why are there tides?", auto);
    const id = comparisonIdOf(page);
    // Auto-judges wait for the vote.
    expect(await callsFor(stub.url, "auto-quick")).toHaveLength(0);
    expect(await page.getByTestId("judges-note").count()).toBe(0);

    await page.getByRole("button", { name: "A is better" }).click();
    await page.locator(".vote-result").waitFor({ timeout: 10_000 });
    await waitForHeld(stub.url, "auto-slow", 1, STREAM_WAIT);
    await judgeRow(page, "openai:auto-slow").locator(".spinner").waitFor({ timeout: 10_000 });
    expect(await readableText(judgeRow(page, "openai:auto-slow").locator(".judge-verdict"))).toBe("Judging…");
    expect(await judgeRow(page, "openai:auto-slow").getAttribute("aria-busy")).toBe("true");
    await page.locator('.judge[data-judge="anthropic:auto-quick"][data-status=done]').waitFor({ timeout: STREAM_WAIT });
    await page.locator('.judge[data-judge="openai:auto-broken"][data-status=failed]').waitFor({ timeout: STREAM_WAIT });
    expect(await readableText(page.getByTestId("panel-verdict"))).toBe(
      "Verdict: A is better (1 of 1; 1 still judging)",
    );
    const broken = (await api<ComparisonDetail>(`/comparisons/${id}`)).judges!.find(
      (j) => j.judgeModelId === "openai:auto-broken",
    )!;
    expect(broken.status).toBe("failed");
    expect(await readableText(judgeRow(page, "openai:auto-broken"))).toBe(
      `auto-broken openai:auto-broken Failed ${broken.error}`,
    );
    // Scrolled to the end, the sticky vote bar sits in its own place on the full-page screenshot.
    await page.evaluate("scrollTo(0, document.documentElement.scrollHeight)");
    await screenshot(page, "judges-pending");

    expect(await releaseHold(stub.url, "auto-slow")).toBe(1);
    await page.locator('.judge[data-judge="openai:auto-slow"][data-status=done]').waitFor({ timeout: STREAM_WAIT });
    expect(await readableText(page.getByTestId("panel-verdict"))).toBe("Verdict: A is better (2 of 2)");
    expect(await readableText(judgeRow(page, "openai:auto-slow").locator(".judge-verdict"))).toBe("A is better");
    expect(await page.locator(".judge .spinner").count()).toBe(0);
    expect(await judgeOrder(page)).toEqual(["openai:auto-slow", "anthropic:auto-quick", "openai:auto-broken"]);

    // The Auto-judge field is remembered for the next round.
    await page.goto(`${server.url}/arena`);
    await page.getByText("Options: models, category, blind, judges, settings").click();
    expect(await page.getByLabel("Auto-judge (optional)").inputValue()).toBe(auto);
  });

  test("the Judges tab counts agreement with people and flip rates as a hand count gives them, says agreement over 3 comparisons is too few to state, by keyboard and in the address; the TrueSkill column shows μ ± σ and sorts", async () => {
    // Three comparisons, voted left, right, left. Per comparison, each judge's two answers (left shown as A, then as B):
    //   steady: left, right, right      → agrees 2 of 3, flips 0 of 3
    //   lazy:   always "A" (a flip)     → agrees 0 of 3, flips 3 of 3
    //   mixed:  flip, right, left       → agrees 2 of 3, flips 1 of 3
    const votes: VoteChoice[] = ["left", "right", "left"];
    const steady = [
      [says("A", "s1"), says("B", "s1")],
      [says("B", "s2"), says("A", "s2")],
      [says("B", "s3"), says("A", "s3")],
    ];
    const lazy = votes.map(() => [says("A", "l"), says("A", "l")]);
    const mixed = [
      [says("A", "m1"), says("A", "m1")],
      [says("B", "m2"), says("A", "m2")],
      [says("A", "m3"), says("B", "m3")],
    ];
    await scriptModel(stub.url, "tally-steady", steady.flat());
    await scriptModel(stub.url, "tally-lazy", lazy.flat());
    await scriptModel(stub.url, "tally-mixed", mixed.flat());
    const judges = ["openai:tally-steady", "anthropic:tally-lazy", "google:tally-mixed"];
    for (const choice of votes) {
      await scriptModel(stub.url, "tally-one", [{ text: "One side's answer." }]);
      await scriptModel(stub.url, "tally-two", [{ text: "The other side's answer, a little longer." }]);
      const { id } = await api<{ id: string }>("/comparisons", {
        method: "POST",
        json: { prompt: "Say something.", models: ["openai:tally-one", "anthropic:tally-two"], judges },
      });
      await comparisonWhen(id, (d) => d.comparison.status === "ready", "both answers");
      await api(`/comparisons/${id}/votes`, { method: "POST", json: { choice } });
      await comparisonWhen(
        id,
        (d) => !!d.judges?.length && d.judges.every((j) => j.status === "done"),
        "every judge's verdict",
      );
    }
    const hand: Record<
      string,
      { agreement: number; flipRate: string; kappa: number; decisive: [number | null, number] }
    > = {
      "openai:tally-steady": { agreement: 200 / 3, flipRate: "0%", kappa: 0.4, decisive: [200 / 3, 3] },
      "anthropic:tally-lazy": { agreement: 0, flipRate: "100%", kappa: 0, decisive: [null, 0] },
      "google:tally-mixed": { agreement: 200 / 3, flipRate: "33.3%", kappa: 0.5, decisive: [100, 2] },
    };

    const page = await open();
    await page.goto(`${server.url}/leaderboard`);
    await page.locator("table.leaderboard tbody tr").first().waitFor({ timeout: 10_000 });
    // The tabs by keyboard: the selected tab is the one Tab stop, the arrows move and select.
    const modelsTab = page.getByRole("tab", { name: "Models" });
    expect(await modelsTab.getAttribute("aria-selected")).toBe("true");
    expect(await page.getByRole("tab", { name: "Judges" }).getAttribute("tabindex")).toBe("-1");
    await modelsTab.focus();
    await page.keyboard.press("ArrowRight");
    const judgesTab = page.getByRole("tab", { name: "Judges" });
    expect(await judgesTab.getAttribute("aria-selected")).toBe("true");
    expect(await judgesTab.evaluate((el: PageElement) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.waitForURL(/[?&]tab=judges/, { timeout: 5_000 });
    const panel = page.getByRole("tabpanel", { name: "Judges" });
    await panel.locator(`tr[data-judge="${judges[0]}"]`).waitFor({ timeout: 10_000 });
    expect(await page.getByRole("tabpanel").count()).toBe(1);

    const stats = (await api<{ judges: JudgeCalibration[] }>("/judges")).judges;
    for (const judge of judges) {
      const row = panel.locator(`tr[data-judge="${judge}"]`);
      const s = stats.find((x) => x.judgeModelId === judge)!;
      expect([s.judged, s.withHumans]).toEqual([3, 3]);
      expect(s.agreement, `${judge} agreement`).toBeCloseTo(hand[judge].agreement, 6);
      expect(s.kappa, `${judge} kappa`).toBeCloseTo(hand[judge].kappa, 2);
      const [decisiveAgreement, decisive] = hand[judge].decisive;
      if (decisiveAgreement === null) expect(s.agreementDecisive).toBeNull();
      else expect(s.agreementDecisive).toBeCloseTo(decisiveAgreement, 6);
      expect(s.decisive).toBe(decisive);
      // Three comparisons are too few for a percentage: the page shows the count instead, and the bar.
      expect(await readableText(row.locator("[data-col=agreement]")), `${judge} agreement`).toBe(
        "too few to say of 3 (5 needed)",
      );
      expect(await readableText(row.locator("[data-col=kappa]")), `${judge} kappa`).toBe(
        "too few to say of 3 (5 needed)",
      );
      expect(await readableText(row.locator("[data-col=flip-rate]")), `${judge} flip rate`).toBe(hand[judge].flipRate);
      const cells = await row.locator("td").allInnerTexts();
      expect(cells.slice(0, 2)).toEqual(["3", "3"]);
      expect(cells[3].replace(/\s+/g, " ")).toBe(`too few to say of ${decisive} (5 needed)`);
    }
    for (const header of [
      "Judge",
      "Judged",
      "With a person's vote",
      "Agrees with people",
      "Agrees when both pick a side",
      "Agreement beyond chance (κ)",
      "Flips when A and B swap",
    ])
      expect(await panel.getByRole("columnheader", { name: header, exact: true }).count()).toBe(1);
    expect(await panel.locator(".measures dt").count()).toBe(8);
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, "leaderboard-judges");

    // The address keeps the tab; the arrow back returns to the models, whose TrueSkill column sorts.
    await page.reload();
    await panel.locator(`tr[data-judge="${judges[0]}"]`).waitFor({ timeout: 10_000 });
    await judgesTab.focus();
    await page.keyboard.press("ArrowLeft");
    expect(await modelsTab.getAttribute("aria-selected")).toBe("true");
    await page.waitForURL((url) => !url.searchParams.has("tab"), { timeout: 5_000 });
    await page.getByRole("button", { name: "TrueSkill μ ± σ" }).click();
    await page.locator('th[aria-sort="descending"]', { hasText: "TrueSkill" }).waitFor({ timeout: 10_000 });
    expect(page.url()).toContain("order=trueskill");
    const board = (await api<{ rows: StandingsRow[] }>("/leaderboard?order=trueskill")).rows;
    expect(board.length).toBeGreaterThan(1);
    for (let i = 1; i < board.length; i++)
      expect(board[i - 1].conservative ?? -Infinity).toBeGreaterThanOrEqual(board[i].conservative ?? -Infinity);
    await page.waitForFunction(
      // Runs in the page, so it can't call this file's helpers.
      (want) => {
        const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<PageElement> } })
          .document;
        return (
          Array.from(doc.querySelectorAll("table.leaderboard tbody tr"), (r) => r.getAttribute("data-model")).join() ===
          want
        );
      },
      board.map((r) => r.modelId).join(),
      { timeout: 10_000 },
    );
    for (const r of board) {
      const cell = await readableText(page.locator(`tr[data-model="${r.modelId}"] [data-col=trueskill]`));
      expect(cell).toBe(
        r.mu === null ? "—" : `${r.mu.toFixed(1)} ± ${r.sigma!.toFixed(1)} μ − 3σ = ${r.conservative!.toFixed(1)}`,
      );
    }
    await screenshot(page, "leaderboard-trueskill");
  });

  test("at phone width in dark mode the Judges section and the Judges tab fit, and every control is labelled", async () => {
    await scriptModel(stub.url, "jp-one", [{ text: "A small answer for a small screen." }]);
    await scriptModel(stub.url, "jp-two", [
      { text: "Another small answer for a small screen, a little longer than the first." },
    ]);
    await scriptModel(stub.url, "judge-phone-with-a-rather-long-model-name", [
      says("B", "PHONE first: the second is fuller."),
      says("B", "PHONE second: the second is fuller."),
    ]);
    const { id } = await api<{ id: string }>("/comparisons", {
      method: "POST",
      json: {
        prompt: "Hello from a phone.",
        models: ["openai:jp-one", "google:jp-two"],
        judges: ["anthropic:judge-phone-with-a-rather-long-model-name"],
      },
    });
    await comparisonWhen(id, (d) => d.comparison.status === "ready", "both answers");

    const page = await open({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });
    await page.goto(`${server.url}/arena/${id}`);
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);
    await page.getByLabel("Judge model ids").waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole("button", { name: "B is better" }).click();
    await page.locator(".judge[data-status=done]").waitFor({ timeout: STREAM_WAIT });
    expect(await readableText(page.getByTestId("panel-verdict"))).toBe("Verdict: Tie (1 of 1)");
    await page.locator(".judge").getByText("Its answers in both orders").click();
    expect(await unlabelledControls(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    // Scrolled to the end, the sticky vote bar sits in its own place on the full-page screenshot.
    await page.evaluate("scrollTo(0, document.documentElement.scrollHeight)");
    await screenshot(page, "judges-phone-dark");

    await page.getByRole("link", { name: "Leaderboard" }).click();
    await page.getByRole("tab", { name: "Judges" }).click();
    await page
      .locator('tr[data-judge="anthropic:judge-phone-with-a-rather-long-model-name"]')
      .waitFor({ timeout: 10_000 });
    expect(await unlabelledControls(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, "leaderboard-judges-phone-dark");
  });
});
