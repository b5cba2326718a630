/**
 * Chat in a real browser: `wrangler dev` serving the built page and the Worker, the demo models and the provider
 * stub answering, and Debian's Chromium writing, reloading, voting and reading as a person would. A thread on the
 * demo models streams and resumes after a reload; a dual message is voted inside its thread and the vote reaches
 * the leaderboard; a topper message is answered by the leader the human votes made.
 */
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { screenshot } from "../helpers/e2e-browser";
import {
  fitsWidth,
  hrefsOf,
  readableText,
  unlabelledControls,
  waitForCount,
  waitForPartialText,
} from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";
import { poll, releaseHold, ruleFor, scriptModel, waitForHeld } from "../helpers/stub-client";
import type { ThreadDetail } from "../../web/src/lib/thread-types";

const STREAM_WAIT = 30_000;
const PHONE = { viewport: { width: 390, height: 844 }, touch: true };
/** How many appearances make a leader here: the test seeds that many human votes. */
const TOPPER_MIN = 3;
const RAG =
  "Should we fine-tune a small open model or use RAG with a hosted model to answer questions over 2,000 internal docs that change every week?";

interface ComparisonBrief {
  turns: { left: { status: string; text: string }; right: { status: string; text: string } }[];
  reveal: { left: { modelId: string }; right: { modelId: string } } | null;
}
interface Standings {
  rows: { modelId: string; wins: number; appearances: number }[];
}

const threadIdOf = (page: Page) => new URL(page.url()).pathname.split("/").pop()!;
const replies = (page: Page) => page.locator(".chat-message.from-model");

