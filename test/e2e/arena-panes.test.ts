/**
 * The arena's two answers in a real browser: on a desktop each scrolls in a box of its own and the two scroll
 * together, in proportion, until "Scroll together" is turned off; on a 390 px phone they are two tabs ("Model A",
 * "Model B", each with its status and nothing of who answered) under a header that stays in view, worked by keyboard
 * as the WAI-ARIA tabs pattern says.
 */
import path from "node:path";
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { ARTIFACTS, screenshot } from "../helpers/e2e-browser";
import { pageScrollWidth, readableText, unlabelledControls, waitForCount } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";
import { releaseHold, scriptModel, waitForHeld } from "../helpers/stub-client";

const STREAM_WAIT = 30_000;
const PHONE = { width: 390, height: 844 };

/** Numbered paragraphs, enough to overflow a pane many times over. */
const paragraphs = (n: number, what: string) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} of ${what}: a sentence long enough to wrap once.`).join(
    "\n\n",
  );

// The test program has no DOM types; page-side code only needs these few.
interface Box {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}
declare const document: { querySelector(s: string): Box | null };
declare function requestAnimationFrame(f: () => void): void;

/** A model id with no hyphen or space to break at, wider than a phone's screen in any font. */
const HELD = "tabs_held_by_the_stub_under_a_model_name_long_enough_to_overflow_a_phone";

const BOX = (side: "left" | "right") => `.arena-pane[data-side=${side}] .pane-scroll`;

/** Each box's scrollTop, its range (how far it can scroll), after two frames: any scroll event has been handled. */
function boxes(page: Page): Promise<{ left: [number, number]; right: [number, number] }> {
  return page.evaluate(
    ([l, r]) =>
      new Promise((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            const at = (s: string): [number, number] => {
              const b = document.querySelector(s)!;
              return [b.scrollTop, b.scrollHeight - b.clientHeight];
            };
            resolve({ left: at(l), right: at(r) });
          }),
        ),
      ),
    [BOX("left"), BOX("right")] as const,
  );
}

describeInBrowser("the arena's two answers side by side, and as tabs on a phone", () => {
  const { server, stub, open, session } = browserSuite({
    stub: true,
    vars: { QUORUM_MIN_VOTE_MS: "0", QUORUM_ARENA_TIMEOUT_MS: "30000" },
  });

  const start = async (models: [string, string], prompt: string): Promise<string> => {
    const res = await fetch(`${server.url}/api/comparisons`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt, models }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };

  test("on a desktop the two answers scroll together in proportion, settle without pulling each other back, and scroll apart once the toggle is off", async () => {
    await scriptModel(stub.url, "panes-long", [
      { text: paragraphs(60, "the long answer") },
      { text: paragraphs(5, "the long follow-up") },
    ]);
    await scriptModel(stub.url, "panes-short", [
      { text: paragraphs(20, "the short answer") },
      { text: paragraphs(5, "the short follow-up") },
    ]);
    const id = await start(["openai:panes-long", "anthropic:panes-short"], "Write at length about scrolling.");
    const page = await open();
    await page.goto(`${server.url}/arena/${id}`);
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);

    const toggle = page.getByRole("button", { name: "Scroll together" });
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    expect(await page.getByRole("tablist").count()).toBe(0);
    const start0 = await boxes(page);
    // Both boxes overflow, by different amounts (the answers differ in length), and take the Tab key.
    expect(start0.left[1]).toBeGreaterThan(0);
    expect(start0.right[1]).toBeGreaterThan(0);
    expect(start0.left[1]).not.toBe(start0.right[1]);
    for (const side of ["left", "right"] as const)
      expect(await page.locator(BOX(side)).getAttribute("tabindex")).toBe("0");

    // The wheel over the left box brings the right one as far through its own text.
    const left = (await page.locator(BOX("left")).boundingBox())!;
    await page.mouse.move(left.x + left.width / 2, left.y + left.height / 2);
    await page.mouse.wheel(0, 600);
    await page.waitForFunction(([s]) => document.querySelector(s)!.scrollTop > 0, [BOX("right")] as const, {
      timeout: 5_000,
    });
    const wheeled = await boxes(page);
    expect(wheeled.left[0]).toBeGreaterThan(0);
    expect(Math.abs(wheeled.right[0] - (wheeled.left[0] / wheeled.left[1]) * wheeled.right[1])).toBeLessThanOrEqual(1);

    // Halfway down the right box: the left one follows to its own halfway, and neither pulls the other back.
    const half = Math.round(wheeled.right[1] / 2);
    await page.locator(BOX("right")).evaluate((b: Box, top: number) => {
      b.scrollTop = top;
    }, half);
    const halfway = await boxes(page);
    expect(halfway.right[0]).toBe(half);
    expect(Math.abs(halfway.left[0] - (half / halfway.right[1]) * halfway.left[1])).toBeLessThanOrEqual(1);
    expect(await boxes(page)).toEqual(halfway);

    // To the end of either, the other is at its end.
    await page.locator(BOX("left")).evaluate((b: Box) => {
      b.scrollTop = b.scrollHeight;
    });
    const bottom = await boxes(page);
    expect([bottom.left[0], bottom.right[0]]).toEqual([bottom.left[1], bottom.right[1]]);
    await screenshot(page, "arena-panes-together");

    // Turned off, each box scrolls alone.
    await toggle.click();
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    await page.locator(BOX("left")).evaluate((b: Box) => {
      b.scrollTop = 0;
    });
    const apart = await boxes(page);
    expect([apart.left[0], apart.right[0]]).toEqual([0, bottom.right[1]]);
    expect(await unlabelledControls(page)).toEqual([]);

    // A follow-up starts at the end of each conversation: each box brings its new prompt into view.
    await page.getByLabel("Prompt", { exact: true }).fill("And briefly?");
    await page.getByLabel("Prompt", { exact: true }).press("Enter");
    await waitForCount(page, ".turn[data-turn='2']", 2, 10_000);
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);
    for (const side of ["left", "right"] as const) {
      const [box, bubble] = [
        (await page.locator(BOX(side)).boundingBox())!,
        (await page.locator(`${BOX(side)} .turn[data-turn='2'] .prompt-bubble`).boundingBox())!,
      ];
      expect(bubble.y).toBeGreaterThanOrEqual(box.y);
      expect(bubble.y + bubble.height).toBeLessThanOrEqual(box.y + box.height);
    }
  });

  test("on a 390 px phone the answers are two tabs with their status and no name, under a header that stays in view, worked by the arrow keys", async () => {
    await scriptModel(stub.url, HELD, [{ text: paragraphs(30, "the held answer"), holdKey: "panes-tabs" }]);
    await scriptModel(stub.url, "tabs-quick", [{ text: paragraphs(30, "the quick answer") }]);
    const id = await start([`openai:${HELD}`, "google:tabs-quick"], "Two answers for a small screen.");
    const page = await open({ viewport: PHONE, touch: true });
    await page.goto(`${server.url}/arena/${id}`);
    await waitForHeld(stub.url, "panes-tabs");
    await waitForCount(page, ".arena-pane[data-status=done]", 1, STREAM_WAIT);

    const tabs = page.getByRole("tab");
    expect(await tabs.count()).toBe(2);
    const doneSide = (await page.locator(".arena-pane[data-status=done]").getAttribute("data-side")) as
      | "left"
      | "right";
    // The held side has started (its call is at the stub) and has no text yet.
    const status = (side: "left" | "right") => (side === doneSide ? "Done" : "Answering");
    // The letter and the status only: nothing of the model behind it.
    expect(await tabs.allInnerTexts().then((t) => t.map((x) => x.replace(/\s+/g, " ").trim()))).toEqual([
      `Model A ${status("left")}`,
      `Model B ${status("right")}`,
    ]);
    const tablist = await readableText(page.getByRole("tablist"));
    for (const secret of [HELD, "tabs-quick", "openai", "google"]) expect(tablist).not.toContain(secret);
    expect(await page.getByRole("button", { name: "Scroll together" }).count()).toBe(0);

    // One answer at a time: A's, its tab selected and the only one in the Tab order.
    const [tabA, tabB] = [page.getByRole("tab", { name: /^Model A/ }), page.getByRole("tab", { name: /^Model B/ })];
    expect(await tabA.getAttribute("aria-selected")).toBe("true");
    expect([await tabA.getAttribute("tabindex"), await tabB.getAttribute("tabindex")]).toEqual(["0", "-1"]);
    expect(await page.locator(".arena-pane[data-side=left]").isVisible()).toBe(true);
    expect(await page.locator(".arena-pane[data-side=right]").isVisible()).toBe(false);
    expect(await page.getByRole("tabpanel").getAttribute("aria-labelledby")).toBe(await tabA.getAttribute("id"));

    // The arrow keys move to B and show its answer; Home goes back to A.
    await tabA.focus();
    await page.keyboard.press("ArrowRight");
    expect(await tabB.getAttribute("aria-selected")).toBe("true");
    expect(await tabB.evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement)).toBe(
      true,
    );
    expect(await page.locator(".arena-pane[data-side=right]").isVisible()).toBe(true);
    expect(await page.locator(".arena-pane[data-side=left]").isVisible()).toBe(false);
    await page.keyboard.press("Home");
    expect(await tabA.getAttribute("aria-selected")).toBe("true");

    // Once both answers are in, the judges' field asks for the model catalog. Held here while the tabs are read:
    // its loading must leave the answers and their tabs on the page.
    const isCatalog = (url: URL) => url.pathname === "/api/models";
    let letCatalogThrough = () => {};
    const catalogHeld = new Promise<void>((resolve) => {
      letCatalogThrough = resolve;
    });
    await page.route(isCatalog, async (route) => {
      await catalogHeld;
      await route.continue();
    });
    const catalogAsked = page.waitForRequest((r) => isCatalog(new URL(r.url())), { timeout: STREAM_WAIT });

    // The held side finishes: its tab says so.
    await releaseHold(stub.url, "panes-tabs");
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);
    await catalogAsked;
    expect(await tabs.allInnerTexts().then((t) => t.map((x) => x.replace(/\s+/g, " ").trim()))).toEqual([
      "Model A Done",
      "Model B Done",
    ]);
    letCatalogThrough();

    // Scrolled down through the answer, the tabs stay at the top of the screen.
    await page.evaluate("scrollTo(0, 1200)");
    const header = (await page.getByRole("tablist").boundingBox())!;
    expect(header.y).toBeGreaterThanOrEqual(0);
    expect(header.y).toBeLessThan(20);
    expect(await page.locator(".arena-pane[data-side=left] .pane-scroll").isVisible()).toBe(true);
    // The screen as the phone shows it (not the whole page): the tabs above the answer.
    await page.screenshot({ path: path.join(ARTIFACTS, "arena-panes-phone-tabs.png") });
    // The page never scrolls sideways, before the vote nor after it, when the outcome names the long model id.
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await unlabelledControls(page)).toEqual([]);
    await page.getByRole("button", { name: "Tie" }).click();
    await page.getByTestId("arena-outcome").waitFor({ timeout: 10_000 });
    expect(await readableText(page.getByTestId("arena-outcome"))).toContain(`openai:${HELD}`);
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await tabs.allInnerTexts().then((t) => t.map((x) => x.replace(/\s+/g, " ").trim()))).toEqual([
      "Model A Done",
      "Model B Done",
    ]);
    // Scrolled to the last lines of the answers, the tabs leave with them rather than hang over what follows
    // (a short screen, so the page below the answers is long enough to scroll that far).
    await page.setViewportSize({ width: PHONE.width, height: 400 });
    const panesEnd = await page.locator(".arena-panes").evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.bottom + (el.ownerDocument.defaultView?.scrollY ?? 0);
    });
    await page.evaluate(`scrollTo(0, ${panesEnd - 20})`);
    const [tabsAtEnd, panesAtEnd] = [
      (await page.getByRole("tablist").boundingBox())!,
      (await page.locator(".arena-panes").boundingBox())!,
    ];
    expect(panesAtEnd.y + panesAtEnd.height).toBeCloseTo(20, 0);
    expect(tabsAtEnd.y + tabsAtEnd.height).toBeLessThanOrEqual(panesAtEnd.y + panesAtEnd.height);
    await page.setViewportSize(PHONE);
    await screenshot(page, "arena-panes-phone-voted");
    // Working the tabs left nothing of Solid's behind that nothing would dispose.
    expect(session().console.filter((line) => line.includes("createRoot"))).toEqual([]);
  });
});
