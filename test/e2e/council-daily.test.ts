/**
 * Daily use of the council page in a real browser: the question first, running a run again with edits, the
 * synthesis, honest costs, and a Quorum that wants its access token. Two `wrangler dev` servers: one as on
 * the owner's machine (no token, an OpenAI-compatible server without prices), one with APP_TOKEN set.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, expect, test } from "vitest";
import type { RunEvent } from "../../worker/shared/events";
import type { RunDetail } from "../../worker/shared/run";
import { formatTotalCost } from "../../web/src/lib/format";
import { ARTIFACTS, screenshot } from "../helpers/e2e-browser";
import {
  comesBefore,
  fitsWidth,
  focusedId,
  isFocused,
  readableText,
  recordSockets,
  unlabelledControls,
  waitForPartialText,
} from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";
import type { WranglerDev } from "../helpers/e2e-wrangler";
import { releaseHold, scriptModel, waitForHeld } from "../helpers/stub-client";

const STREAM_WAIT = 30_000;
const APP_TOKEN = "e2e-token-7f3a9c";
/** "$0.0000" as a whole figure: a false zero. ("$0.000034" is a real, small one.) */
const FALSE_ZERO = /\$0\.0000(?!\d)/;

const runIdOf = (url: string) => url.split("/").pop()!;
const typeOrder = (events: RunEvent[], type: RunEvent["type"]) => events.findIndex((e) => e.type === type);

