/**
 * Prompt sets in a real browser: ten pasted lines become a set listed with 10 items, whose items the page shows
 * and whose export downloads; History's picked prompts become a set too; on a 390 px phone the page fits and
 * every control has a name.
 */
import { expect, test } from "vitest";
import { screenshot } from "../helpers/e2e-browser";
import { fitsWidth, unlabelledControls } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";

const TEN = Array.from({ length: 10 }, (_, k) => `Prompt number ${k + 1}: what is ${k + 1} squared?`);

describeInBrowser("the Prompt sets page, in a real browser", () => {
  const { server, open } = browserSuite({ build: [/prompt-sets-\S+\.js\s+[\d.]+ KB gzip\s+\(lazy route/] });

  test("ten pasted lines make a set listed with 10 items, shown in order and exported as JSON Lines", async () => {
    const page = await open();
    await page.goto(server.url);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Evaluations" }).click();
    await page.getByRole("main").getByRole("link", { name: "Prompt sets" }).click();
    await page.getByRole("heading", { name: "Prompt sets", level: 1 }).waitFor({ timeout: 10_000 });

    await page.getByLabel("Name", { exact: true }).fill("Ten squares");
    // Blank lines between them are left out.
    await page
      .getByLabel("Prompts, one per line")
      .fill(`${TEN.slice(0, 5).join("\n")}\n\n${TEN.slice(5).join("\n")}\n`);
    expect(await page.locator("#prompt-set-lines-count").innerText()).toMatch(/^10 prompts/);
    await page.getByRole("button", { name: "Create set" }).click();

    const row = page.locator('tr[data-name="Ten squares"]');
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getByTestId("prompt-set-items").innerText()).toBe("10");
    expect(await page.getByTestId("prompt-sets-status").innerText()).toBe('Created "Ten squares" with 10 prompts.');
    expect(await page.getByLabel("Prompts, one per line").inputValue()).toBe("");

    await row.getByRole("button", { name: "View" }).click();
    const view = page.getByTestId("prompt-set-view");
    await view.locator(".prompt-set-prompt").nth(9).waitFor({ timeout: 10_000 });
    expect(await view.locator(".prompt-set-prompt").allInnerTexts()).toEqual(TEN);

    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 10_000 }),
      row.getByRole("link", { name: "JSONL" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("quorum-prompts-ten-squares-v1.jsonl");
    await screenshot(page, "prompt-sets-page");
  });

  test("an uploaded file's bad lines are listed by number, a good file is listed, and an edit as lines saves in place", async () => {
    const page = await open();
    await page.goto(`${server.url}/prompt-sets`);
    await page.getByRole("heading", { name: "Your prompt sets" }).waitFor({ timeout: 10_000 });
    const file = page.getByLabel("File", { exact: true });
    await file.setInputFiles({
      name: "bad.csv",
      mimeType: "text/csv",
      buffer: Buffer.from('id,prompt\na,"fine, quoted"\nb,\na,again\n'),
    });
    await page.getByRole("button", { name: "Upload" }).click();
    const errors = page.locator("#prompt-set-upload-errors li");
    await errors.first().waitFor({ timeout: 10_000 });
    expect(await errors.allInnerTexts()).toEqual([
      "Line 3: prompt is empty",
      'Line 4: id "a" is already used on line 2',
    ]);

    await file.setInputFiles({
      name: "geography.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("prompt\nCapital of Peru?\nCapital of Chile?\n"),
    });
    await page.getByRole("button", { name: "Upload" }).click();
    const row = page.locator('tr[data-name="geography"]');
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getByTestId("prompt-set-items").innerText()).toBe("2");

    await row.getByRole("button", { name: "Edit" }).click();
    await page.locator("#prompt-set-edit-lines").waitFor({ timeout: 10_000 });
    expect(await page.locator("#prompt-set-edit-lines").inputValue()).toBe("Capital of Peru?\nCapital of Chile?");
    await page.locator("#prompt-set-edit-lines").fill("Capital of Peru?\nCapital of Chile?\nCapital of Cuba?");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByTestId("prompt-sets-status").filter({ hasText: "Saved" }).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("prompt-sets-status").innerText()).toBe('Saved "geography": 3 prompts.');
    expect(await row.getByTestId("prompt-set-items").innerText()).toBe("3");
    // The edit closed: the set's view shows its items again.
    expect(await page.locator("#prompt-set-edit-lines").count()).toBe(0);
  });

  test("prompts picked in History are saved as a set", async () => {
    const res = await fetch(`${server.url}/api/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        question: "Which sorting algorithm suits nearly sorted data?",
        models: [{ id: "demo:concise" }],
        settings: { autoEvaluate: false },
      }),
    });
    expect(res.status).toBe(201);
    const page = await open();
    await page.goto(`${server.url}/history`);
    await page.getByRole("checkbox", { name: /^Pick "Which sorting algorithm/ }).check({ timeout: 10_000 });
    await page.getByLabel("Name", { exact: true }).fill("From my history");
    await page.getByRole("button", { name: "Save 1 prompt" }).click();
    const saved = page.getByTestId("history-save-status");
    await saved.filter({ hasText: "Saved" }).waitFor({ timeout: 10_000 });
    expect(await saved.innerText()).toBe('Saved "From my history" with 1 prompt. See prompt sets');
    await screenshot(page, "prompt-sets-history");

    await saved.getByRole("link", { name: "See prompt sets" }).click();
    const row = page.locator('tr[data-name="From my history"]');
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getByTestId("prompt-set-items").innerText()).toBe("1");
  });

  test("on a 390 px phone the page fits and every control is named", async () => {
    const page = await open({ viewport: { width: 390, height: 844 }, touch: true });
    await page.goto(`${server.url}/prompt-sets`);
    await page.getByRole("heading", { name: "Your prompt sets" }).waitFor({ timeout: 10_000 });
    await page.locator("table[data-testid=prompt-sets]").waitFor({ timeout: 10_000 });
    expect(await unlabelledControls(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, "prompt-sets-phone");
  });
});
