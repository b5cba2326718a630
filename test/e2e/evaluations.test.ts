/**
 * An evaluation as a new user runs one, on the demo models with no keys: two presets on one demo model, ten pasted
 * prompts, a baseline and a judge; the estimate, live progress, then the report (intervals, items, cost chart);
 * a changed preset evaluated again and compared with the first. Desktop and phone widths.
 */
import { expect, test } from "vitest";
import { screenshot } from "../helpers/e2e-browser";
import { fitsWidth, unlabelledControls } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";

const TEN = Array.from({ length: 10 }, (_, k) => `How should a team of ${k + 3} pick a vector database?`);

describeInBrowser("an evaluation, in a real browser", () => {
  const { server, open } = browserSuite({ build: [/evaluation-new-\S+\.js\s+[\d.]+ KB gzip\s+\(lazy route/] });

  async function preset(name: string, systemPrompt: string): Promise<string> {
    const res = await fetch(`${server.url}/api/presets`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name, modelId: "demo:concise", systemPrompt }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  test("pasted prompts and two presets on one demo model: estimate, live progress, report, items, and before/after", async () => {
    const terse = await preset("Terse", "Be terse: answer in one sentence.");
    const thorough = await preset("Thorough", "Be thorough: use headings, numbered steps and caveats.");
    const page = await open();
    await page.goto(server.url);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Evaluations" }).click();
    await page.getByRole("link", { name: "New evaluation" }).click();
    await page.getByRole("heading", { name: "New evaluation", level: 1 }).waitFor({ timeout: 10_000 });

    await page.getByLabel("Name", { exact: true }).fill("Terse or thorough");
    await page.getByLabel("Prompt set").selectOption({ label: "Paste new prompts…" });
    await page.getByLabel("Prompts, one per line").fill(TEN.join("\n"));
    await page.getByLabel(/^Contestants/).fill(`${terse}, ${thorough}`);
    await page.getByLabel("Baseline").selectOption(thorough);
    expect(await page.getByLabel("Baseline").locator("option:checked").innerText()).toBe("Thorough v1");
    await page.getByLabel(/^Judges/).fill("demo:skeptic");
    await page.getByRole("button", { name: "Estimate" }).click();
    const estimate = page.getByTestId("evaluation-estimate");
    await estimate.waitFor({ timeout: 10_000 });
    // 10 prompts × 2 contestants answers; 1 judge × 1 pair × 2 orders × 10 prompts.
    expect(await estimate.innerText()).toMatch(/20 answer calls and 20 judge calls/);

    await page.getByRole("button", { name: "Start" }).click();
    await page.getByRole("heading", { name: "Terse or thorough", level: 1 }).waitFor({ timeout: 15_000 });
    await page.locator('[data-testid="evaluation-status"]:text("completed")').waitFor({ timeout: 60_000 });
    const leaderboard = page.getByTestId("evaluation-leaderboard");
    await leaderboard.locator(`tr[data-contestant="${terse}"]`).waitFor({ timeout: 10_000 });
    expect(await leaderboard.locator("tbody tr").count()).toBe(2);
    // The win rate against the baseline, with its interval.
    expect(await leaderboard.locator(`tr[data-contestant="${terse}"] [data-testid="win-rate"]`).innerText()).toMatch(
      /^\d+\.\d% \d+\.\d% – \d+\.\d%$/,
    );
    expect(await page.getByTestId("separation").innerText()).not.toBe("");
    expect(await page.locator(".cost-chart svg circle").count()).toBe(2);
    const matrix = page.getByTestId("evaluation-matrix");
    await matrix.locator("tbody tr").nth(9).waitFor({ timeout: 10_000 });
    expect(await matrix.locator("tbody tr").count()).toBe(10);
    await matrix.locator("tbody tr").first().getByRole("button").click();
    const item = page.getByTestId("item-detail");
    await item.locator(".verdicts li").nth(1).waitFor({ timeout: 10_000 });
    expect(await item.locator(".answers-side-by-side article").count()).toBe(2);
    await screenshot(page, "evaluation-report");
    const first = new URL(page.url()).pathname.split("/").pop() ?? "";

    // The terse preset changes: it was used, so its edit is version 2; the same evaluation again, then compare.
    const edited = await fetch(`${server.url}/api/presets/terse`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ systemPrompt: "Be terse, but add one caveat." }),
    });
    const terse2 = ((await edited.json()) as { id: string }).id;
    expect(terse2).toBe("preset:terse@2");
    const setId = ((await (await fetch(`${server.url}/api/evaluations/${first}`)).json()) as { promptSetId: string })
      .promptSetId;
    const again = await fetch(`${server.url}/api/evaluations`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        name: "Terse v2",
        promptSetId: setId,
        contestants: [terse2, thorough],
        baseline: thorough,
        judges: ["demo:skeptic"],
      }),
    });
    expect(again.status).toBe(201);
    const second = ((await again.json()) as { id: string }).id;
    await page.goto(`${server.url}/evaluations/${second}`);
    await page.locator('[data-testid="evaluation-status"]:text("completed")').waitFor({ timeout: 60_000 });
    await page.goto(`${server.url}/evaluations/compare?a=${first}&b=${second}`);
    const changes = page.getByTestId("compare-contestants");
    await changes.locator("tbody tr").first().waitFor({ timeout: 10_000 });
    // Contestants are named as the leaderboard names them, never by their ids.
    expect(await changes.locator("tbody tr").first().innerText()).toContain(
      "Terse v1 on demo:concise → Terse v2 on demo:concise",
    );
    expect(await page.locator("main").innerText()).not.toContain("preset:");
    await page.goto(`${server.url}/evaluations`);
    const listed = page.getByTestId("evaluations");
    await listed.locator("tbody tr").first().waitFor({ timeout: 10_000 });
    const row = await listed
      .locator("tbody tr")
      .filter({ has: page.getByRole("link", { name: "Terse or thorough", exact: true }) })
      .innerText();
    expect(row).toContain("Terse v1 on demo:concise, Thorough v1 on demo:concise");
    expect(row).toContain("baseline Thorough v1 on demo:concise");
    expect(await listed.innerText()).not.toContain("preset:");
  });

  test("Suggest a revision: the diff and rationale, saved as version 2, evaluated again, compared with the first", async () => {
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string };
    };
    const plain = (
      await post("/api/presets", { name: "Plain", modelId: "demo:concise", systemPrompt: "Answer plainly." })
    ).id;
    const set = await post("/api/prompt-sets", {
      name: "Revision prompts",
      items: TEN.slice(0, 3).map((prompt) => ({ prompt })),
    });
    const first = (
      await post("/api/evaluations", {
        name: "Plain before",
        promptSetId: set.id,
        contestants: [plain, "demo:skeptic"],
        baseline: "demo:skeptic",
        judges: ["demo:thorough"],
      })
    ).id;
    const page = await open();
    await page.goto(`${server.url}/evaluations/${first}`);
    await page.locator('[data-testid="evaluation-status"]:text("completed")').waitFor({ timeout: 60_000 });
    const panel = page.getByTestId("revision-panel");
    expect(await panel.getByLabel("Drafting model").inputValue()).toBe("demo:thorough");
    await panel.getByRole("button", { name: "Suggest a revision" }).click();
    await panel.getByTestId("revision-rationale").waitFor({ timeout: 10_000 });
    expect(await panel.getByTestId("revision-current").innerText()).toBe("Answer plainly.");
    expect(await panel.locator('[data-testid="revision-revised"] mark').allInnerTexts()).toEqual([
      "Use numbered steps.",
    ]);
    await panel.getByRole("button", { name: "Save as version 2" }).click();
    await panel.getByText("Saved as preset:plain@2").waitFor({ timeout: 10_000 });
    await panel.getByRole("button", { name: "Evaluate the revision" }).click();
    await page.waitForURL(/\/evaluations\/[^/?]+\?previous=/, { timeout: 10_000 });
    const second = new URL(page.url()).pathname.split("/").pop() ?? "";
    expect(second).not.toBe(first);
    await page.locator('[data-testid="evaluation-status"]:text("completed")').waitFor({ timeout: 60_000 });
    await page.getByRole("link", { name: "Compare with the previous evaluation" }).click();
    const changes = page.getByTestId("compare-contestants");
    await changes.locator("tbody tr").first().waitFor({ timeout: 10_000 });
    expect(await changes.innerText()).toContain("Plain v1 on demo:concise → Plain v2 on demo:concise");
  });

  test("goal battles from the page: pasted goals, a demo playing the user; each matrix cell opens its battle", async () => {
    const page = await open();
    await page.goto(`${server.url}/evaluations/new`);
    await page.getByRole("heading", { name: "New evaluation", level: 1 }).waitFor({ timeout: 10_000 });
    await page.getByLabel("Name", { exact: true }).fill("Who plans best");
    await page.getByRole("radio", { name: "Goal battles" }).check();
    expect(await page.getByTestId("evaluation-method-help").innerText()).toMatch(
      /^Each prompt's goal is a goal battle/,
    );
    await page.getByLabel("Prompt set").selectOption({ label: "Paste new prompts…" });
    await page
      .getByLabel(/^Goals, one per line/)
      .fill("Write a packing list for a weekend hike\nPlan a three-day trip to Lisbon");
    await page.getByLabel(/^Contestants/).fill("demo:thorough, demo:skeptic");
    await page.getByRole("radio", { name: "A model plays the user" }).check();
    await page.getByLabel("User model").fill("demo:concise");
    await page.getByLabel("Turns at most").fill("6");
    await page.getByRole("button", { name: "Estimate" }).click();
    const estimate = page.getByTestId("evaluation-estimate");
    await estimate.waitFor({ timeout: 10_000 });
    expect(await estimate.innerText()).toMatch(/2 goal battles/);

    await page.getByRole("button", { name: "Start" }).click();
    await page.getByRole("heading", { name: "Who plans best", level: 1 }).waitFor({ timeout: 15_000 });
    await page.locator('[data-testid="evaluation-status"]:text("completed")').waitFor({ timeout: 60_000 });
    const matrix = page.getByTestId("evaluation-matrix");
    await matrix.locator("tbody tr").nth(1).waitFor({ timeout: 10_000 });
    const link = matrix.locator("tbody tr").first().locator("a.goal-battle-link").first();
    expect(await link.innerText()).toMatch(/^(won|lost) vs Demo/);
    await screenshot(page, "evaluation-goal-report");
    await link.click();
    await page.waitForURL(/\/goal-battles\/[^/]+$/, { timeout: 10_000 });
    await page.getByRole("heading", { name: "Write a packing list for a weekend hike", level: 1 }).waitFor({
      timeout: 10_000,
    });
    expect(await page.getByTestId("goal-state").innerText()).not.toBe("");
  });

  test("on a 390 px phone the new-evaluation form and the list fit, and every control has a name", async () => {
    const page = await open({ viewport: { width: 390, height: 844 }, touch: true });
    await page.goto(`${server.url}/evaluations/new`);
    await page.getByRole("heading", { name: "New evaluation", level: 1 }).waitFor({ timeout: 10_000 });
    expect(await fitsWidth(page)).toBe(true);
    expect(await unlabelledControls(page)).toEqual([]);
    // …the goal battles' settings too.
    await page.getByRole("radio", { name: "Goal battles" }).check();
    await page.getByTestId("goal-settings").waitFor({ timeout: 10_000 });
    expect(await fitsWidth(page)).toBe(true);
    expect(await unlabelledControls(page)).toEqual([]);
    await page.goto(`${server.url}/evaluations`);
    await page.getByRole("heading", { name: "Evaluations", level: 1 }).waitFor({ timeout: 10_000 });
    expect(await fitsWidth(page)).toBe(true);
  });
});
