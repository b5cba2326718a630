/**
 * The Battles page as a person uses it, in Chromium against `wrangler dev`: three goal battles launched at once from
 * the form (a stub model held at its first reply against a demo model, so they stay running), their cards kept live,
 * one stopped, the others ending on the goal once the stub answers; a transcript opened; the names revealed. A
 * human-judged demo battle is voted on from its page. A 390 px phone: no overflow, every control labelled.
 */
import type { Locator, Page } from "playwright-core";
import { expect, test } from "vitest";
import { screenshot } from "../helpers/e2e-browser";
import { goalBattleEvent, type GoalBattleEvent } from "../../worker/shared/goal-battle";
import { fitsWidth, recordSockets, unlabelledControls } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";
import { releaseHold, ruleFor, waitForHeld } from "../helpers/stub-client";

const GOAL = "Book the user a table for two at eight";
const SCRIPT = ["I'd like a table for two tonight, please.", "At eight, if you can."];
const HOLD = "goal-page";

/** Waits until `card` shows `state`. */
const stateIs = (card: Locator, state: string) =>
  card.and(card.page().locator(`[data-state="${state}"]`)).waitFor({ timeout: 30_000 });

async function openBattles(page: Page, url: string) {
  await page.goto(url);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Battles" }).click();
  await page.getByRole("heading", { name: "Goal battles", level: 1 }).waitFor({ timeout: 10_000 });
}

