/**
 * The Providers page in a real browser, with OpenAI and Google pointed at the provider stub, an OpenAI-compatible
 * server there too, and Anthropic left out: statuses in words, connection tests that succeed and fail, the line
 * Anthropic lacks ready to copy, the server's discovered models, and no key anywhere on the page.
 */
import { expect, test } from "vitest";
import { screenshot } from "../helpers/e2e-browser";
import { fitsWidth, unlabelledControls } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser, providerVars } from "../helpers/e2e-suite";
import { scriptModelsList } from "../helpers/stub-client";

describeInBrowser("the Providers page, in a real browser", () => {
  const { server, stub, open } = browserSuite({
    stub: true,
    build: [/providers-\S+\.js\s+[\d.]+ KB gzip\s+\(lazy route/],
    vars: (stubUrl) => ({
      ANTHROPIC_API_KEY: "",
      OPENAI_COMPATIBLE_BASE_URL: `${stubUrl}/compat/v1`,
      OPENAI_COMPATIBLE_API_KEY: "compat-e2e-page-key",
    }),
  });

  test("shows each provider's status, tests a connection, offers the missing line and lists the server's models", async () => {
    const page = await open();
    await page.goto(server.url);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Providers" }).click();
    await page.getByRole("heading", { name: "Providers", level: 1 }).waitFor({ timeout: 10_000 });
    const card = (id: string) => page.locator(`.provider-card[data-provider="${id}"]`);
    await card("openai").waitFor({ timeout: 10_000 });

    expect(await card("openai").locator(".status").innerText()).toBe("Available");
    expect(await card("openai").locator(".provider-reason").innerText()).toBe("OPENAI_API_KEY is set.");
    expect(await card("anthropic").locator(".status").innerText()).toBe("Not configured");
    expect(await card("anthropic").locator(".provider-reason").innerText()).toBe("No ANTHROPIC_API_KEY is set.");
    expect(await card("anthropic").getByRole("button", { name: "Test connection" }).count()).toBe(0);
    expect(await card("openai-compatible").locator(".provider-models li").allInnerTexts()).toEqual([
      "stub-llama:8b",
      "stub-qwen:7b",
    ]);

    await card("openai").getByRole("button", { name: "Test connection" }).click();
    const result = card("openai").getByRole("status");
    await result.filter({ hasText: "Connected" }).waitFor({ timeout: 15_000 });
    expect(await result.innerText()).toMatch(/^Connected: OpenAI answered\. \(\d+ ms\)$/);

    const googleKey = providerVars(stub.url).GOOGLE_API_KEY;
    await scriptModelsList(stub.url, googleKey, [{ status: 401, errorMessage: `key ${googleKey} is not valid` }]);
    await card("google").getByRole("button", { name: "Test connection" }).click();
    const refused = card("google").getByRole("status");
    await refused.filter({ hasText: "Failed" }).waitFor({ timeout: 15_000 });
    expect(await refused.innerText()).toContain(
      "Failed: Google rejected the API key (401). Check GOOGLE_API_KEY (or GEMINI_API_KEY) in .dev.vars",
    );

    expect(await page.getByLabel("Lines to add to .dev.vars").inputValue()).toBe("ANTHROPIC_API_KEY=\n");
    await page.getByRole("button", { name: "Copy", exact: true }).click();
    await page
      .locator(".dev-vars [role=status]")
      .filter({ hasText: /Copied|Selected/ })
      .waitFor({ timeout: 5_000 });
    expect(await page.locator(".dev-vars").innerText()).toContain("run it again");

    const keys = Object.values(providerVars("")).filter((v) => v.length > 8);
    const html = await page.content();
    expect(keys.filter((k) => html.includes(k))).toEqual([]);
    expect(html).not.toContain("compat-e2e-page-key");
    await screenshot(page, "providers-desktop");
  });

  test("at phone width the page fits and every control is labelled", async () => {
    const page = await open({ viewport: { width: 390, height: 844 }, touch: true });
    await page.goto(`${server.url}/providers`);
    await page.locator(".provider-card").first().waitFor({ timeout: 10_000 });
    await page.getByLabel("Lines to add to .dev.vars").waitFor({ timeout: 10_000 });
    expect(await unlabelledControls(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, "providers-phone");
  });
});
