/**
 * The setup page's reviewers and rubric in a real browser: a person picks a judge-only reviewer with the model
 * picker and writes a three-dimension rubric, and the run they start reviews by them, as its page and the API show.
 */
import { expect, test } from "vitest";
import type { RunDetail } from "../../worker/shared/run";
import { screenshot } from "../helpers/e2e-browser";
import { unlabelledControls, waitForCount } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";

const RUN_WAIT = 30_000;

describeInBrowser("Reviewers and rubrics in a real browser", () => {
  const { server, open } = browserSuite({ vars: { QUORUM_DEMO_DELAY_MS: "5" } });

  test("the reviewer picker and the rubric editor start a run that a judge-only demo reviews by the rubric", async () => {
    const page = await open();
    await page.goto(server.url);
    // A first visit with no keys starts with the three demo models: the skeptic becomes the judge instead.
    await page.getByRole("heading", { name: "Selected models (3)" }).waitFor();
    await page.getByRole("checkbox", { name: "Demo · Skeptic" }).uncheck();
    await page.getByRole("heading", { name: "Selected models (2)" }).waitFor();

    await page.getByText("Advanced: reviewers and rubric").click();
    const reviewers = page.getByLabel("Reviewers");
    expect(await reviewers.getAttribute("role")).toBe("combobox");
    // A name that is not an id is said beside the field once the person leaves it.
    await reviewers.fill("skeptic");
    await page.getByLabel("Question").focus();
    expect(await page.locator("#reviewers-error").textContent()).toBe(
      "“skeptic” is not a model id: reviewers are named like provider:model-name.",
    );
    expect(await reviewers.getAttribute("aria-invalid")).toBe("true");
    await reviewers.fill("");
    await reviewers.pressSequentially("skeptic");
    await reviewers.press("ArrowDown");
    await reviewers.press("Enter");
    expect(await reviewers.inputValue()).toBe("demo:skeptic");
    expect(await page.locator("#reviewers-error").count()).toBe(0);

    const rows = [
      ["accuracy", "Are the facts right?", "3"],
      ["brevity", "Is it short?", "1"],
      ["tone", "Is it friendly?", "1"],
    ];
    for (const [i, [key, description, weight]] of rows.entries()) {
      await page.getByRole("button", { name: "Add a dimension" }).click();
      await page.getByLabel(`Key of dimension ${i + 1}`).fill(key);
      await page.getByLabel(`What dimension ${i + 1} judges`).fill(description);
      await page.getByLabel(`Weight of dimension ${i + 1}`).fill(weight);
    }
    // A fourth row, removed again, leaves the three.
    await page.getByRole("button", { name: "Add a dimension" }).click();
    await page.getByRole("button", { name: "Remove dimension 4" }).click();
    expect(await page.getByLabel("Key of dimension 4").count()).toBe(0);
    expect(await unlabelledControls(page)).toEqual([]);
    expect(await page.getByTestId("choice-summary").textContent()).toContain("1 reviewer · rubric of 3");

    await page.getByLabel("Question").fill("Explain recursion in one paragraph.");
    await screenshot(page, "council-controls-setup");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}-[0-9a-f]{32}$/, { timeout: 10_000 });
    const runId = page.url().split("/").pop()!;

    // The run page names the judge and shows the rubric; its one reviewer card is the judge's.
    await page.locator("table.ranking").waitFor({ timeout: RUN_WAIT });
    await waitForCount(page, ".reviewer-card", 1, RUN_WAIT);
    expect(await page.getByTestId("review-plan-reviewers").textContent()).toContain("Judge only");
    expect(await page.getByTestId("judge-only").count()).toBe(1);
    // Named once the blind run ends, though it has no label to be named by.
    await page.getByRole("heading", { name: /^Review by Demo · Skeptic/ }).waitFor({ timeout: RUN_WAIT });
    expect(await page.getByTestId("rubric").locator("tbody th").allTextContents()).toEqual([
      "accuracy",
      "brevity",
      "tone",
    ]);
    expect(await page.locator(".reviewer-card .scores dt").first().textContent()).toBe("accuracy");
    expect(await page.locator("table.ranking thead th").last().textContent()).toBe("Mean accuracy");
    expect(await page.locator("header .muted.small").nth(1).textContent()).toContain(
      "1 reviewer chosen · rubric of 3 ·",
    );
    await screenshot(page, "council-controls-run");

    const detail = (await (await fetch(`${server.url}/api/runs/${runId}`)).json()) as RunDetail;
    expect(detail.run.status).toBe("done");
    expect(detail.run.settings.reviewers).toEqual(["demo:skeptic"]);
    expect(detail.run.settings.rubric).toEqual({
      dimensions: rows.map(([key, description, weight]) => ({ key, description, weight: Number(weight) })),
    });
    expect(detail.answers.map((a) => a.modelId).sort()).toEqual(["demo:concise", "demo:thorough"]);
    expect(detail.reviewers.map((r) => [r.reviewerModelId, r.reviewerLabel])).toEqual([["demo:skeptic", null]]);
    for (const v of detail.reviews) expect(Object.keys(v.scores)).toEqual(["accuracy", "brevity", "tone"]);
  });
});