describeInBrowser("goal battles, in a real browser", () => {
  const { server, stub, open } = browserSuite({
    stub: true,
    build: [/goal-battles-\S+\.js\s+[\d.]+ KB gzip\s+\(lazy route/],
  });

  test("three launched at once: live cards, one stopped, the others won on the goal, a transcript, the reveal", async () => {
    // The stub side reaches the goal in its first reply, but only once released: until then all three run.
    await ruleFor(stub.url, "goal-agent", "", {
      holdKey: HOLD,
      text: "Booked: a table for two at eight. GOAL_REACHED",
    });
    const page = await open();
    const sockets = recordSockets<GoalBattleEvent>(page, goalBattleEvent);
    await openBattles(page, server.url);

    // A field the form checks itself, then one the server refuses: each message beside its field.
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    const goalField = page.getByLabel("Goal", { exact: true });
    expect(await goalField.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#goal-goal-error").innerText()).toBe("Say what both sides must achieve.");
    await goalField.fill(GOAL);
    await page.getByLabel("Contestant 1").fill("nowhere:model");
    await page.getByLabel("Contestant 2").fill("demo:concise");
    await page.getByLabel("A script").check();
    await page.getByLabel("User messages, one per line").fill(SCRIPT.join("\n"));
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    await page.locator("#goal-first-error").waitFor({ timeout: 10_000 });
    expect(await page.locator("#goal-first-error").innerText()).toContain("nowhere:model");
    expect(await page.locator('[data-testid="goal-battle-card"]').count()).toBe(0);

    await page.getByLabel("Contestant 1").fill("openai:goal-agent");
    await page.getByLabel(/^Battles to launch/).fill("3");
    await page.getByRole("button", { name: "Launch 3" }).click();
    const cards = page.locator('[data-testid="goal-battle-card"]');
    await cards.nth(2).waitFor({ timeout: 15_000 });
    await waitForHeld(stub.url, HOLD, 3, 30_000);
    for (let k = 0; k < 3; k++) await stateIs(cards.nth(k), "running");
    expect(await cards.count()).toBe(3);

    // Live: the elapsed time ticks on while the battle runs; nothing names a side.
    const first = cards.first();
    // The script's two messages make two turns at most.
    expect(await first.getByTestId("goal-turn").innerText()).toBe("1/2");
    const elapsed = await first.getByTestId("goal-elapsed").innerText();
    await first.locator('[data-testid="goal-elapsed"]', { hasNotText: elapsed }).waitFor({ timeout: 10_000 });
    for (let k = 0; k < 3; k++) expect(await cards.nth(k).innerText()).not.toMatch(/goal-agent|concise/i);
    expect(
      await cards
        .first()
        .getByRole("button", { name: /^Reveal/ })
        .count(),
    ).toBe(0);
    await screenshot(page, "goal-battles-running");

    // Stop the first; the others end on the goal once the stub answers.
    await first.getByRole("button", { name: /^Stop the battle/ }).click();
    await stateIs(first, "stopped");
    expect(await first.getByTestId("goal-outcome").innerText()).toContain("Ended because it was stopped.");
    await releaseHold(stub.url, HOLD);
    for (const k of [1, 2]) {
      const card = cards.nth(k);
      await stateIs(card, "done");
      expect(await card.getByTestId("goal-outcome").innerText()).toMatch(
        /^Side [AB] won\. Ended because the goal was reached\.$/,
      );
      expect(await card.getByTestId("goal-tokens").innerText()).toMatch(/^\d+ \/ \d+$/);
      expect(await card.getByTestId("goal-tokens").innerText()).not.toBe("0 / 0");
      expect(await card.innerText()).not.toMatch(/goal-agent|concise/i);
    }

    // Reveal: the names, on the card the person asked.
    const done = cards.nth(1);
    await done.getByRole("button", { name: /^Reveal/ }).click();
    const names = await done.getByTestId("goal-names").innerText();
    expect(names).toMatch(/goal-agent/);
    expect(names).toMatch(/concise/i);
    expect(await done.getByTestId("goal-outcome").innerText()).toMatch(/goal-agent \([AB]\) won/);

    // The transcript: both sides asked the same scripted message, the winner's goal check, the outcome and reason.
    await done.getByRole("link").click();
    await page.getByRole("heading", { name: GOAL, level: 1 }).waitFor({ timeout: 10_000 });
    const sides = page.locator(".goal-side");
    await sides.nth(1).locator('[data-testid="goal-reply"]').first().waitFor({ timeout: 10_000 });
    for (const k of [0, 1]) expect(await sides.nth(k).locator(".prompt-bubble p").first().innerText()).toBe(SCRIPT[0]);
    await page.locator('[data-testid="goal-check"]:text("Goal reached (by its marker)")').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("goal-ended").innerText()).toBe("Ended because the goal was reached.");
    expect(await page.getByTestId("goal-rationale").count()).toBe(1);
    expect(await page.getByRole("button", { name: "Scroll together" }).getAttribute("aria-pressed")).toBe("true");
    expect(await page.locator(".goal-side h2").allInnerTexts()).toEqual(["Side A", "Side B"]);
    await page.getByRole("button", { name: "Reveal" }).click();
    expect((await page.locator(".goal-side h2").allInnerTexts()).join(" ")).toMatch(/goal-agent/);
    await screenshot(page, "goal-battle-transcript");

    // A reload shows it again, from the stored battle and its messages.
    await page.reload();
    await page.getByRole("heading", { name: GOAL, level: 1 }).waitFor({ timeout: 10_000 });
    await sides.nth(1).locator('[data-testid="goal-reply"]').first().waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("goal-state").innerText()).toBe("Done");

    // Every frame the page received is an event of the goal battle union; none named a side while it ran.
    expect(sockets.invalid).toEqual([]);
    const events = sockets.events();
    expect(events.some((e) => e.type === "message.added")).toBe(true);
    const running = events.flatMap((e) =>
      e.type === "snapshot" ? [e.state] : e.type === "battle.updated" ? [e.battle] : [],
    );
    expect(running.filter((b) => b.state === "running").length).toBeGreaterThan(0);
    for (const b of running.filter((b) => b.state === "running"))
      expect([b.sides.A.contestant, b.sides.B.contestant, b.sides.A.displayName, b.sides.B.displayName]).toEqual([
        null,
        null,
        null,
        null,
      ]);
  });

  test("a human-judged battle: the vote from its page, then the names; a phone fits it, every control labelled", async () => {
    const res = await fetch(`${server.url}/api/goal-battles`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        contestants: ["demo:concise", "demo:thorough"],
        goal: "Help the user choose a vector database",
        user: { mode: "script", script: ["Which vector database should I use?", "For 50M embeddings.", "Thanks."] },
        judgeMode: "human",
      }),
    });
    expect(res.status).toBe(201);
    const { jobId } = (await res.json()) as { jobId: string };
    const page = await open({ viewport: { width: 390, height: 844 }, touch: true });
    await page.goto(`${server.url}/goal-battles/${jobId}`);
    const vote = page.getByRole("group", { name: "Your verdict" });
    await vote.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("goal-winner").innerText()).toBe("Waiting for your vote");
    // On a phone the sides are tabs, one at a time.
    expect(await page.getByRole("tab").allInnerTexts()).toEqual(["Side A", "Side B"]);
    await page.getByRole("tab", { name: "Side B" }).click();
    expect(await page.locator('[role="tabpanel"]:not([hidden]) .goal-side').getAttribute("data-side")).toBe("B");
    expect(await fitsWidth(page)).toBe(true);
    expect(await unlabelledControls(page)).toEqual([]);

    await vote.getByRole("button", { name: "A is better" }).click();
    await page.getByTestId("goal-vote").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("goal-vote").innerText()).toBe("You voted: A is better.");
    // The names follow with the vote's answer (an update may come first, while the room is still recording it).
    await page.locator('[data-testid="goal-winner"]', { hasText: / \(A\) won$/ }).waitFor({ timeout: 10_000 });
    expect(await page.getByRole("tab").allInnerTexts()).not.toContain("Side A");

    await page.goto(`${server.url}/goal-battles`);
    await page.locator('[data-testid="goal-battle-card"]').first().waitFor({ timeout: 10_000 });
    expect(await fitsWidth(page)).toBe(true);
    expect(await unlabelledControls(page)).toEqual([]);
  });
});
