/**
 * The arena and the leaderboard in a real browser: `wrangler dev` serving the built page and the Worker, the
 * provider stub answering for both sides, and Debian's Chromium voting, reloading and importing as a person would.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { ComparisonDetail } from "../../worker/shared/arena";
import { type ComparisonEvent, comparisonEvent } from "../../worker/shared/events";
import { ARTIFACTS, screenshot } from "../helpers/e2e-browser";
import {
  fitsWidth,
  readableText,
  recordSockets,
  type SocketLog,
  sinceOf,
  unlabelledControls,
  waitForCount,
  waitForPartialText,
} from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";
import { wordDiff } from "../../web/src/lib/word-diff";
import { releaseHold, scriptModel, waitForHeld } from "../helpers/stub-client";

const STREAM_WAIT = 30_000;
/** The sampled pool: two catalog models, so the reveal shows their display names and the setup page offers them. */
const POOL = { "openai:gpt-4o": "GPT-4o", "anthropic:claude-sonnet-4-5": "Claude Sonnet 4.5" } as const;
const IMPORT_MAX_LINES = 50;

interface Standings {
  rows: {
    modelId: string;
    displayName: string;
    wins: number;
    appearances: number;
    winRate: number;
    bt: number | null;
    ciLower: number | null;
    ciUpper: number | null;
    rankUpper: number | null;
    rankLower: number | null;
    separation: { modelId: string; battles: number | null } | null;
    battles: number;
    elo: number | null;
  }[];
  totalBattles: number;
  excludedFlagged: number;
}

const pane = (page: Page, side: "left" | "right") => page.locator(`.arena-pane[data-side=${side}]`);
/** The text of a pane's latest reply, as a person reads it. */
const replyText = (page: Page, side: "left" | "right") => readableText(pane(page, side).locator(".reply-body").last());
const paneTitles = async (page: Page) => [
  await readableText(pane(page, "left").locator("h2")),
  await readableText(pane(page, "right").locator("h2")),
];
const comparisonIdOf = (page: Page) => new URL(page.url()).pathname.split("/").pop()!;

/** Every frame valid, a snapshot first, then seqs without a gap. */
function expectOrderly(log: SocketLog<ComparisonEvent>) {
  expect(log.invalid).toEqual([]);
  const events = log.sockets[0].events;
  expect(events[0].type).toBe("snapshot");
  expect(events.slice(1).map((e) => e.seq)).toEqual(events.slice(1).map((_, i) => events[0].seq + 1 + i));
}

