/**
 * Model pickers in a real browser: every field that names a model suggests the catalog's models as the person
 * types, takes any provider:model id too, and says beside itself what is wrong with an id until it is right.
 */
import type { Locator, Page } from "playwright-core";
import { expect, test } from "vitest";
import { readableText, unlabelledControls, waitForCount } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";
import { scriptModel } from "../helpers/stub-client";

const STREAM_WAIT = 30_000;

/** The suggestions a combobox offers now, as their visible text. */
async function suggestions(page: Page, field: Locator): Promise<string[]> {
  const list = page.locator(`#${await field.getAttribute("aria-controls")}`);
  await list.waitFor({ state: "visible", timeout: 5_000 });
  return list.getByRole("option").allTextContents();
}

/** The state a screen reader reads from a field: invalid or not, and the text of what describes it. */
async function fieldState(page: Page, field: Locator) {
  const ids = ((await field.getAttribute("aria-describedby")) ?? "").split(" ").filter(Boolean);
  const described = [];
  for (const id of ids) described.push(await readableText(page.locator(`#${id}`)));
  return { invalid: await field.getAttribute("aria-invalid"), described };
}

describeInBrowser("Model pickers in a real browser", () => {
  const { server, stub, open } = browserSuite({
    stub: true,
    vars: { QUORUM_MIN_VOTE_MS: "0", QUORUM_ARENA_TIMEOUT_MS: "30000" },
  });

  async function openNamedOptions(page: Page) {
    await page.goto(`${server.url}/arena`);
    await page.getByText("Options: models, category, blind, judges, settings").click();
    await page.getByRole("radio", { name: "Two models I name" }).check();
  }

  test("typing part of a name offers the matching models; arrows and Enter, or a click, choose one and fill its id; the judge list suggests after its last comma", async () => {
    const page = await open();
    await openNamedOptions(page);
    const first = page.getByLabel("First model id");
    expect(await first.getAttribute("role")).toBe("combobox");
    expect(await first.getAttribute("aria-expanded")).toBe("false");

    await first.pressSequentially("sonnet");
    expect(await suggestions(page, first)).toEqual(["Claude Sonnet 4.5 anthropic:claude-sonnet-4-5"]);
    expect(await first.getAttribute("aria-expanded")).toBe("true");
    await first.press("ArrowDown");
    const active = await first.getAttribute("aria-activedescendant");
    expect(await page.locator(`#${active}`).getAttribute("aria-selected")).toBe("true");
    expect(await page.locator(`#${active}`).textContent()).toBe("Claude Sonnet 4.5 anthropic:claude-sonnet-4-5");
    expect(await unlabelledControls(page)).toEqual([]);
    await first.press("Enter");
    expect(await first.inputValue()).toBe("anthropic:claude-sonnet-4-5");
    expect(await first.getAttribute("aria-expanded")).toBe("false");
    // Choosing stayed in the field: Enter did not send the (empty) prompt.
    expect(new URL(page.url()).pathname).toBe("/arena");

    const second = page.getByLabel("Second model id");
    await second.pressSequentially("flash");
    expect(await suggestions(page, second)).toEqual([
      "Gemini 2.5 Flash google:gemini-2.5-flash",
      "Gemini 2.5 Flash-Lite google:gemini-2.5-flash-lite",
    ]);
    await page.getByRole("option", { name: "Gemini 2.5 Flash-Lite google:gemini-2.5-flash-lite" }).click();
    expect(await second.inputValue()).toBe("google:gemini-2.5-flash-lite");
    expect(await second.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);

    // Escape closes the suggestions and keeps what was typed.
    await second.fill("");
    await second.pressSequentially("gpt-4o");
    expect(await suggestions(page, second)).toEqual(["GPT-4o openai:gpt-4o", "GPT-4o mini openai:gpt-4o-mini"]);
    await second.press("Escape");
    expect(await second.getAttribute("aria-expanded")).toBe("false");
    expect(await second.inputValue()).toBe("gpt-4o");

    // Several judges: suggestions follow the id after the last comma, without those already named.
    const judges = page.getByLabel("Auto-judge (optional)");
    await judges.fill("anthropic:claude-haiku-4-5,");
    await judges.pressSequentially(" haiku");
    expect(await suggestions(page, judges)).toEqual(["Claude Haiku 3.5 anthropic:claude-3-5-haiku-latest"]);
    await judges.press("ArrowDown");
    await judges.press("Enter");
    expect(await judges.inputValue()).toBe("anthropic:claude-haiku-4-5, anthropic:claude-3-5-haiku-latest");
  });

  test("a bad model id or judge id is reported beside its field, not in the vote bar, and the error goes once the field is right", async () => {
    await scriptModel(stub.url, "pk-one", [{ text: "Recursion: a function that calls itself." }]);
    await scriptModel(stub.url, "pk-two", [{ text: "Recursion solves a problem through smaller copies of itself." }]);
    const page = await open();
    await openNamedOptions(page);
    const first = page.getByLabel("First model id");
    const judges = page.getByLabel("Auto-judge (optional)");
    await first.fill("pk-one");
    await page.getByLabel("Second model id").fill("anthropic:pk-two");
    await judges.fill("openai:fine, judge-x");
    await page.getByLabel("Prompt", { exact: true }).fill("What is recursion?");
    await page.getByLabel("Prompt", { exact: true }).press("Enter");

    expect(await fieldState(page, first)).toEqual({
      invalid: "true",
      described: ["“pk-one” is not a model id: models are named like provider:model-name."],
    });
    expect(await first.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect((await fieldState(page, judges)).invalid).toBe("true");
    expect((await fieldState(page, judges)).described[1]).toBe(
      "“judge-x” is not a model id: judges are named like provider:model-name.",
    );
    expect(await page.locator(".vote-bar [role=alert]").count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe("/arena");

    await first.fill("openai:pk-one");
    expect(await fieldState(page, first)).toEqual({ invalid: "false", described: [] });
    await judges.fill("");
    expect((await fieldState(page, judges)).invalid).toBe("false");
    expect((await fieldState(page, judges)).described).toHaveLength(1);

    await page.getByLabel("Prompt", { exact: true }).press("Enter");
    await page.waitForURL(/\/arena\/[0-9a-f-]{36}-[0-9a-f]{32}$/, { timeout: 10_000 });
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);

    // Ask judges on the round: the same, beside the judge field.
    const ask = page.getByLabel("Judge model ids");
    await ask.fill("openai:judge-ok, nojudge");
    await page.getByRole("button", { name: "Ask judges" }).click();
    expect(await fieldState(page, ask)).toEqual({
      invalid: "true",
      described: [
        "Comma-separated. Each judge compares A and B twice, the second time with their places swapped. Their verdicts stay hidden until you vote, so they can't sway you.",
        "“nojudge” is not a model id: judges are named like provider:model-name.",
      ],
    });
    expect(await page.locator(".vote-bar [role=alert]").count()).toBe(0);
    await ask.fill("openai:judge-ok, google:nojudge");
    expect((await fieldState(page, ask)).invalid).toBe("false");
    expect((await fieldState(page, ask)).described).toHaveLength(1);
    expect(await unlabelledControls(page)).toEqual([]);
  });

  test("the setup page's Model id suggests the models not ticked yet, and a bad id's error goes once it is corrected", async () => {
    const page = await open();
    await page.goto(`${server.url}/`);
    const field = page.getByLabel("Model id");
    await field.waitFor({ timeout: 10_000 });
    await field.pressSequentially("opus");
    expect(await suggestions(page, field)).toEqual(["Claude Opus 4.1 anthropic:claude-opus-4-1"]);
    await field.press("ArrowDown");
    await field.press("Enter");
    expect(await field.inputValue()).toBe("anthropic:claude-opus-4-1");
    await field.press("Enter");
    expect(await page.getByRole("checkbox", { name: "Claude Opus 4.1" }).isChecked()).toBe(true);
    expect(await field.inputValue()).toBe("");
    await field.pressSequentially("opus");
    // Ticked now, so no longer suggested.
    expect(await field.getAttribute("aria-expanded")).toBe("false");

    await field.fill("opus");
    await field.press("Enter");
    expect(await fieldState(page, field)).toEqual({
      invalid: "true",
      described: [
        "Any model a configured provider serves, e.g. openai:gpt-4o-mini or openai-compatible:llama3.2.",
        "A model id looks like provider:model-name, for example openai:gpt-4o-mini.",
      ],
    });
    await field.fill("anthropic:claude-next");
    expect((await fieldState(page, field)).invalid).toBe("false");
    expect((await fieldState(page, field)).described[1]).toBe("");
    expect(await unlabelledControls(page)).toEqual([]);
  });
});
