/**
 * Presets in a real browser: saved on the Presets page, picked on the setup page like a model, run in a council
 * with their own system prompt, then edited (a used version is kept, the edit is the next version) and deleted.
 */
import { expect, test } from "vitest";
import { fitsWidth, unlabelledControls, waitForCount } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";
import { callsFor, poll, scriptModel } from "../helpers/stub-client";

const WAIT = 30_000;

describeInBrowser("Presets in a real browser", () => {
  const { server, stub, open } = browserSuite({ stub: true });

  test("a preset saved on the Presets page is picked on the setup page, answers a council run with its prompt, and is edited and deleted", async () => {
    await scriptModel(stub.url, "e2e-preset-base", [{ text: "Paris." }]);
    await scriptModel(stub.url, "gpt-4o-mini", [{ text: "The capital of France is Paris, on the Seine." }]);
    const page = await open();
    await page.goto(`${server.url}/presets`);
    await page.getByRole("heading", { name: "Presets", level: 1 }).waitFor();
    expect(await page.getByText("No presets yet: save one above.").count()).toBe(1);

    await page.getByLabel("Name").fill("Terse e2e");
    const model = page.getByLabel("Model", { exact: true });
    await model.fill("openai:e2e-preset-base");
    await model.press("Escape");
    await page.getByLabel("System prompt").fill("Answer in one sentence.");
    await page.getByLabel("Temperature").fill("0.2");
    await page.getByRole("button", { name: "Save preset" }).click();
    await page.getByRole("heading", { name: "Terse e2e v1" }).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("presets-notice").textContent()).toBe("Saved Terse e2e v1 as preset:terse-e2e@1.");
    expect(await page.locator("[data-preset=terse-e2e]").textContent()).toContain("On openai:e2e-preset-base");
    expect(await unlabelledControls(page)).toEqual([]);

    // The setup page lists it with the models, and runs it like one.
    await page.goto(server.url);
    const presetBox = page.getByRole("checkbox", { name: "Terse e2e v1" });
    await presetBox.waitFor({ timeout: 10_000 });
    await presetBox.check();
    await page.getByRole("checkbox", { name: "GPT-4o mini" }).check();
    expect(await page.getByRole("heading", { name: "Selected models (2)" }).count()).toBe(1);
    expect(await page.locator(".picked-list").textContent()).toContain("A preset on openai:e2e-preset-base");
    await page.getByLabel("Question").fill("What is the capital of France?");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForURL(/\/runs\//, { timeout: 10_000 });
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: WAIT });
    await waitForCount(page, ".answer-card[data-status=done]", 2, WAIT);
    // The answer is named by the preset, its model beside it, as the leaderboard names it.
    const answerCard = page.locator(".answer-card", { hasText: "Terse e2e v1" });
    expect(await answerCard.textContent()).toContain("Paris.");
    expect(await answerCard.locator(".card-head").innerText()).toContain("on openai:e2e-preset-base");
    expect(await page.locator("main").innerText()).not.toContain("preset:");
    const [answer] = (await callsFor(stub.url, "e2e-preset-base")).filter((c) => c.kind === "answer");
    const messages = answer.body.messages as unknown as { role: string; content: string }[];
    expect(messages[0]).toEqual({ role: "system", content: "Answer in one sentence." });
    expect(answer.body.temperature).toBe(0.2);

    // So does History's row.
    await page.goto(`${server.url}/history`);
    const listed = page.locator("li[data-run-id]", { hasText: "What is the capital of France?" });
    await listed.waitFor({ timeout: 10_000 });
    expect(await listed.innerText()).toContain("Terse e2e v1 on openai:e2e-preset-base");
    expect(await listed.innerText()).not.toContain("preset:");

    // Used now: an edit is saved as version 2, and says so.
    await page.goto(`${server.url}/presets`);
    const card = page.locator("[data-preset=terse-e2e]");
    await card.getByText(/used since/).waitFor({ timeout: 10_000 });
    await page.getByRole("button", { name: "Edit Terse e2e" }).click();
    await card.getByLabel("System prompt").fill("Answer in two sentences.");
    await card.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("heading", { name: "Terse e2e v2" }).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("presets-notice").textContent()).toBe(
      "Saved as version 2 (preset:terse-e2e@2): version 1 was used, so it stays as it was.",
    );
    expect(await card.textContent()).toContain("2 versions");

    await page.getByRole("button", { name: "Delete Terse e2e" }).click();
    await card.getByRole("button", { name: "Yes, delete" }).click();
    await page.getByText("No presets yet: save one above.").waitFor({ timeout: 10_000 });
  });

  /** A request to the server as a script would send it (loopback needs no token). */
  async function post(path: string, body: unknown): Promise<{ id: string; status?: string }> {
    const res = await fetch(`${server.url}/api${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: string };
  }

  test("at phone width in dark mode the page fits, every control is labelled, a preset is edited by keyboard, and the leaderboard shows a preset's model under its name", async () => {
    await scriptModel(stub.url, "e2e-phone-base", [{ text: "Yes." }]);
    await scriptModel(stub.url, "e2e-phone-other", [{ text: "No." }]);
    const long = `You are a careful reviewer. ${"Check every claim against its source before you answer. ".repeat(8)}`;
    await post("/presets", { name: "Phone preset", modelId: "openai:e2e-phone-base", systemPrompt: long });
    const page = await open({ viewport: { width: 390, height: 844 }, colorScheme: "dark", touch: true });
    await page.goto(`${server.url}/presets`);
    await page.getByRole("heading", { name: "Phone preset v1" }).waitFor({ timeout: 10_000 });
    expect(await fitsWidth(page)).toBe(true);
    expect(await unlabelledControls(page)).toEqual([]);

    // Not used yet: the edit changes version 1 in place, and says so.
    await page.getByRole("button", { name: "Edit Phone preset" }).focus();
    await page.keyboard.press("Enter");
    const card = page.locator("[data-preset=phone-preset]");
    await card.getByLabel("Temperature").focus();
    await page.keyboard.type("1");
    await card.getByRole("button", { name: "Save changes" }).focus();
    await page.keyboard.press("Enter");
    await card.getByText("temperature 1 ").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("presets-notice").textContent()).toBe(
      "Updated version 1 in place: nothing had used it yet.",
    );
    expect(await fitsWidth(page)).toBe(true);

    // A comparison with names shown puts the preset on the leaderboard, its model under its name.
    const { id } = await post("/comparisons", {
      prompt: "Is the sky blue?",
      models: ["preset:phone-preset@1", "openai:e2e-phone-other"],
      blind: false,
    });
    await poll(
      async () =>
        ((await (await fetch(`${server.url}/api/comparisons/${id}`)).json()) as { comparison: { status: string } })
          .comparison.status,
      (status) => status === "ready",
      WAIT,
      "both sides to answer",
    );
    await page.goto(`${server.url}/leaderboard`);
    const row = page.locator('tr[data-model="preset:phone-preset@1"]');
    await row.waitFor({ timeout: 10_000 });
    expect(await row.locator("th").textContent()).toContain("Phone preset v1");
    expect(await row.getByTestId("base-model").textContent()).toBe("on openai:e2e-phone-base");
    expect(await fitsWidth(page)).toBe(true);
  });
});
