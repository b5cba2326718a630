/**
 * "Try an example" in a real browser, as a first visit with no keys meets it: a button fills the question box on
 * the setup page and the prompt box of a new arena round, and the demo models answer the example for real.
 */
import { expect, test } from "vitest";
import { isFocused } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";

interface ExampleList {
  examples: { id: string; title: string; question: string }[];
}

describeInBrowser("Try an example, in a real browser", () => {
  const { server, open } = browserSuite({ vars: { QUORUM_DEMO_DELAY_MS: "1" } });

  const examples = async () => ((await (await fetch(`${server.url}/api/examples`)).json()) as ExampleList).examples;

  test("a button on the setup page fills the question, and the demo models answer it with prepared answers", async () => {
    const [vector] = await examples();
    const page = await open();
    await page.goto(server.url);
    const offered = page.getByRole("group", { name: "Try an example:" });
    await offered.getByRole("button", { name: vector.title }).click();
    const box = page.getByLabel("Question");
    expect(await box.inputValue()).toBe(vector.question);
    expect(await isFocused(box)).toBe(true);

    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForURL(/\/runs\//, { timeout: 15_000 });
    await page.locator(".answer-card", { hasText: "unless you already run Postgres" }).waitFor({ timeout: 30_000 });
    await page
      .locator(".answer-card", { hasText: "I'd be wary of anyone who names a winner" })
      .waitFor({ timeout: 30_000 });
  });

  test("a button on a new arena round fills the prompt, and both sampled demo models answer it with prepared answers", async () => {
    const list = await examples();
    const message = list.find((e) => e.id === "team-message")!;
    const page = await open();
    await page.goto(`${server.url}/arena`);
    await page.getByRole("group", { name: "Try an example:" }).getByRole("button", { name: message.title }).click();
    expect(await page.locator("#arena-prompt").inputValue()).toBe(message.question);
    expect(await page.getByRole("group", { name: "Try an example:" }).getByRole("button").count()).toBe(list.length);

    await page.getByRole("button", { name: "Send to both" }).click();
    await page.getByTestId("comparison-status").filter({ hasText: "Ready for your vote" }).waitFor({ timeout: 30_000 });
    for (const side of ["left", "right"])
      expect(await page.locator(`.arena-pane[data-side=${side}] .reply-body`).last().innerText()).toContain(
        "Offline demo: a prepared answer to one of Quorum's example questions.",
      );
  });
});