describeInBrowser("Chat in a real browser", () => {
  const { server, stub, open } = browserSuite({
    build: [/chat-\S+\.js\s+[\d.]+ KB gzip\s+\(lazy route/],
    stub: true,
    vars: {
      // A dual message draws its pair as the arena draws: from these two stub models, whose answers the test knows.
      QUORUM_ARENA_MODELS: "openai:chat-dual-a,anthropic:chat-dual-b",
      QUORUM_TOPPER_MIN_APPEARANCES: String(TOPPER_MIN),
      // The test votes as soon as both answers are in; too_fast has its own tests inside workerd.
      QUORUM_MIN_VOTE_MS: "0",
      QUORUM_DEMO_DELAY_MS: "40",
    },
  });

  const get = async <T>(route: string): Promise<T> => {
    const res = await fetch(`${server.url}/api${route}`);
    expect(res.status, `GET /api${route}`).toBe(200);
    return (await res.json()) as T;
  };
  const post = async <T>(route: string, body: unknown, headers: Record<string, string> = {}): Promise<T> => {
    const res = await fetch(`${server.url}/api${route}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    expect(res.status, `POST /api${route}: ${res.status}`).toBeLessThan(300);
    return (await res.json()) as T;
  };

  /** Starts a thread from the empty /chat page with its first message. */
  async function startThread(page: Page, opts: { model?: string; mode?: RegExp; system?: string; message: string }) {
    await page.goto(`${server.url}/chat`);
    if (opts.model) await page.getByLabel("Model", { exact: true }).fill(opts.model);
    if (opts.system) await page.getByLabel("System prompt", { exact: true }).fill(opts.system);
    if (opts.mode) await page.getByRole("radio", { name: opts.mode }).check();
    await page.getByLabel("Message", { exact: true }).fill(opts.message);
    await page.getByLabel("Message", { exact: true }).press("Enter");
    await page.waitForURL(/\/chat\/[^/]+$/, { timeout: 10_000 });
    return threadIdOf(page);
  }

  test("a thread on the demo models: the first message creates it and streams, a reload mid-stream resumes without losing or repeating a word, rename, exports, History reopens it, a phone can use it, and delete removes it", async () => {
    const page = await open();
    await page.goto(server.url);
    await page.getByRole("link", { name: "Chat", exact: true }).click();
    await page.waitForURL(`${server.url}/chat`);
    expect(await page.getByRole("radio", { name: "Single" }).isChecked()).toBe(true);

    const id = await startThread(page, { model: "demo:concise", message: RAG });
    // The demo streams its prepared answer a piece at a time: the page shows it growing, then whole.
    await page.locator(".chat-message.from-model[data-status=streaming]").waitFor({ timeout: STREAM_WAIT });
    await waitForCount(page, ".chat-message.from-model[data-status=done]", 1, STREAM_WAIT);
    // The demo's prepared answer, then its note that it is the demo.
    expect(await readableText(replies(page).first().locator(".reply-body"))).toMatch(
      /^RAG\. With documents changing every week you'd be retraining every week, and fine-tuning is a poor way to store facts anyway\. RAG lets you update the index the same day and cite the source of each answer\. Offline demo/,
    );
    expect(await readableText(replies(page).first().getByTestId("answered-by"))).toBe("Demo · Concise");
    expect(await readableText(page.locator(".chat-message.from-user .prompt-bubble"))).toBe(`You ${RAG}`);
    expect(await readableText(page.getByTestId("thread-title"))).toBe(
      "Should we fine-tune a small open model or use RAG with a…",
    );
    expect(await page.locator(`.thread-list li[data-thread-id="${id}"]`).count()).toBe(1);

    // The next message goes to a model the stub holds, so the reloads land before and in the middle of its stream.
    const held =
      "Held reply: it waits at the stub until the page has reloaded, then streams in many small pieces, so that a second reload lands in the middle of them, and every word must end up on the page exactly once.";
    await scriptModel(stub.url, "chat-held", [{ text: held, holdKey: "chat-reload", chunkDelayMs: 120 }]);
    await page.getByText("Settings: model, system prompt, topper category").click();
    await page.getByLabel("Model", { exact: true }).fill("openai:chat-held");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Saved.").waitFor({ timeout: 10_000 });
    await page.getByLabel("Message", { exact: true }).fill("Say something, slowly.");
    await page.getByLabel("Message", { exact: true }).press("Enter");
    await waitForHeld(stub.url, "chat-reload", 1, 15_000);
    await page.reload();
    await waitForCount(page, ".chat-message.from-model", 2, 10_000);
    await page.locator("[role=status]", { hasText: "Live" }).waitFor({ timeout: 10_000 });
    expect(await releaseHold(stub.url, "chat-reload")).toBe(1);
    await waitForPartialText(page, ".chat-message[data-status=streaming] .reply-body", "exactly once", STREAM_WAIT);
    await page.reload();
    await waitForCount(page, ".chat-message.from-model[data-status=done]", 2, STREAM_WAIT);
    expect(await readableText(replies(page).nth(1).locator(".reply-body"))).toBe(held);
    const stored = await get<ThreadDetail>(`/threads/${id}`);
    expect(stored.messages.map((m) => [m.role, m.status, m.modelId])).toEqual([
      ["user", "done", null],
      ["assistant", "done", "demo:concise"],
      ["user", "done", null],
      ["assistant", "done", "openai:chat-held"],
    ]);
    expect(stored.messages[3].content).toBe(held);

    // Rename, in the page and in the list.
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("Thread title").fill("RAG or fine-tuning");
    await page.getByLabel("Thread title").press("Enter");
    await expect
      .poll(() => readableText(page.getByTestId("thread-title")), { timeout: 5_000 })
      .toBe("RAG or fine-tuning");
    await expect
      .poll(() => readableText(page.locator(`.thread-list li[data-thread-id="${id}"] .thread-title`)), {
        timeout: 5_000,
      })
      .toBe("RAG or fine-tuning");
    expect(await hrefsOf(page.locator(".thread-head").getByRole("link", { name: /^Export/ }))).toEqual([
      `${server.url}/api/threads/${id}/export?format=md`,
      `${server.url}/api/threads/${id}/export?format=json`,
    ]);
    const markdown = await fetch(`${server.url}/api/threads/${id}/export?format=md`);
    expect(markdown.status).toBe(200);
    expect(await markdown.text()).toContain(held);
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, "chat-thread");

    // History lists it among the chat threads, and reopens it.
    await page.goto(`${server.url}/history?kind=chat`);
    const item = page.locator(`li[data-thread-id="${id}"]`);
    await item.waitFor({ timeout: 10_000 });
    expect(await readableText(item.locator(".history-question"))).toBe("RAG or fine-tuning");
    expect(await readableText(item.locator(".history-main p").last())).toMatch(/ · 4 messages · Single · chat-held$/);
    await item.getByRole("link", { name: "Open" }).click();
    await page.waitForURL(`${server.url}/chat/${id}`, { timeout: 10_000 });
    await waitForCount(page, ".chat-message.from-model[data-status=done]", 2, 10_000);

    // A 390 px phone: the list folds away, nothing overflows, the composer works.
    const phone = await open(PHONE);
    await phone.goto(`${server.url}/chat/${id}`);
    await waitForCount(phone, ".chat-message.from-model[data-status=done]", 2, 10_000);
    expect(await phone.locator(".thread-drawer").getAttribute("open")).toBeNull();
    expect(await fitsWidth(phone)).toBe(true);
    const box = phone.getByLabel("Message", { exact: true });
    expect(await box.isVisible()).toBe(true);
    expect(await unlabelledControls(phone)).toEqual([]);
    await screenshot(phone, "chat-phone");

    // Delete: gone from the list and from the API.
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.waitForURL(`${server.url}/chat`, { timeout: 10_000 });
    await expect
      .poll(() => page.locator(`.thread-list li[data-thread-id="${id}"]`).count(), { timeout: 5_000 })
      .toBe(0);
    expect((await fetch(`${server.url}/api/threads/${id}`)).status).toBe(404);
  });

  test("a dual message voted inline: two blind answers side by side, the vote reveals them and the winner continues the thread, both-bad waits for a side, and the votes are on the leaderboard", async () => {
    const answers: Record<string, string> = {
      "openai:chat-dual-a": "Spaces, because every editor shows them the same way.",
      "anthropic:chat-dual-b": "Tabs, because each reader picks their own width.",
    };
    await ruleFor(stub.url, "chat-dual-a", ".", { text: answers["openai:chat-dual-a"] });
    await ruleFor(stub.url, "chat-dual-b", ".", { text: answers["anthropic:chat-dual-b"] });

    const page = await open();
    const id = await startThread(page, { mode: /^Dual/, message: "Tabs or spaces?" });
    const dual = page.locator(".dual-reply");
    await waitForCount(page, ".dual-reply .arena-pane[data-status=done]", 2, STREAM_WAIT);
    expect(await readableText(dual.locator(".arena-pane h2").first())).toBe("Model A");
    expect(await readableText(dual.locator(".arena-pane h2").last())).toBe("Model B");
    // Blind: neither model is named anywhere on the page before the vote.
    const visible = (await page.locator("body").innerText()).toLowerCase();
    const markup = (await page.content()).toLowerCase();
    for (const name of ["chat-dual-a", "chat-dual-b"]) {
      expect(visible, `page text names ${name}`).not.toContain(name);
      expect(markup, `page markup names ${name}`).not.toContain(name);
    }
    // The composer waits for the vote.
    expect(await readableText(page.getByTestId("composer-blocked"))).toMatch(/^Vote on the two answers first/);
    await screenshot(page, "chat-dual-before-vote");

    const before = await get<ThreadDetail>(`/threads/${id}`);
    const comparisonId = before.messages[1].comparisonId!;
    expect(before.messages[1]).toMatchObject({ status: "awaiting_vote", modelId: null, content: "" });
    await page.getByRole("button", { name: "A is better" }).click();
    await waitForCount(page, ".chat-message.from-model[data-mode=dual][data-status=done]", 1, STREAM_WAIT);
    const comparison = await get<ComparisonBrief>(`/comparisons/${comparisonId}`);
    const winner = comparison.reveal!.left.modelId;
    expect(await readableText(replies(page).first().locator(".reply-body"))).toBe(answers[winner]);
    const continued = (await get<ThreadDetail>(`/threads/${id}`)).messages[1];
    expect(continued).toMatchObject({ status: "done", modelId: winner, content: answers[winner] });
    expect(await readableText(replies(page).first().getByTestId("answered-by"))).toBe(continued.displayName ?? winner);
    expect(await page.locator(".dual-reply").count()).toBe(0);

    // A second dual message, both bad: the thread waits until a side is picked, then continues with it.
    await page.getByLabel("Message", { exact: true }).fill("And for YAML?");
    await page.getByLabel("Message", { exact: true }).press("Enter");
    await waitForCount(page, ".dual-reply .arena-pane[data-status=done]", 2, STREAM_WAIT);
    await page.getByRole("button", { name: "Both are bad" }).click();
    await page.getByRole("button", { name: /^Continue with B/ }).waitFor({ timeout: STREAM_WAIT });
    const tied = await get<ThreadDetail>(`/threads/${id}`);
    const second = await get<ComparisonBrief>(`/comparisons/${tied.messages[3].comparisonId}`);
    expect(tied.messages[3].status).toBe("awaiting_choice");
    await page.getByRole("button", { name: /^Continue with B/ }).click();
    await waitForCount(page, ".chat-message.from-model[data-mode=dual][data-status=done]", 2, STREAM_WAIT);
    expect(await readableText(replies(page).nth(1).locator(".reply-body"))).toBe(answers[second.reveal!.right.modelId]);

    // Both votes are arena votes: the leaderboard counts them.
    const standings = await get<Standings>("/leaderboard?source=human");
    const row = (modelId: string) => standings.rows.find((r) => r.modelId === modelId);
    expect(row(winner)).toMatchObject({ wins: 1, appearances: 2 });
    const loser = Object.keys(answers).find((m) => m !== winner)!;
    expect(row(loser)).toMatchObject({ wins: 0, appearances: 2 });
    await page.goto(`${server.url}/leaderboard`);
    await page.locator("table").getByText(winner).first().waitFor({ timeout: 10_000 });
  });

  test("a topper message is answered by the leader the human votes made, and says why", async () => {
    await ruleFor(stub.url, "chat-strong", ".", { text: "The strong answer, every time." });
    await ruleFor(stub.url, "chat-weak", ".", { text: "A weak answer." });
    // Human votes make chat-strong the leader: it wins each of the comparisons it needs to qualify.
    for (let i = 0; i < TOPPER_MIN; i++) {
      const { id } = await post<{ id: string }>("/comparisons", {
        prompt: `Seed question ${i + 1}`,
        models: ["openai:chat-strong", "anthropic:chat-weak"],
      });
      const ready = await poll(
        () => get<ComparisonBrief>(`/comparisons/${id}`),
        (c) => c.turns[0]?.left.status === "done" && c.turns[0]?.right.status === "done",
        STREAM_WAIT,
        `comparison ${id} answered`,
      );
      const strongSide = ready.turns[0].left.text.startsWith("The strong") ? "left" : "right";
      await post(`/comparisons/${id}/votes`, { choice: strongSide }, { "X-Client-Id": `chat-e2e-${i}` });
    }

    const page = await open();
    const id = await startThread(page, {
      mode: /^Topper/,
      system: "Answer in one line.",
      message: "Who answers this?",
    });
    await waitForCount(page, ".chat-message.from-model[data-status=done]", 1, STREAM_WAIT);
    expect(await readableText(replies(page).first().locator(".reply-body"))).toBe("The strong answer, every time.");
    const stored = await get<ThreadDetail>(`/threads/${id}`);
    expect(stored.thread.systemPrompt).toBe("Answer in one line.");
    const reply = stored.messages[1];
    expect(reply).toMatchObject({ mode: "topper", modelId: "openai:chat-strong" });
    expect(reply.reason).toMatch(
      new RegExp(`^#1 on the human leaderboard, \\d+ \\(give or take \\d+\\) over ${TOPPER_MIN} appearances$`),
    );
    expect(await readableText(replies(page).first().getByTestId("answered-by"))).toBe(
      `${reply.displayName ?? reply.modelId} — ${reply.reason}`,
    );
    await screenshot(page, "chat-topper");
  });
});