describeInBrowser("The arena and the leaderboard in a real browser", () => {
  const { server, stub, open } = browserSuite({
    build: [/arena-\S+\.js\s+[\d.]+ KB gzip\s+\(lazy route/, /leaderboard-\S+\.js\s+[\d.]+ KB gzip\s+\(lazy route/],
    stub: true,
    vars: {
      QUORUM_ARENA_MODELS: Object.keys(POOL).join(","),
      // The test votes as soon as both answers are in; too_fast has its own tests inside workerd.
      QUORUM_MIN_VOTE_MS: "0",
      QUORUM_ARENA_TIMEOUT_MS: "30000",
      QUORUM_IMPORT_MAX_LINES: String(IMPORT_MAX_LINES),
    },
  });
  let files: string;

  beforeAll(async () => {
    files = await mkdtemp(path.join(tmpdir(), "quorum-e2e-arena-"));
  });

  afterAll(async () => {
    if (files) await rm(files, { recursive: true, force: true });
  });

  const api = async <T>(route: string): Promise<T> => {
    const res = await fetch(`${server.url}/api${route}`);
    expect(res.status, `GET /api${route}`).toBe(200);
    return (await res.json()) as T;
  };

  /** Starts a round from the empty arena with two named models (sides are still shuffled). */
  async function startNamedRound(
    page: Page,
    first: string,
    second: string,
    prompt: string,
    opts: { blind?: boolean } = {},
  ) {
    await page.goto(`${server.url}/arena`);
    await page.getByText("Options: models, category, blind, judges, settings").click();
    await page.getByRole("radio", { name: "Two models I name" }).check();
    await page.getByLabel("First model id").fill(first);
    await page.getByLabel("Second model id").fill(second);
    if (opts.blind === false) await page.getByRole("checkbox", { name: /^Blind/ }).uncheck();
    await page.getByLabel("Prompt", { exact: true }).fill(prompt);
    await page.getByLabel("Prompt", { exact: true }).press("Enter");
    await page.waitForURL(/\/arena\/[0-9a-f-]{36}-[0-9a-f]{32}$/, { timeout: 10_000 });
  }

  test("a full round by keyboard: both panes stream, names stay hidden until the vote, 1 votes, the reveal and its row show, New round empties the arena, and the leaderboard charts both models", async () => {
    const long =
      "Recursion is when a function solves a problem by calling itself on a smaller piece of the same problem. Every recursive function needs a base case that stops the calls, and a step that moves toward it; without the base case the calls never end and the stack overflows.";
    const short = "A function that calls itself, until a base case stops it.";
    await scriptModel(stub.url, "gpt-4o", [{ text: long, chunkDelayMs: 60 }]);
    await scriptModel(stub.url, "claude-sonnet-4-5", [{ text: short, chunkDelayMs: 150 }]);

    const page = await open();
    const sockets = recordSockets<ComparisonEvent>(page, comparisonEvent);
    await page.goto(server.url);
    await page.getByRole("link", { name: "Arena" }).click();
    await page.waitForURL(`${server.url}/arena`);
    expect(await paneTitles(page)).toEqual(["Model A", "Model B"]);

    // Shift+Enter breaks the line; Enter sends.
    const prompt = page.getByLabel("Prompt", { exact: true });
    await prompt.focus();
    await page.keyboard.type("Explain recursion");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("in two sentences.");
    expect(await prompt.inputValue()).toBe("Explain recursion\nin two sentences.");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/arena\/[0-9a-f-]{36}-[0-9a-f]{32}$/, { timeout: 10_000 });
    const id = comparisonIdOf(page);

    // Each pane streams on its own, with its own spinner.
    await waitForPartialText(page, ".arena-pane[data-status=streaming] .reply-body", "stack overflows", STREAM_WAIT);
    expect(await page.locator(".arena-pane[aria-busy=true] .spinner").count()).toBeGreaterThan(0);
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);
    expect([await replyText(page, "left"), await replyText(page, "right")].sort()).toEqual([long, short].sort());
    for (const side of ["left", "right"] as const) {
      expect(await readableText(pane(page, side).locator(".metrics"))).toMatch(
        /^Latency ?[\d.]+ m?s ?Tokens ?42 in · \d+ out$/,
      );
      expect(await readableText(pane(page, side).locator(".prompt-bubble"))).toBe(
        "You Explain recursion in two sentences.",
      );
    }

    // Blind: no model id, display name or maker anywhere on the page, text or markup.
    expect(await paneTitles(page)).toEqual(["Model A", "Model B"]);
    const visible = (await page.locator("body").innerText()).toLowerCase();
    const markup = (await page.content()).toLowerCase();
    for (const name of [
      ...Object.keys(POOL),
      ...Object.values(POOL),
      "gpt",
      "claude",
      "sonnet",
      "openai",
      "anthropic",
    ]) {
      expect(visible, `page text names ${name}`).not.toContain(name.toLowerCase());
      expect(markup, `page markup names ${name}`).not.toContain(name.toLowerCase());
    }
    expect(await readableText(page.getByTestId("length-note"))).toMatch(
      /^Model [AB]'s answer is [\d.]+× as long as Model [AB]'s\./,
    );
    expect(await page.getByRole("button", { name: "A is better" }).isEnabled()).toBe(true);
    await screenshot(page, "arena-before-vote");

    // Key 1 votes for A (focus is on the page, not in the prompt box).
    await page.keyboard.press("1");
    await page.locator(".vote-result").waitFor({ timeout: 10_000 });
    const [leftName, rightName] = await paneTitles(page);
    expect([leftName, rightName].sort()).toEqual(Object.values(POOL).sort());
    expect(await readableText(pane(page, "left").locator("header p.muted"))).toMatch(
      /^Model A · (openai:gpt-4o|anthropic:claude-sonnet-4-5)$/,
    );
    // The vote's event may draw the result before the vote's response (with its receipt) marks it as this page's.
    await expect
      .poll(() => readableText(page.locator(".vote-summary")), { timeout: 5_000 })
      .toBe(`You voted: A is better (${leftName}) Recorded 1 row: winner ${leftName}. It counts in the leaderboard.`);
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { className: string } } }).document.activeElement
            .className,
      ),
    ).toBe("vote-summary");
    const stored = await api<ComparisonDetail>(`/comparisons/${id}`);
    expect(stored.votes).toHaveLength(1);
    expect(stored.votes[0].rows.map((r) => r.winnerModelId)).toEqual([stored.reveal!.left.modelId]);
    expect(stored.votes[0].flags).toEqual([]);
    expect(POOL[stored.reveal!.left.modelId as keyof typeof POOL]).toBe(leftName);
    await screenshot(page, "arena-revealed");

    // Every frame was a valid comparison event, in order.
    expectOrderly(sockets);
    const events = sockets.events();
    expect(events.filter((e) => e.type === "side.delta").length).toBeGreaterThan(4);
    expect(events.find((e) => e.type === "vote.recorded")).toBeTruthy();

    // Tab, Tab, Enter: "New round" gives an empty arena with the prompt box ready.
    await page.keyboard.press("Tab");
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement
            .textContent,
      ),
    ).toBe("Change vote");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${server.url}/arena`);
    expect(await paneTitles(page)).toEqual(["Model A", "Model B"]);
    expect(await page.locator(".arena-pane .placeholder").count()).toBe(2);
    expect(await page.locator(".reply-body, .vote-result").count()).toBe(0);
    expect(await prompt.inputValue()).toBe("");
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id ===
        "arena-prompt",
      null,
      { timeout: 5_000 },
    );
    expect(await page.getByRole("button", { name: "A is better" }).isDisabled()).toBe(true);

    // The leaderboard lists both with their numbers, and charts one interval per rated model.
    await page.getByRole("link", { name: "Leaderboard" }).click();
    await page.locator("table.leaderboard tbody tr").nth(1).waitFor({ timeout: 10_000 });
    const board = await api<Standings>("/leaderboard");
    expect(board.rows.map((r) => r.modelId).sort()).toEqual(Object.keys(POOL).sort());
    expect(board.totalBattles).toBe(1);
    for (const r of board.rows) {
      const row = await readableText(page.locator(`tr[data-model="${r.modelId}"]`));
      expect(row).toContain(r.displayName);
      expect(row).toContain(`${r.bt!.toFixed(0)}`);
      expect(row).toContain(` ${r.wins} ${r.appearances} ${r.winRate.toFixed(1)}% `);
      expect(row.endsWith(` ${r.battles}`)).toBe(true);
      // The rank is the Arena's rank spread, "best–worst", or one number when the intervals allow only one.
      const rank = await readableText(page.locator(`tr[data-model="${r.modelId}"] [data-testid=rank]`));
      expect(rank).toBe(r.rankUpper === r.rankLower ? `${r.rankUpper}` : `${r.rankUpper}–${r.rankLower}`);
    }
    expect(await readableText(page.locator(`tr[data-model="${stored.reveal!.left.modelId}"]`))).toContain(
      " 1 1 100.0% ",
    );
    const rated = board.rows.filter((r) => r.bt !== null);
    const withInterval = board.rows.filter((r) => r.ciLower !== null && r.ciUpper !== null);
    expect(rated).toHaveLength(2);
    const chart = page.locator("svg[data-testid=rating-chart]");
    expect(await chart.getAttribute("role")).toBe("img");
    expect(await chart.locator(".chart-ci").count()).toBe(withInterval.length);
    expect(withInterval.length).toBe(rated.length);
    expect(await chart.locator(".chart-dot").count()).toBe(rated.length);
    const desc = await chart.locator("desc").textContent();
    for (const r of rated) expect(desc).toContain(`${r.displayName}: ${Math.round(r.bt!)}`);
    expect(await readableText(page.locator(".lb-summary"))).toBe("1 battle counted");
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, "leaderboard");

    // Reweighting and the bootstrap are one click away, and live in the address like the other filters.
    await page.getByLabel("Reweight pairs").check();
    await page.waitForURL(/reweight=true/, { timeout: 5_000 });
    await page.getByLabel("Intervals").selectOption("bootstrap");
    await page.waitForURL(/ci=bootstrap/, { timeout: 5_000 });
    await page.locator("table.leaderboard tbody tr").nth(1).waitFor({ timeout: 10_000 });
  });

  test("History lists arena rounds beside council runs, with the vote cast and the names it revealed, and reopens them", async () => {
    await scriptModel(stub.url, "gpt-4o", [{ text: "Tides come from the Moon's pull on the oceans." }]);
    await scriptModel(stub.url, "claude-sonnet-4-5", [{ text: "The Moon, mostly, and the Sun a little." }]);
    const page = await open();
    const prompt = `What causes tides? (${Date.now()})`;
    await startNamedRound(page, "openai:gpt-4o", "anthropic:claude-sonnet-4-5", prompt);
    const id = comparisonIdOf(page);
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);
    // "Highlight differences" marks, in each pane, the words only that answer has; pressed again, the replies return.
    const texts = { left: await replyText(page, "left"), right: await replyText(page, "right") };
    const expected = wordDiff(texts.left, texts.right);
    await page.getByRole("button", { name: "Highlight differences" }).click();
    for (const side of ["left", "right"] as const) {
      const view = pane(page, side).getByTestId("diff-view");
      expect(await view.innerText()).toBe(texts[side]);
      expect(await view.locator("mark").allInnerTexts()).toEqual(
        expected[side].filter((s) => s.changed).map((s) => s.text),
      );
    }
    expect(await page.getByRole("button", { name: "Highlight differences" }).getAttribute("aria-pressed")).toBe("true");
    await page.getByRole("button", { name: "Highlight differences" }).click();
    expect(await page.getByTestId("diff-view").count()).toBe(0);
    // "Regenerate both" asks the same prompt again as turn 2; turn 1's answers stay above it.
    await page.getByRole("button", { name: "Regenerate both" }).click();
    await waitForCount(page, ".turn[data-turn='2']", 2, 10_000);
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);
    for (const side of ["left", "right"] as const) {
      expect(await pane(page, side).locator(".prompt-bubble p").allInnerTexts()).toEqual([prompt, prompt]);
      expect(await readableText(pane(page, side).locator(".reply-body").first())).toBe(texts[side]);
    }
    await page.getByRole("button", { name: "B is better" }).click();
    await page.locator(".vote-result").waitFor({ timeout: 10_000 });
    const [, rightName] = await paneTitles(page);

    await page.getByRole("link", { name: "History" }).click();
    const item = page.locator(`li[data-comparison-id="${id}"]`);
    await item.waitFor({ timeout: 10_000 });
    expect(await readableText(item.locator(".history-question"))).toBe(prompt);
    expect(await readableText(item.getByTestId("history-vote"))).toBe(`You voted: right (${rightName})`);
    expect(await readableText(item.getByTestId("history-reveal"))).toMatch(/^.+ \(left\) vs .+ \(right\)$/);
    expect(await readableText(item.getByTestId("history-reveal"))).toContain(`${rightName} (right)`);

    // The filter keeps arena rounds only, in the address too; Open brings the round back, vote and all.
    await page.getByRole("radio", { name: "Arena comparisons" }).check();
    await page.waitForURL(/kind=arena/, { timeout: 5_000 });
    expect(await page.locator("li[data-run-id]").count()).toBe(0);
    await item.getByRole("link", { name: /^Open/ }).click();
    await page.waitForURL(`${server.url}/arena/${id}`, { timeout: 10_000 });
    await page.locator(".vote-result").waitFor({ timeout: 10_000 });
    expect(await unlabelledControls(page)).toEqual([]);
  });

  test("a reload while one side is held, and another mid-stream, resume after the last seq: the final text is complete and not duplicated", async () => {
    const held =
      "Held answer: it waits at the stub until the page has reloaded, then streams in many small pieces, so that a second reload lands in the middle of them, and every word must end up on the page exactly once.";
    const steady = "Steady answer: finished long before any reload.";
    await scriptModel(stub.url, "reload-held", [{ text: held, holdKey: "arena-reload", chunkDelayMs: 120 }]);
    await scriptModel(stub.url, "reload-steady", [{ text: steady }]);

    const page = await open();
    const log = recordSockets<ComparisonEvent>(page, comparisonEvent);
    await startNamedRound(page, "openai:reload-steady", "anthropic:reload-held", "Say something, slowly.");
    await waitForHeld(stub.url, "arena-reload", 1, 15_000);
    await waitForCount(page, ".arena-pane[data-status=done]", 1, STREAM_WAIT);
    const firstSocket = log.sockets.at(-1)!;
    const lastBeforeReload = Math.max(...firstSocket.events.map((e) => e.seq));

    // Reload while held: the finished side is back at once, and the socket resumes after the last seq.
    await page.reload();
    await waitForCount(page, ".arena-pane[data-status=done]", 1, 10_000);
    await page.locator("[role=status]", { hasText: "Live" }).waitFor({ timeout: 10_000 });
    const afterFirst = log.sockets.at(-1)!;
    expect(afterFirst).not.toBe(firstSocket);
    expect(sinceOf(afterFirst)).toBe(lastBeforeReload);

    // Release it, and reload again in the middle of its stream.
    expect(await releaseHold(stub.url, "arena-reload")).toBe(1);
    await waitForPartialText(page, ".arena-pane[data-status=streaming] .reply-body", "exactly once", STREAM_WAIT);
    await page.reload();
    await page.locator("[role=status]", { hasText: "Live" }).waitFor({ timeout: 10_000 });
    const afterSecond = log.sockets.at(-1)!;
    expect(afterSecond).not.toBe(afterFirst);
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);
    expect([await replyText(page, "left"), await replyText(page, "right")].sort()).toEqual([held, steady].sort());

    // Each resumed socket replayed only what came after its seq, with no snapshot and no gap.
    expect(log.invalid).toEqual([]);
    const since = sinceOf(afterSecond)!;
    expect(since).toBeGreaterThan(lastBeforeReload);
    expect(since).toBeLessThanOrEqual(Math.max(...afterFirst.events.map((e) => e.seq)));
    for (const socket of [afterFirst, afterSecond]) {
      expect(socket.events.some((e) => e.type === "snapshot")).toBe(false);
      expect(socket.events.map((e) => e.seq)).toEqual(socket.events.map((_, i) => sinceOf(socket)! + 1 + i));
    }
    expect(afterSecond.events.some((e) => e.type === "side.delta")).toBe(true);
    await screenshot(page, "arena-resumed");
  });

  test("a failed side says what happened without naming anyone, voting waits, and Retry brings it back", async () => {
    await scriptModel(stub.url, "flaky-side", [
      { status: 404, errorMessage: "The model `flaky-side` does not exist or you do not have access to it." },
      { text: "Back again: a complete answer after the retry." },
    ]);
    await scriptModel(stub.url, "steady-side", [{ text: "A steady answer from the other side." }]);

    const page = await open();
    await startNamedRound(page, "openai:flaky-side", "anthropic:steady-side", "Are you there?");
    const id = comparisonIdOf(page);
    await waitForCount(page, ".arena-pane[data-status=failed]", 1, STREAM_WAIT);
    await waitForCount(page, ".arena-pane[data-status=done]", 1, STREAM_WAIT);
    const failed = page.locator(".arena-pane[data-status=failed]");
    const letter = (await failed.getAttribute("data-side")) === "left" ? "A" : "B";
    expect(await readableText(failed.locator(".callout.error"))).toMatch(
      /^This side failed: This side's provider refused the request\..* Retry$/,
    );
    expect((await page.locator("body").innerText()).toLowerCase()).not.toMatch(/flaky|steady-side|openai|anthropic/);
    expect(await readableText(page.getByTestId("comparison-status"))).toBe("Comparison status: A side failed");

    // No vote and no follow-up on a round with a failed side; the page says why.
    expect(await page.getByRole("button", { name: "A is better" }).isDisabled()).toBe(true);
    expect(await readableText(page.locator("#vote-hint"))).toContain("A side failed: retry it");
    await page.locator("main").focus();
    await page.keyboard.press("1");
    expect(await page.locator(".vote-result").count()).toBe(0);
    await page.getByLabel("Prompt", { exact: true }).fill("Hello again?");
    await page.getByLabel("Prompt", { exact: true }).press("Enter");
    expect(await readableText(page.getByRole("alert"))).toBe("A side failed: retry it before sending a follow-up.");
    expect((await api<ComparisonDetail>(`/comparisons/${id}`)).votes).toEqual([]);
    await screenshot(page, "arena-failed-side");

    await failed.getByRole("button", { name: `Retry Model ${letter}` }).click();
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);
    expect([await replyText(page, "left"), await replyText(page, "right")].sort()).toEqual([
      "A steady answer from the other side.",
      "Back again: a complete answer after the retry.",
    ]);
    expect(await readableText(page.getByTestId("comparison-status"))).toBe("Comparison status: Ready for your vote");
    expect(await page.getByRole("button", { name: "A is better" }).isEnabled()).toBe(true);
  });

  test("a follow-up goes to both sides as turn 2; Change vote withdraws the vote with its receipt, keeps the names, and the new vote is flagged revealed", async () => {
    await scriptModel(stub.url, "turns-one", [{ text: "Turn one from the first model." }, { text: "Short." }]);
    await scriptModel(stub.url, "turns-two", [{ text: "Turn one from the second model." }, { text: "Brief." }]);

    const page = await open();
    await startNamedRound(page, "openai:turns-one", "anthropic:turns-two", "Describe the sea.");
    const id = comparisonIdOf(page);
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);

    // The follow-up: both panes show both turns, conversation style.
    await page.getByLabel("Prompt", { exact: true }).fill("Now in one word.");
    await page.getByLabel("Prompt", { exact: true }).press("Enter");
    await waitForCount(page, ".turn[data-turn='2']", 2, 10_000);
    // The box empties once the server took the turn (its events may arrive before its response).
    await expect.poll(() => page.getByLabel("Prompt", { exact: true }).inputValue(), { timeout: 5_000 }).toBe("");
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);
    for (const side of ["left", "right"] as const) {
      expect(await pane(page, side).locator(".prompt-bubble p").allInnerTexts()).toEqual([
        "Describe the sea.",
        "Now in one word.",
      ]);
      expect(await pane(page, side).locator(".reply-body").count()).toBe(2);
    }
    expect([await replyText(page, "left"), await replyText(page, "right")].sort()).toEqual(["Brief.", "Short."]);
    expect(await readableText(page.getByTestId("comparison-status").locator(".."))).toContain("Turn 2 of 10");

    // Vote B, then change it to a tie.
    await page.getByRole("button", { name: "B is better" }).click();
    await page.locator(".vote-result").waitFor({ timeout: 10_000 });
    const [leftName, rightName] = await paneTitles(page);
    expect([leftName, rightName].sort()).toEqual(["turns-one", "turns-two"]);
    expect(await readableText(page.getByTestId("vote-rows"))).toBe(`Recorded 1 row: winner ${rightName}.`);
    expect(await page.getByLabel("Prompt", { exact: true }).count()).toBe(0);

    await page.getByRole("button", { name: "Change vote" }).click();
    await page.locator(".vote-buttons").waitFor({ timeout: 10_000 });
    expect(await paneTitles(page)).toEqual([leftName, rightName]);
    expect((await api<ComparisonDetail>(`/comparisons/${id}`)).votes).toEqual([]);
    // The names stay on the page, and the bar and the prompt say what that means: no more turns, a flagged vote.
    expect(await readableText(page.locator("#vote-hint"))).toBe(
      "Keys 1–4 vote too (outside the prompt box). The names are already shown, so this vote is flagged revealed and left out of the ratings by default.",
    );
    expect(await page.getByLabel("Prompt", { exact: true }).count()).toBe(0);
    expect(await page.getByText("This round has had a vote, so it takes no more turns.").count()).toBe(1);
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement
            .textContent,
      ),
    ).toBe("1 A is better");

    await page.keyboard.press("2");
    await page.locator(".vote-result").waitFor({ timeout: 10_000 });
    expect(await readableText(page.getByTestId("vote-rows"))).toBe(
      `Recorded 2 rows: one per model, winners ${leftName} and ${rightName}.`,
    );
    const stored = await api<ComparisonDetail>(`/comparisons/${id}`);
    // Cast with the names on screen: kept, but not a blind vote.
    expect(stored.votes.map((v) => [v.choice, v.rows.length, v.flags])).toEqual([["tie", 2, ["revealed"]]]);
    expect(await readableText(page.getByTestId("vote-flags"))).toBe(
      "Kept, but left out of the ratings: the names were shown before the vote (blind was off, or an earlier vote revealed them), and ratings count anonymous votes only.",
    );
  });

  test("a round with blind off shows names at once; its vote is kept but left out, and both pages say why", async () => {
    await scriptModel(stub.url, "open-one", [{ text: "An open answer." }]);
    await scriptModel(stub.url, "open-two", [{ text: "Another open answer." }]);

    const page = await open();
    await startNamedRound(page, "openai:open-one", "anthropic:open-two", "Hello, openly.", { blind: false });
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);
    expect((await paneTitles(page)).sort()).toEqual(["open-one", "open-two"]);
    await page.keyboard.press("4");
    await page.locator(".vote-result").waitFor({ timeout: 10_000 });
    expect(await readableText(page.getByTestId("vote-flags"))).toBe(
      "Kept, but left out of the ratings: the names were shown before the vote (blind was off, or an earlier vote revealed them), and ratings count anonymous votes only.",
    );

    await page.getByRole("link", { name: "Leaderboard" }).click();
    await page.getByTestId("excluded-flagged").waitFor({ timeout: 10_000 });
    // This one, and the changed vote of the turn-2 test before it (cast with the names shown).
    expect(await readableText(page.getByTestId("excluded-flagged"))).toBe("2 flagged votes left out");
    // The comparison counts as an appearance (seed 000), but its battle is not rated until flagged votes are included.
    const row = page.locator('tr[data-model="openai:open-one"]');
    // Rank, model (new: under 50 battles), BT, Elo, TrueSkill: none without a counted battle.
    expect(await readableText(row)).toMatch(/^— open-one new openai:open-one — — — 0 1 0\.0% — 0$/);
    expect(await page.locator('svg[data-testid=rating-chart] [data-model="openai:open-one"]').count()).toBe(0);
    await page.getByRole("checkbox", { name: "Include flagged votes" }).check();
    await page.locator(".lb-summary", { hasText: /^\d+ battles counted$/ }).waitFor({ timeout: 10_000 });
    await page.locator('svg[data-testid=rating-chart] [data-model="openai:open-one"]').waitFor({ timeout: 10_000 });
    expect(await readableText(row)).toMatch(/ 0\.0% 1$/);
    expect(page.url()).toContain("includeFlagged=true");
  });

  test("the leaderboard: an empty view says how to get data, a battle log imports (errors shown, the view moves to Imported and says so, twice is once), filters and sorting work, style control with nothing to fit says so, too many lines is refused with the server's message, and Export downloads the battles", async () => {
    const page = await open();
    await page.goto(`${server.url}/leaderboard?source=judge`);
    await page.locator(".empty-state").waitFor({ timeout: 10_000 });
    expect(await readableText(page.locator(".empty-state"))).toBe(
      "No battles from judges yet. Vote in the Arena, or import a battle log below.",
    );
    expect(await page.locator(".empty-state a").getAttribute("href")).toBe("/arena");

    const log = [
      { model_a: "imp-alpha", model_b: "imp-beta", winner: "model_a", tstamp: 1_700_000_000, category: "coding" },
      {
        model_a: "imp-beta",
        model_b: "imp-gamma",
        winner: "model_a",
        tstamp: 1_700_000_100,
        category: "coding",
        turn: 2,
      },
      { model_a: "imp-gamma", model_b: "imp-alpha", winner: "tie", tstamp: 1_700_000_200 },
      { model_a: "imp-alpha", model_b: "imp-alpha", winner: "model_a", tstamp: 1_700_000_300 },
    ];
    const file = path.join(files, "battles.jsonl");
    await writeFile(file, `${log.map((b) => JSON.stringify(b)).join("\n")}\n`);
    await page.getByLabel("Battle log file").setInputFiles(file);
    await page.getByRole("button", { name: "Import" }).click();
    await page.getByTestId("import-report").getByText("Accepted").waitFor({ timeout: 10_000 });
    expect(await readableText(page.getByTestId("import-report"))).toBe(
      'Accepted 3 battles; rejected 1. Line 4: model_a and model_b must differ; both are "imp-alpha"',
    );

    // The view moves to where the battles count, and says so, rather than staying on an empty view.
    expect(await readableText(page.getByTestId("import-where"))).toBe(
      "The leaderboard above now shows Imported, all categories, where they count (and under All). See the leaderboard",
    );
    await page.locator('tr[data-model="imp-alpha"]').waitFor({ timeout: 10_000 });
    expect(await page.getByLabel("Source").inputValue()).toBe("import");
    expect(page.url()).toContain("source=import");
    expect(await page.locator("table.leaderboard tbody tr").count()).toBe(3);
    expect(await readableText(page.locator(".lb-summary"))).toBe("3 battles counted");
    expect(await page.locator("svg[data-testid=rating-chart] .chart-dot").count()).toBe(3);
    // Three battles leave the intervals overlapping: a rank spread such as 1–3 shows for at least one row.
    const imported = (await api<Standings>("/leaderboard?source=import")).rows;
    expect(imported.some((r) => r.rankUpper !== r.rankLower)).toBe(true);
    for (const r of imported)
      expect(await readableText(page.locator(`tr[data-model="${r.modelId}"] [data-testid=rank]`))).toBe(
        r.rankUpper === r.rankLower ? `${r.rankUpper}` : `${r.rankUpper}–${r.rankLower}`,
      );
    // Every model can still rank first: the page says why, with the count of battles.
    expect(imported.every((r) => r.rankUpper === 1)).toBe(true);
    expect(await readableText(page.getByTestId("ranks-overlap"))).toBe(
      "Every model ranks 1: their intervals overlap, and 3 battles are too few to separate them. More votes narrow the intervals until the ranks come apart.",
    );
    // Overlapping neighbours: the rank's tooltip says how many battles would tell them apart.
    const separated = imported.find((r) => r.separation?.battles);
    expect(separated).toBeDefined();
    const next = imported.find((r) => r.modelId === separated!.separation!.modelId)!;
    expect(await page.locator(`tr[data-model="${separated!.modelId}"] [data-testid=rank]`).getAttribute("title")).toBe(
      `About ${separated!.separation!.battles} more battles against ${next.displayName} would tell them apart at today's rate.`,
    );

    // Sorting by Elo, then a category.
    await page.getByRole("button", { name: "Elo" }).click();
    await page.locator('th[aria-sort="descending"]', { hasText: "Elo" }).waitFor({ timeout: 10_000 });
    expect(page.url()).toContain("order=elo");
    const elo = (await api<Standings>("/leaderboard?source=import&order=elo")).rows.map((r) => r.modelId);
    await page.waitForFunction((want) => {
      const rows = (
        globalThis as unknown as {
          document: { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null }> };
        }
      ).document.querySelectorAll("table.leaderboard tbody tr");
      return Array.from(rows, (r) => r.getAttribute("data-model")).join() === want;
    }, elo.join());
    // Sorted by TrueSkill, the rank is still the Bradley–Terry one, and its column says so.
    await page.getByRole("button", { name: "TrueSkill μ ± σ" }).click();
    await page.locator('th[aria-sort="descending"]', { hasText: "TrueSkill" }).waitFor({ timeout: 10_000 });
    const byTrueSkill = (await api<Standings>("/leaderboard?source=import&order=trueskill")).rows;
    const btRank = new Map(imported.map((r) => [r.modelId, [r.rankUpper, r.rankLower]]));
    expect(byTrueSkill.map((r) => [r.rankUpper, r.rankLower])).toEqual(byTrueSkill.map((r) => btRank.get(r.modelId)));
    await page.waitForFunction((want) => {
      const rows = (
        globalThis as unknown as {
          document: { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null }> };
        }
      ).document.querySelectorAll("table.leaderboard tbody tr");
      return Array.from(rows, (r) => r.getAttribute("data-model")).join() === want;
    }, byTrueSkill.map((r) => r.modelId).join());
    for (const r of byTrueSkill)
      expect(await readableText(page.locator(`tr[data-model="${r.modelId}"] [data-testid=rank]`))).toBe(
        r.rankUpper === r.rankLower ? `${r.rankUpper}` : `${r.rankUpper}–${r.rankLower}`,
      );
    expect(await page.getByRole("columnheader", { name: "Rank (BT 95%)" }).count()).toBe(1);
    expect(await readableText(page.locator("#rank-note"))).toBe(
      "Rank (BT 95%): every place the Bradley–Terry 95% intervals allow (2–5 is any of 2 to 5), whatever column sorts the table, so sorted by another column the ranks need not run in order.",
    );
    await page.getByLabel("Category").selectOption("coding");
    await page.locator(".lb-summary", { hasText: "2 battles counted" }).waitFor({ timeout: 10_000 });
    expect(await page.locator("table.leaderboard tbody tr").count()).toBe(3);
    expect(page.url()).toContain("category=coding");
    await page.getByLabel("Minimum appearances").fill("2");
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<unknown> } }
        ).document.querySelectorAll("table.leaderboard tbody tr").length === 1,
    );
    expect(await readableText(page.locator("table.leaderboard tbody tr"))).toContain("imp-beta");
    await page.getByLabel("Minimum appearances").fill("1");
    await page.getByLabel("Category").selectOption("");
    await page.locator(".lb-summary", { hasText: "3 battles counted" }).waitFor({ timeout: 10_000 });
    // A prompt label: the log's second battle had two turns, so it alone is multi-turn.
    await page.getByRole("radio", { name: /^Multi-turn \(\d+\)$/ }).check();
    await page.locator(".lb-summary", { hasText: "1 battle counted" }).waitFor({ timeout: 10_000 });
    expect(page.url()).toContain("label=multi_turn");
    expect(await page.locator("#leaderboard-caption").textContent()).toContain("Multi-turn prompts");
    await page.getByRole("radio", { name: "All prompts" }).check();
    await page.locator(".lb-summary", { hasText: "3 battles counted" }).waitFor({ timeout: 10_000 });
    await screenshot(page, "leaderboard-imported");

    // Style control on a log without style metadata: nothing to fit, said so, and the plain ratings stay.
    await page.getByRole("checkbox", { name: "Style control" }).check();
    const nothing = page.getByTestId("style-nothing-to-fit");
    await nothing.waitFor({ timeout: 15_000 });
    expect(await readableText(nothing)).toBe(
      "Style control has nothing to fit: none of the 3 battles in this view carries style metadata (answer length, headers, lists, bold). Arena votes cast here record it; an imported log has it only when its lines carry FastChat's conv_metadata. The ratings above are the plain ones.",
    );
    expect(await page.locator("svg[data-testid=rating-chart] .chart-dot").count()).toBe(3);
    await page.getByRole("checkbox", { name: "Style control" }).uncheck();

    // The same file again writes nothing twice.
    await page.getByRole("button", { name: "Import" }).click();
    await page.getByTestId("import-report").getByText("already imported").waitFor({ timeout: 10_000 });
    expect(await readableText(page.getByTestId("import-report"))).toContain(
      "Accepted 3 battles (3 already imported from this file before); rejected 1.",
    );
    expect((await api<Standings>("/leaderboard?source=import")).totalBattles).toBe(3);

    // More lines than one request may carry: the server's own message.
    const big = path.join(files, "big.jsonl");
    const line = (i: number) =>
      JSON.stringify({
        model_a: `big-${i % 5}`,
        model_b: `big-${(i + 1) % 5}`,
        winner: "model_a",
        tstamp: 1_700_001_000 + i,
      });
    await writeFile(big, Array.from({ length: IMPORT_MAX_LINES + 10 }, (_, i) => line(i)).join("\n"));
    await page.getByLabel("Battle log file").setInputFiles(big);
    await page.getByRole("button", { name: "Import" }).click();
    const refusal = page.locator(".battle-io [role=alert]");
    await refusal.waitFor({ timeout: 10_000 });
    expect(await readableText(refusal)).toBe(
      `This request has more than ${IMPORT_MAX_LINES} battle lines (QUORUM_IMPORT_MAX_LINES). Send at most that in one request, or import a file of any size with \`npm run import -- FILE\`, which sends it in chunks.`,
    );
    expect((await api<Standings>("/leaderboard?source=import")).totalBattles).toBe(3);

    // Export what is shown.
    const link = page.getByRole("link", { name: "Export imported battles (JSON Lines)" });
    expect(await link.getAttribute("href")).toBe(`${server.url}/api/battles/export?source=import`);
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 10_000 }), link.click()]);
    const saved = path.join(ARTIFACTS, "arena-export.jsonl");
    await download.saveAs(saved);
    const exported = (await readFile(saved, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { model_a: string; model_b: string; winner: string });
    expect(exported.map((b) => [b.model_a, b.model_b, b.winner])).toEqual(
      log.slice(0, 3).map((b) => [b.model_a, b.model_b, b.winner]),
    );
  });

  test("the setup page picks the current top models from the leaderboard, among those it offers", async () => {
    const board = await api<Standings>("/leaderboard");
    const offered = board.rows.filter((r) => r.bt !== null && r.modelId in POOL);
    expect(offered).toHaveLength(2);

    const page = await open();
    await page.goto(server.url);
    await page.getByRole("checkbox", { name: "GPT-4o mini" }).waitFor();
    await page.getByLabel("How many").fill("1");
    await page.getByRole("button", { name: "Pick the top models" }).click();
    await page.getByText(/^Selected the top 1/).waitFor({ timeout: 10_000 });
    expect(await readableText(page.locator("#top-pick-message"))).toBe(
      `Selected the top 1 by human votes: ${offered[0].displayName}.`,
    );
    expect(await page.getByRole("checkbox", { name: offered[0].displayName, exact: true }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: offered[1].displayName, exact: true }).isChecked()).toBe(false);
    expect(await page.getByRole("heading", { name: "Selected models (1)" }).count()).toBe(1);

    await page.getByLabel("How many").fill("3");
    await page.getByRole("button", { name: "Pick the top models" }).click();
    await page.getByRole("heading", { name: "Selected models (2)" }).waitFor({ timeout: 10_000 });
    expect(await readableText(page.locator("#top-pick-message"))).toBe(
      `Selected the top 2 by human votes: ${offered.map((r) => r.displayName).join(", ")}. Only 2 of the rated models can run here.`,
    );
    for (const r of offered)
      expect(await page.getByRole("checkbox", { name: r.displayName, exact: true }).isChecked()).toBe(true);
    await screenshot(page, "setup-top-models");
  });

  test("at phone width in dark mode the arena and the leaderboard fit, and every control is labelled", async () => {
    await scriptModel(stub.url, "gpt-4o", [{ text: "A phone-sized answer." }]);
    await scriptModel(stub.url, "claude-sonnet-4-5", [{ text: "Another phone-sized answer, a little longer." }]);
    const page = await open({ viewport: { width: 390, height: 844 }, colorScheme: "dark", touch: true });
    await page.goto(`${server.url}/arena`);
    // The first screen: the vote bar (nothing to vote on yet) stays in the flow, so the prompt box is never under it.
    const promptBox = page.getByLabel("Prompt", { exact: true });
    await promptBox.scrollIntoViewIfNeeded();
    expect(await page.evaluate("getComputedStyle(document.querySelector('.vote-bar')).position")).toBe("static");
    const at = (await promptBox.boundingBox())!;
    expect(
      await page.evaluate(
        ([x, y]) =>
          (
            globalThis as unknown as { document: { elementFromPoint(x: number, y: number): { id: string } | null } }
          ).document.elementFromPoint(x, y)?.id,
        [at.x + at.width / 2, at.y + at.height - 4],
      ),
    ).toBe("arena-prompt");
    await page.getByLabel("Prompt", { exact: true }).fill("Hello from a phone.");
    await page.getByLabel("Prompt", { exact: true }).press("Enter");
    await page.waitForURL(/\/arena\/[0-9a-f-]{36}-[0-9a-f]{32}$/, { timeout: 10_000 });
    await waitForCount(page, ".arena-pane[data-status=done]", 2, STREAM_WAIT);
    expect(await unlabelledControls(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    expect(await page.evaluate("getComputedStyle(document.body).backgroundColor")).toBe("rgb(20, 20, 19)");
    expect(await page.evaluate("getComputedStyle(document.querySelector('.vote-bar')).position")).toBe("sticky");
    // A touch screen has no keys 1–4: no key hints.
    expect(await page.locator(".keys-hint").isVisible()).toBe(false);
    expect(await page.locator(".vote kbd").first().isVisible()).toBe(false);
    expect(await readableText(page.locator("#vote-hint"))).toBe("Names are revealed after your vote.");
    // Scrolled to the end, the sticky vote bar sits in its own place on the full-page screenshot.
    await page.evaluate("scrollTo(0, document.documentElement.scrollHeight)");
    await screenshot(page, "arena-phone-dark");

    await page.getByRole("link", { name: "Leaderboard" }).click();
    await page.locator("svg[data-testid=rating-chart]").waitFor({ timeout: 10_000 });
    expect(await unlabelledControls(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    // The table scrolls sideways, says so, and keeps each row's model in view while it does.
    expect(await page.locator(".scroll-hint").first().isVisible()).toBe(true);
    const wrap = page.locator(".table-wrap.pinned").first();
    const overflow = await wrap.evaluate(
      (el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth - el.clientWidth,
    );
    expect(overflow).toBeGreaterThan(0);
    await wrap.evaluate((el: { scrollLeft: number; scrollWidth: number }) => {
      el.scrollLeft = el.scrollWidth;
    });
    const name = await wrap.locator("tbody th[scope=row]").first().boundingBox();
    const box = await wrap.boundingBox();
    expect(name!.x).toBeGreaterThanOrEqual(box!.x - 1);
    expect(name!.x + name!.width).toBeLessThanOrEqual(box!.x + box!.width + 1);
    await screenshot(page, "leaderboard-phone-dark");
  });
});