describeInBrowser("Quorum day to day, in a real browser", () => {
  const { server, stub, open, startServer } = browserSuite({
    stub: true,
    // An OpenAI-compatible server (a local llama, say) has no prices in Quorum's catalog.
    vars: (stubUrl) => ({ QUORUM_DEMO_DELAY_MS: "5", OPENAI_COMPATIBLE_BASE_URL: `${stubUrl}/compat/v1` }),
  });
  let guarded: WranglerDev;

  beforeAll(async () => {
    guarded = await startServer({ QUORUM_DEMO_DELAY_MS: "5", APP_TOKEN });
  });

  const getRun = async (base: string, id: string): Promise<RunDetail> =>
    (await (await fetch(`${base}/api/runs/${id}`)).json()) as RunDetail;

  test("the Question box comes first with Run under it, and a remembered choice folds into one line that still opens", async () => {
    const page = await open();
    await page.goto(server.url);
    await page.getByRole("checkbox", { name: "Demo · Concise" }).waitFor();

    // From the top of the page, the keyboard reaches the question first and Run right after it.
    await page.locator("#main").focus();
    await page.keyboard.press("Tab");
    expect(await focusedId(page)).toBe("question");
    await page.keyboard.press("Tab");
    expect(await isFocused(page.getByRole("button", { name: "Run", exact: true }))).toBe(true);
    expect(await comesBefore(page, "#question", "details.choice")).toBe(true);
    // A first visit shows the models open; no token is asked for or offered on this machine.
    expect(await page.locator("details.choice").getAttribute("open")).not.toBeNull();
    expect(await page.getByRole("button", { name: "Forget token" }).count()).toBe(0);

    for (const name of ["Demo · Concise", "Demo · Thorough", "Demo · Skeptic"])
      await page.getByRole("checkbox", { name }).check();
    await page.reload();
    const summary = page.getByTestId("choice-summary");
    await summary.getByText("3 models").waitFor();
    expect(await readableText(summary)).toBe(
      "3 models: Demo · Concise, Demo · Thorough, Demo · Skeptic · blind · 4 at a time",
    );
    expect(await page.locator("details.choice").getAttribute("open")).toBeNull();
    expect(await page.getByRole("checkbox", { name: "Demo · Concise" }).isVisible()).toBe(false);
    await page.getByLabel("Question").fill("Is a tomato a fruit?");
    await screenshot(page, "setup-question-first");

    // At phone width the folded line still fits, and every control has a name.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsWidth(page)).toBe(true);
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, "setup-question-first-phone");

    // The disclosure opens on a click, with the remembered models ticked.
    await page.locator("details.choice > summary").click();
    expect(await page.getByRole("checkbox", { name: "Demo · Skeptic" }).isChecked()).toBe(true);
    await page.getByLabel("Question").press("Control+Enter");
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}-[0-9a-f]{32}$/, { timeout: 10_000 });
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });
  });

  test("Run again opens the setup filled as the run was, and a changed question starts a new run beside the old one", async () => {
    await scriptModel(stub.url, "gpt-again", [
      { text: "Athens is older: it was settled long before Rome was founded." },
    ]);
    const page = await open();
    await page.goto(server.url);
    for (const name of ["Demo · Concise", "Demo · Skeptic"]) await page.getByRole("checkbox", { name }).check();
    await page.getByLabel("Model id").fill("openai:gpt-again");
    await page.getByLabel("Model id").press("Enter");
    await page.getByText("Advanced settings for Demo · Concise").click();
    await page.getByLabel("Temperature for Demo · Concise").fill("0.7");
    await page.getByText("Advanced settings for gpt-again").click();
    await page.getByLabel("System prompt for gpt-again").fill("Answer in one line.");
    await page.getByLabel("Blind review").uncheck();
    await page.getByLabel("Synthesis").selectOption({ label: "Demo · Thorough" });
    await page.getByLabel("Calibrated by judge agreement").check();
    await page.getByLabel("Concurrency").fill("2");
    const question = "Which is older, Rome or Athens?";
    await page.getByLabel("Question").fill(question);
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}-[0-9a-f]{32}$/, { timeout: 10_000 });
    const firstId = runIdOf(page.url());
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });
    await page.locator("table.ranking tbody tr").nth(2).waitFor({ timeout: STREAM_WAIT });

    // Calibrated weights with no judge record: each reviewer took the average, and the vote math says so.
    const calibration = await page.getByTestId("calibration").allInnerTexts();
    expect(calibration.map((t) => t.trim())).toEqual([
      "average (no record)",
      "average (no record)",
      "average (no record)",
    ]);
    await page.getByTestId("calibration").first().scrollIntoViewIfNeeded();
    await screenshot(page, "run-calibrated-weights");

    await page.getByRole("button", { name: "Run again" }).click();
    await expect.poll(() => page.getByLabel("Question").inputValue(), { timeout: 10_000 }).toBe(question);
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await readableText(page.getByTestId("choice-summary"))).toBe(
      "3 models: Demo · Concise, Demo · Skeptic, gpt-again · names shown · 2 at a time · synthesis by Demo · Thorough · calibrated weights",
    );
    expect(await readableText(page.getByTestId("run-again-note"))).toContain("Filled in from the earlier run");
    await page.locator("details.choice > summary").click();
    for (const name of ["Demo · Concise", "Demo · Skeptic", "gpt-again"])
      expect(await page.getByRole("checkbox", { name, exact: true }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: "Demo · Thorough" }).isChecked()).toBe(false);
    expect(await page.getByLabel("Temperature for Demo · Concise").inputValue()).toBe("0.7");
    expect(await page.getByLabel("System prompt for gpt-again").inputValue()).toBe("Answer in one line.");
    expect(await page.getByLabel("Blind review").isChecked()).toBe(false);
    expect(await page.getByLabel("Synthesis").inputValue()).toBe("demo:thorough");
    expect(await page.getByLabel("Calibrated by judge agreement").isChecked()).toBe(true);
    expect(await page.getByLabel("Concurrency").inputValue()).toBe("2");

    // Change the question only: a new run, set up exactly as the old one.
    await scriptModel(stub.url, "gpt-again", [{ text: "Athens, by several centuries." }]);
    const edited = `${question} Answer in one sentence.`;
    await page.getByLabel("Question").fill(edited);
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}-[0-9a-f]{32}$/, { timeout: 10_000 });
    const secondId = runIdOf(page.url());
    expect(secondId).not.toBe(firstId);
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });
    const [first, second] = await Promise.all([getRun(server.url, firstId), getRun(server.url, secondId)]);
    expect(second.run.question).toBe(edited);
    expect(second.run.models).toEqual(first.run.models);
    expect(second.run.models).toEqual([
      { id: "demo:concise", params: { temperature: 0.7 } },
      { id: "demo:skeptic" },
      { id: "openai:gpt-again", params: { systemPrompt: "Answer in one line." } },
    ]);
    expect(second.run.settings).toEqual(first.run.settings);
    expect(second.run.settings).toMatchObject({
      blind: false,
      concurrency: 2,
      synthesis: { modelId: "demo:thorough" },
      reviewerWeights: "calibrated",
    });

    // History has both, newest first.
    await page.getByRole("link", { name: "History" }).click();
    await page.locator(`li[data-run-id="${firstId}"]`).waitFor({ timeout: 10_000 });
    const ids = await page
      .locator("li[data-run-id]")
      .evaluateAll((els: { getAttribute(n: string): string | null }[]) =>
        els.map((el) => el.getAttribute("data-run-id")),
      );
    expect(ids.slice(0, 2)).toEqual([secondId, firstId]);
    expect(await readableText(page.locator(`li[data-run-id="${firstId}"] .history-question`))).toBe(question);
    expect(await readableText(page.locator(`li[data-run-id="${secondId}"] .history-question`))).toBe(edited);
  });

  test("a synthesis streams after the ranking, right under the outcome and above the answers, marked as a synthesis and rendered as Markdown", async () => {
    const text =
      "**Spaces**, on balance: both answers agree that a formatter should decide the width, and the skeptic's warning about mixed files is worth keeping, so convert old files in one commit.";
    await scriptModel(stub.url, "gpt-4o-mini", [{ text, holdKey: "e2e-synthesis", chunkDelayMs: 120 }]);
    const page = await open();
    const sockets = recordSockets(page);
    await page.goto(server.url);
    for (const name of ["Demo · Concise", "Demo · Skeptic"]) await page.getByRole("checkbox", { name }).check();
    await page.getByLabel("Synthesis").selectOption({ label: "GPT-4o mini" });
    await page.getByLabel("Question").fill("Tabs or spaces?");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForURL(/\/runs\//);

    // The chair is called only once the ranking is in; while it is held, the page says what is going on.
    await waitForHeld(stub.url, "e2e-synthesis", 1, STREAM_WAIT);
    await page.locator("table.ranking tbody tr").nth(1).waitFor({ timeout: 10_000 });
    await page.getByTestId("run-status").getByText("Writing the synthesis").waitFor({ timeout: 10_000 });
    const card = page.getByTestId("synthesis");
    await card.waitFor({ timeout: 10_000 });
    expect(await card.getAttribute("data-status")).toBe("streaming");
    expect(await comesBefore(page, "[data-testid=synthesis]", "table.ranking")).toBe(true);

    expect(await releaseHold(stub.url, "e2e-synthesis")).toBe(1);
    await waitForPartialText(page, "[data-testid=synthesis] .markdown", "one commit", STREAM_WAIT);
    expect(await card.locator(".spinner").count()).toBe(1);
    expect(await card.getAttribute("aria-busy")).toBe("true");
    await screenshot(page, "run-synthesis-streaming");

    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });
    await page.locator("[data-testid=synthesis][data-status=done]").waitFor({ timeout: 10_000 });
    expect(await readableText(card.locator("h3"))).toBe("Synthesis by GPT-4o mini");
    expect(await readableText(card)).toContain(
      "Synthesis written from the ranked answers and their critiques; not ranked",
    );
    expect(await readableText(card.locator(".markdown"))).toBe(text.replace(/\*\*/g, ""));
    expect(await card.locator(".markdown strong").innerText()).toBe("Spaces");
    expect(await card.locator(".spinner").count()).toBe(0);
    expect(await comesBefore(page, "[data-testid=synthesis]", "table.ranking")).toBe(true);
    // Right under the outcome, above the answers: what a person reads first.
    expect(await comesBefore(page, "[data-testid=run-outcome]", "[data-testid=synthesis]")).toBe(true);
    expect(await comesBefore(page, "[data-testid=synthesis]", ".answers")).toBe(true);
    // Not a ranked answer: the ranking has the two answers only.
    expect(await page.locator("table.ranking tbody tr").count()).toBe(2);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, "run-synthesis");

    expect(sockets.invalid).toEqual([]);
    const events = sockets.events();
    expect(typeOrder(events, "aggregation.completed")).toBeLessThan(typeOrder(events, "synthesis.started"));
    expect(typeOrder(events, "synthesis.started")).toBeLessThan(typeOrder(events, "synthesis.delta"));
    expect(typeOrder(events, "synthesis.completed")).toBeLessThan(typeOrder(events, "run.completed"));
    expect(events.filter((e) => e.type === "synthesis.delta").length).toBeGreaterThan(3);
  });

  test("a model without a price never costs a false $0: the header and History say the cost is unknown for 1 model", async () => {
    const page = await open();
    await page.goto(server.url);
    await page.getByRole("checkbox", { name: "GPT-4o mini" }).check();
    await page.getByLabel("Model id").fill("openai-compatible:local-llama");
    await page.getByLabel("Model id").press("Enter");
    await page.getByLabel("Question").fill("How far is the Moon?");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForURL(/\/runs\//);
    const runId = runIdOf(page.url());
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });
    await page.locator("table.ranking tbody tr").nth(1).waitFor({ timeout: STREAM_WAIT });

    const stored = await getRun(server.url, runId);
    expect(stored.totals.unknownCostModels).toBe(1);
    expect(stored.totals.costUsd).toBeGreaterThan(0);
    const honest = /^estimated cost ≥ \$0\.\d*[1-9]\d* \(cost unknown for 1 model\)$/;
    // The header as the page's own reducer keeps it, event by event…
    expect(await readableText(page.getByTestId("run-cost"))).toMatch(honest);
    const llama = page.locator(".answer-card", { has: page.locator("code", { hasText: "local-llama" }) });
    expect(await readableText(llama.locator(".metrics"))).toMatch(/Cost \(est\.\) ?cost unknown$/);
    expect(await page.locator("main").innerText()).not.toMatch(FALSE_ZERO);
    // The header's spend line catches up with the finished run without a page change.
    const spend = (await (await fetch(`${server.url}/api/spend`)).json()) as { spentUsd: number };
    expect(spend.spentUsd).toBeGreaterThan(0);
    await expect
      .poll(() => readableText(page.getByTestId("spend-line")), { timeout: 10_000 })
      .toContain(`Spent today ${formatTotalCost(spend.spentUsd)}`);

    // …in History…
    await page.getByRole("link", { name: "History" }).click();
    const item = page.locator(`li[data-run-id="${runId}"]`);
    await item.waitFor({ timeout: 10_000 });
    expect(await readableText(item.getByTestId("history-cost"))).toMatch(honest);
    expect(await page.locator("main").innerText()).not.toMatch(FALSE_ZERO);

    // …and as the server sends it on reopening.
    await item.getByRole("link", { name: "Open" }).click();
    await page.locator("table.ranking tbody tr").nth(1).waitFor({ timeout: 10_000 });
    expect(await readableText(page.getByTestId("run-cost"))).toMatch(honest);
    expect(await page.locator("main").innerText()).not.toMatch(FALSE_ZERO);
  });

  test("with APP_TOKEN set the page asks for the token, says when it is wrong, and with the right one loads, streams over the socket and downloads", async () => {
    expect((await fetch(`${guarded.url}/api/models`)).status).toBe(401);
    const page = await open();
    const sockets = recordSockets(page);
    await page.goto(guarded.url);

    const input = page.getByLabel("Access token", { exact: true });
    await input.waitFor({ timeout: 10_000 });
    expect(await input.getAttribute("type")).toBe("password");
    expect(await focusedId(page)).toBe("access-token");
    expect(await readableText(page.getByTestId("access-message"))).toContain("This Quorum needs its access token");
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, "access-token");

    await input.fill("not-the-token");
    await page.getByRole("button", { name: "Save" }).click();
    await page
      .getByTestId("access-message")
      .getByText("That access token is not this Quorum's APP_TOKEN")
      .waitFor({ timeout: 10_000 });
    expect(await readableText(page.getByRole("heading", { level: 1 }))).toBe("That access token didn't work");
    await screenshot(page, "access-token-wrong");

    await page.getByLabel("Access token", { exact: true }).fill(APP_TOKEN);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("checkbox", { name: "Demo · Concise" }).waitFor({ timeout: 10_000 });
    expect(await page.evaluate("localStorage.getItem('quorum.token')")).toBe(APP_TOKEN);

    for (const name of ["Demo · Concise", "Demo · Skeptic"]) await page.getByRole("checkbox", { name }).check();
    await page.getByLabel("Question").fill("Is the token working?");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForURL(/\/runs\//);
    const runId = runIdOf(page.url());
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });
    await page.locator("table.ranking tbody tr").nth(1).waitFor({ timeout: STREAM_WAIT });
    // The run came over the socket (the server refuses an upgrade without the token's subprotocol).
    expect(sockets.invalid).toEqual([]);
    expect(sockets.sockets.length).toBeGreaterThanOrEqual(1);
    const events = sockets.events();
    expect(events[0].type).toBe("snapshot");
    expect(events.some((e) => e.type === "answer.delta")).toBe(true);
    expect(events.some((e) => e.type === "run.completed")).toBe(true);

    // A download can't carry the header on a plain link: the page fetches it with the token and saves it.
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 10_000 }),
      page.getByRole("link", { name: "Export JSON" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`quorum-run-${runId}.json`);
    const file = path.join(ARTIFACTS, "access-token-export.json");
    await download.saveAs(file);
    expect(JSON.parse(await readFile(file, "utf8")).run.question).toBe("Is the token working?");

    // History with the token; then forgetting it brings the question back.
    await page.getByRole("link", { name: "History" }).click();
    await page.locator(`li[data-run-id="${runId}"]`).waitFor({ timeout: 10_000 });
    await page.getByRole("button", { name: "Forget token" }).click();
    await page.getByLabel("Access token", { exact: true }).waitFor({ timeout: 10_000 });
    expect(await page.evaluate("localStorage.getItem('quorum.token')")).toBeNull();
  });
});
