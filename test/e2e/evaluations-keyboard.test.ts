/**
 * The whole evaluation flow by keyboard alone on a 390 px phone: from the navigation to New evaluation, ten pasted
 * prompts, contestants and a judge picked from the suggestions, a baseline, Estimate, Start, the live progress, and
 * an item of the report opened. Tab, Shift+Tab, Enter, Space, End and the arrow keys only; every control reached
 * must be on screen at that width. The baseline's first answer is held at the stub, so the progress is seen for
 * certain before the evaluation ends.
 */
import type { Locator, Page } from "playwright-core";
import { expect, test } from "vitest";
import { screenshot } from "../helpers/e2e-browser";
import { fitsWidth, isFocused } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";
import { releaseHold, scriptModel, waitForHeld } from "../helpers/stub-client";

const WIDTH = 390;
const TEN = Array.from({ length: 10 }, (_, k) => `Name ${k + 2} uses for a paperclip.`);

/** Presses Tab until `target` has the focus (at most `limit` times), then checks it is on screen. */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let n = 0; n < limit; n++) {
    await page.keyboard.press("Tab");
    if ((await target.count()) === 1 && (await isFocused(target))) {
      const box = await target.boundingBox();
      expect(box, "the focused control takes up room").not.toBeNull();
      if (box) expect(box.x >= 0 && box.x + box.width <= WIDTH + 1, `${target} fits ${WIDTH} px`).toBe(true);
      return;
    }
  }
  throw new Error(`${target} was not reached in ${limit} presses of Tab`);
}

/** Types part of a model's name into a suggestion field and chooses the first suggestion with the arrow and Enter. */
async function choose(page: Page, field: Locator, typed: string, expected: RegExp): Promise<void> {
  await page.keyboard.type(typed);
  await page
    .locator(`#${await field.getAttribute("aria-controls")} [role=option]`)
    .first()
    .waitFor({ timeout: 5_000 });
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  expect(await field.inputValue()).toMatch(expected);
}

describeInBrowser("an evaluation by keyboard alone on a phone", () => {
  const { server, stub, open } = browserSuite({ stub: true, vars: { QUORUM_DEMO_DELAY_MS: "5" } });

  test("ten pasted prompts, contestants, baseline, Estimate, Start, progress and the report, with no pointer", async () => {
    const made = await fetch(`${server.url}/api/presets`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Terse", modelId: "demo:concise", systemPrompt: "Answer in one sentence." }),
    });
    expect(made.status).toBe(201);
    await scriptModel(stub.url, "gpt-4o-mini", [{ text: "Hold a stack of paper.", holdKey: "kb-first" }]);
    const page = await open({ viewport: { width: WIDTH, height: 844 }, touch: true });
    await page.goto(server.url);

    await tabTo(page, page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Evaluations" }));
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Evaluations", level: 1 }).waitFor({ timeout: 10_000 });
    await tabTo(page, page.getByRole("link", { name: "New evaluation" }));
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "New evaluation", level: 1 }).waitFor({ timeout: 10_000 });
    expect(await fitsWidth(page)).toBe(true);

    await tabTo(page, page.getByLabel("Name", { exact: true }));
    await page.keyboard.type("By keyboard");
    await tabTo(page, page.getByLabel("Prompt set"));
    // The last choice is "Paste new prompts…" (the only one on a fresh Quorum).
    await page.keyboard.press("End");
    await tabTo(page, page.getByLabel("Prompts, one per line"));
    await page.keyboard.insertText(TEN.join("\n"));
    expect(await page.locator("#evaluation-prompts-count").innerText()).toMatch(/^10 prompts/);

    const contestants = page.getByLabel(/^Contestants/);
    await tabTo(page, contestants);
    await choose(page, contestants, "Terse", /^preset:terse@1$/);
    await page.keyboard.type(",");
    await choose(page, contestants, "gpt-4o-mini", /^preset:terse@1, openai:gpt-4o-mini$/);
    await tabTo(page, page.getByLabel("Baseline"));
    await page.keyboard.press("End");
    expect(await page.getByLabel("Baseline").inputValue()).toBe("openai:gpt-4o-mini");
    const judges = page.getByLabel(/^Judges/);
    await tabTo(page, judges);
    await choose(page, judges, "skeptic", /^demo:skeptic$/);

    await tabTo(page, page.getByRole("button", { name: "Estimate" }));
    await page.keyboard.press("Space");
    const estimate = page.getByTestId("evaluation-estimate");
    await estimate.waitFor({ timeout: 10_000 });
    expect(await estimate.innerText()).toMatch(/20 answer calls and 20 judge calls/);
    await tabTo(page, page.getByRole("button", { name: "Start" }));
    await page.keyboard.press("Enter");

    // Live progress while the baseline's first answer is held; then the report once it is let go.
    await page.getByRole("heading", { name: "By keyboard", level: 1 }).waitFor({ timeout: 15_000 });
    await waitForHeld(stub.url, "kb-first", 1, 15_000);
    const progress = page.getByRole("progressbar", { name: "Calls done" });
    await progress.waitFor({ timeout: 10_000 });
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, "evaluation-keyboard-progress");
    expect(await releaseHold(stub.url, "kb-first")).toBe(1);
    await page.locator('[data-testid="evaluation-status"]:text("completed")').waitFor({ timeout: 60_000 });

    const matrix = page.getByTestId("evaluation-matrix");
    await matrix.locator("tbody tr").nth(9).waitFor({ timeout: 10_000 });
    await page.locator("#main").focus();
    await tabTo(page, matrix.locator("tbody tr").first().getByRole("button"), 80);
    await page.keyboard.press("Enter");
    const item = page.getByTestId("item-detail");
    await item.locator(".verdicts li").nth(1).waitFor({ timeout: 10_000 });
    expect(await item.locator(".answers-side-by-side article").count()).toBe(2);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, "evaluation-keyboard-report");
  });
});
