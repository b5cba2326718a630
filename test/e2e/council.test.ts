/**
 * The whole app in a real browser: `wrangler dev` serving the built page and the Worker, the provider stub
 * standing in for OpenAI, Anthropic and Gemini, and Debian's Chromium clicking through it as a person would.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { releaseHold, scriptModel, waitForHeld } from "../helpers/stub-client";
import { ARTIFACTS, screenshot } from "../helpers/e2e-browser";
import {
  attributeNames,
  dropNewestSocket,
  fitsWidth,
  hrefsOf,
  readableText,
  recordSockets,
  sinceOf,
  trackSockets,
  unlabelledControls,
  waitForCount,
  waitForPartialText,
} from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";

const STREAM_WAIT = 30_000;

describeInBrowser("Quorum in a real browser", () => {
  const { server, stub, open, session, expectPageErrors } = browserSuite({
    stub: true,
    vars: { QUORUM_DEMO_DELAY_MS: "5" },
  });

  test("a person runs three models (two added by id), watches them stream, sees the ranking, reopens it from History and exports it", async () => {
    const texts = {
      "gpt-4o-mini":
        "Paris is the capital of France. It has been the seat of government for centuries, and it is also the largest city in the country by far.",
      "claude-stub-large":
        "The capital of France is Paris, on the Seine. Government, parliament and most national institutions sit there.",
      "gemini-stub-pro":
        "France's capital is Paris. Versailles briefly hosted the court, but Paris has been the capital for most of its history.",
    };
    // One slow streamer, so the test sees a card part-way through.
    await scriptModel(stub.url, "gpt-4o-mini", [{ text: texts["gpt-4o-mini"], chunkDelayMs: 150 }]);
    await scriptModel(stub.url, "claude-stub-large", [{ text: texts["claude-stub-large"], chunkDelayMs: 20 }]);
    await scriptModel(stub.url, "gemini-stub-pro", [{ text: texts["gemini-stub-pro"], chunkDelayMs: 20 }]);

    const page = await open();
    const sockets = recordSockets(page);
    const response = await page.goto(server.url);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");

    // The picker: grouped by provider, with why a provider can't be used.
    await page.getByRole("group", { name: /OpenAI-compatible/ }).waitFor();
    expect(await readableText(page.locator('[data-provider="openai-compatible"] legend'))).toContain(
      "unavailable: no OPENAI_COMPATIBLE_BASE_URL",
    );
    expect(await page.getByRole("checkbox", { name: "Demo · Concise" }).isEnabled()).toBe(true);

    await page.getByRole("checkbox", { name: "GPT-4o mini" }).check();
    for (const id of ["anthropic:claude-stub-large", "google:gemini-stub-pro"]) {
      await page.getByLabel("Model id").fill(id);
      await page.getByRole("button", { name: "Add model" }).click();
      await page.getByRole("checkbox", { name: id.split(":")[1] }).waitFor();
    }
    expect(await page.getByRole("checkbox", { name: "claude-stub-large" }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: "gemini-stub-pro" }).isChecked()).toBe(true);
    expect(await page.getByRole("heading", { name: "Selected models (3)" }).count()).toBe(1);

    // Per-model advanced settings travel with the run.
    await page.getByText("Advanced settings for GPT-4o mini").click();
    await page.getByLabel("Temperature for GPT-4o mini").fill("0.3");
    await page.getByLabel("Question").fill("What is the capital of France?");
    await screenshot(page, "01-setup");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}-[0-9a-f]{32}$/, { timeout: 10_000 });
    const runId = page.url().split("/").pop()!;

    // Cards fill in token by token; while blind they are Answer A/B/C only.
    await waitForCount(page, ".answer-card", 3, 10_000);
    await waitForPartialText(page, ".answer-card[data-status=streaming] .markdown", "largest city", STREAM_WAIT);
    await screenshot(page, "02-streaming");
    const blindTitles = await page.locator(".answer-card h3").allInnerTexts();
    expect(blindTitles.sort()).toEqual(["Answer A", "Answer B", "Answer C"]);
    expect(await page.locator("main").innerText()).not.toMatch(/GPT-4o mini|claude-stub|gemini-stub/);

    // Then every answer is in, the reviews run, and the ranking shows the vote math.
    await waitForCount(page, ".answer-card[data-status=done]", 3, STREAM_WAIT);
    await page.locator("table.ranking tbody tr").nth(2).waitFor({ timeout: STREAM_WAIT });
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });
    await waitForCount(page, ".reviewer-card[data-status=done]", 3, STREAM_WAIT);
    // Names are revealed with the run's end; display names come with the stored run the page fetches then.
    await page.locator(".answer-card h3", { hasText: "GPT-4o mini" }).waitFor({ timeout: 10_000 });
    const names = (await page.locator(".answer-card h3").allInnerTexts()).sort();
    expect(names).toEqual(["GPT-4o mini", "claude-stub-large", "gemini-stub-pro"]);
    for (const [model, text] of Object.entries(texts)) {
      const card = page.locator(".answer-card", { has: page.locator("code", { hasText: model }) });
      expect(await readableText(card.locator(".markdown"))).toBe(text);
      // A catalog model has a price; a model added by id has none, so its cost is unknown (and says so, not "—").
      const cost = model === "gpt-4o-mini" ? "< \\$0\\.0001" : "cost unknown";
      expect(await readableText(card.locator(".metrics"))).toMatch(
        new RegExp(`^Latency ?[\\d.]+ m?s ?Tokens ?42 in · \\d+ out ?Cost \\(est\\.\\) ?${cost}$`),
      );
    }
    expect(await readableText(page.getByTestId("winner"))).toMatch(
      /^Winner: (GPT-4o mini|claude-stub-large|gemini-stub-pro) \(Answer [ABC]\)$/,
    );
    for (const caption of ["Final ranking", "Borda points by reviewer", "Mean scores (0–10)"])
      expect(await page.getByText(caption, { exact: true }).count()).toBe(1);
    expect(await page.locator("table.pairwise tbody tr").count()).toBe(3);
    const reviewer = page.locator(".reviewer-card").first();
    await reviewer.getByText("Raw output (JSON)").click();
    expect(JSON.parse(await reviewer.locator(".raw pre").innerText())).toHaveProperty("ranking");
    await page.getByRole("button", { name: "Stacked" }).click();
    expect(await page.locator(".answers.layout-stacked").count()).toBe(1);
    await screenshot(page, "03-run-done");

    // Every frame the page received is a valid event of the Worker's union, in order.
    expect(sockets.invalid).toEqual([]);
    const events = sockets.events();
    expect(events[0].type).toBe("snapshot");
    expect(events.slice(1).map((e) => e.seq)).toEqual(events.slice(1).map((_, i) => events[0].seq + 1 + i));
    expect(events.filter((e) => e.type === "answer.delta").length).toBeGreaterThan(3);
    expect(events.find((e) => e.type === "run.completed")).toBeTruthy();

    // History: newest first, with time, question, status and winner; reopen; export.
    await page.getByRole("link", { name: "History" }).click();
    const item = page.locator(`li[data-run-id="${runId}"]`);
    await item.waitFor({ timeout: 10_000 });
    const summary = await readableText(item);
    expect(summary).toContain("What is the capital of France?");
    expect(summary).toMatch(/Done · Winner: (GPT-4o mini|claude-stub-large|gemini-stub-pro)/);
    await screenshot(page, "04-history");

    const [json] = await Promise.all([
      page.waitForEvent("download", { timeout: 10_000 }),
      item.getByRole("link", { name: "Export JSON" }).click(),
    ]);
    const jsonFile = path.join(ARTIFACTS, "11-export.json");
    await json.saveAs(jsonFile);
    const exported = JSON.parse(await readFile(jsonFile, "utf8"));
    expect(exported.run.question).toBe("What is the capital of France?");
    expect(exported.run.models.find((m: { id: string }) => m.id === "openai:gpt-4o-mini").params).toEqual({
      temperature: 0.3,
    });
    expect(exported.answers.map((a: { text: string }) => a.text).sort()).toEqual(Object.values(texts).sort());
    expect(exported.aggregation.finalRanking).toHaveLength(3);

    const [md] = await Promise.all([
      page.waitForEvent("download", { timeout: 10_000 }),
      item.getByRole("link", { name: "Export Markdown" }).click(),
    ]);
    const mdFile = path.join(ARTIFACTS, "12-export.md");
    await md.saveAs(mdFile);
    const markdown = await readFile(mdFile, "utf8");
    expect(markdown).toContain("> What is the capital of France?");
    expect(markdown).toContain("## Ranking");

    await item.getByRole("link", { name: "Open" }).click();
    await page.waitForURL(`${server.url}/runs/${runId}`);
    await page.locator("table.ranking tbody tr").nth(2).waitFor({ timeout: 10_000 });
    expect((await page.locator(".answer-card h3").allInnerTexts()).sort()).toEqual([
      "GPT-4o mini",
      "claude-stub-large",
      "gemini-stub-pro",
    ]);
    // Nothing on the way broke the page's own rules: no errors, no Content-Security-Policy violations.
    expect(session().console.filter((line) => /^\[(error|pageerror)\]|Content Security Policy/i.test(line))).toEqual(
      [],
    );
  });

  test("an answer carrying <script>, onerror and javascript: payloads renders inert, and remote images wait for a click", async () => {
    const payload = [
      "Here is my answer, with **formatting**.",
      "",
      "<script>window.__quorumPwned = 'script'</script>",
      "",
      '<img src="x" onerror="window.__quorumPwned = \'onerror\'">',
      "",
      "![remote diagram](https://images.example.invalid/diagram.png)",
      "",
      "[Click for details](javascript:window.__quorumPwned='markdown-link')",
      "",
      '<a href="JaVaScRiPt:window.__quorumPwned=\'raw-link\'">raw link</a> and <a href="https://example.com/docs">a real link</a>',
      "",
      "<svg><script>window.__quorumPwned = 'svg'</script></svg>",
      "<iframe src=\"javascript:window.__quorumPwned='iframe'\"></iframe>",
      '<div style="background:url(https://images.example.invalid/bg.png)" onmouseover="window.__quorumPwned=\'hover\'">styled</div>',
      "",
      "```js",
      'const html = "<script>alert(1)</script>";',
      "```",
    ].join("\n");
    // Chromium reports the payload's inline handler and style as refused by the page's Content Security Policy:
    // that is the policy doing its job here. Any other page error still fails the test.
    expectPageErrors(
      /^\[error\] (Executing inline event handler|Applying inline style) violates .*Content Security Policy/,
    );
    await scriptModel(stub.url, "gpt-xss", [{ text: payload }]);
    await scriptModel(stub.url, "claude-plain", [{ text: "A plain answer with nothing odd in it." }]);

    const page = await open();
    const remote: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("example.invalid")) remote.push(r.url());
    });
    await page.goto(server.url);
    await page.getByLabel("Model id").fill("openai:gpt-xss");
    await page.getByLabel("Model id").press("Enter");
    await page.getByLabel("Model id").fill("anthropic:claude-plain");
    await page.getByRole("button", { name: "Add model" }).click();
    await page.getByLabel("Question").fill("Show me some HTML.");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });

    const card = page.locator(".answer-card", { has: page.locator("code", { hasText: "gpt-xss" }) });
    const body = card.locator(".markdown");
    await body.getByText("formatting").waitFor();
    await screenshot(page, "05-xss-inert");
    expect(await page.evaluate("window.__quorumPwned")).toBeUndefined();
    expect(await body.locator("script, iframe, svg, style, img").count()).toBe(0);
    const attributes = await attributeNames(body);
    expect(attributes.filter((a) => a.startsWith("on") || a === "style" || a === "src")).toEqual([]);
    expect(await hrefsOf(body.locator("a"))).toEqual([null, null, "https://example.com/docs"]);
    expect(await body.locator("pre code").innerText()).toContain('const html = "<script>alert(1)</script>";');

    // Clicking the defused links and hovering the styled block runs nothing.
    await body.getByText("Click for details").click();
    await body.getByText("raw link").click();
    await body.getByText("styled").hover();
    expect(await page.evaluate("window.__quorumPwned")).toBeUndefined();
    expect(page.url()).toMatch(/\/runs\//);

    // No remote image loaded on its own; the person can ask for one.
    expect(remote).toEqual([]);
    const load = body.getByRole("button", { name: /Load image "remote diagram" from images\.example\.invalid/ });
    const [request] = await Promise.all([
      page.waitForRequest(/images\.example\.invalid\/diagram\.png/, { timeout: 5_000 }),
      load.click(),
    ]);
    expect(request.url()).toBe("https://images.example.invalid/diagram.png");
    expect(remote).toEqual(["https://images.example.invalid/diagram.png"]);
    expect(await page.evaluate("window.__quorumPwned")).toBeUndefined();

    // Delete it from History: gone from the list and from the API.
    const runId = page.url().split("/").pop()!;
    await page.getByRole("link", { name: "History" }).click();
    const item = page.locator(`li[data-run-id="${runId}"]`);
    await item.getByRole("button", { name: "Delete" }).click();
    await item.getByRole("button", { name: "Yes, delete" }).click();
    await item.waitFor({ state: "detached", timeout: 10_000 });
    expect((await fetch(`${server.url}/api/runs/${runId}`)).status).toBe(404);
  });

  test("a reload and a dropped connection in the middle of a run resume from the last seq and lose nothing", async () => {
    const texts = {
      "gpt-reload-a": "Alpha answer: short, plain and finished before the reload.",
      "claude-reload-b": "Bravo answer: also finished before the reload happens.",
      "gemini-reload-held":
        "Charlie answer: held by the stub until after the reload, then streamed in many small pieces, and the connection drops somewhere in the middle of them.",
    };
    await scriptModel(stub.url, "gpt-reload-a", [{ text: texts["gpt-reload-a"] }]);
    await scriptModel(stub.url, "claude-reload-b", [{ text: texts["claude-reload-b"] }]);
    await scriptModel(stub.url, "gemini-reload-held", [
      { text: texts["gemini-reload-held"], holdKey: "e2e-reload", chunkDelayMs: 120 },
    ]);

    const page = await open();
    await trackSockets(page);
    const log = recordSockets(page);
    await page.goto(server.url);
    for (const id of ["openai:gpt-reload-a", "anthropic:claude-reload-b", "google:gemini-reload-held"]) {
      await page.getByLabel("Model id").fill(id);
      await page.getByLabel("Model id").press("Enter");
    }
    await page.getByLabel("Question").fill("Three letters of the alphabet, please.");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForURL(/\/runs\//);

    await waitForHeld(stub.url, "e2e-reload", 1, 15_000);
    await waitForCount(page, ".answer-card[data-status=done]", 2, STREAM_WAIT);
    await waitForCount(page, ".answer-card[data-status=streaming]", 1, STREAM_WAIT);
    expect(log.sockets).toHaveLength(1);
    const lastBeforeReload = Math.max(...log.sockets[0].events.map((e) => e.seq));

    // Reload: the finished answers come back at once from the page's own copy, and the socket resumes after the last seq.
    await page.reload();
    await waitForCount(page, ".answer-card[data-status=done]", 2, 10_000);
    await page.locator("[role=status]", { hasText: "Live" }).waitFor({ timeout: 10_000 });
    expect(log.sockets).toHaveLength(2);
    expect(sinceOf(log.sockets[1])).toBe(lastBeforeReload);
    await screenshot(page, "06-reloaded-mid-run");

    // Release the held model; while it streams, cut the connection.
    expect(await releaseHold(stub.url, "e2e-reload")).toBe(1);
    await waitForPartialText(page, ".answer-card[data-status=streaming] .markdown", "middle of them", STREAM_WAIT);
    await dropNewestSocket(page);
    await page.locator("[role=status]", { hasText: "Live" }).waitFor({ timeout: 10_000 });
    await waitForCount(page, ".answer-card[data-status=done]", 3, STREAM_WAIT);
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });
    await page.locator("table.ranking tbody tr").nth(2).waitFor({ timeout: STREAM_WAIT });

    // Three sockets: a snapshot first, then two resumptions, each right after a seq the page had; together they
    // cover every seq from the snapshot to the end, and the page applied each exactly once (the texts are exact).
    expect(log.invalid).toEqual([]);
    expect(log.sockets).toHaveLength(3);
    const [first, reloaded, redialled] = log.sockets;
    expect(sinceOf(first)).toBeNull();
    expect(first.events[0].type).toBe("snapshot");
    const since = sinceOf(redialled)!;
    expect(since).toBeGreaterThan(lastBeforeReload);
    expect(since).toBeLessThanOrEqual(Math.max(...reloaded.events.map((e) => e.seq)));
    for (const socket of [reloaded, redialled]) {
      expect(socket.events.some((e) => e.type === "snapshot")).toBe(false);
      expect(socket.events.map((e) => e.seq)).toEqual(socket.events.map((_, i) => sinceOf(socket)! + 1 + i));
    }
    const applied = new Set(
      [...first.events, ...reloaded.events.filter((e) => e.seq <= since), ...redialled.events].map((e) => e.seq),
    );
    const end = Math.max(...applied);
    expect([...applied].sort((a, b) => a - b)).toEqual(
      Array.from({ length: end - first.events[0].seq + 1 }, (_, i) => first.events[0].seq + i),
    );
    for (const [model, text] of Object.entries(texts)) {
      const card = page.locator(".answer-card", { has: page.locator("code", { hasText: model }) });
      expect(await readableText(card.locator(".markdown"))).toBe(text);
    }
    await screenshot(page, "07-resumed-done");
  });

  test("a failed model says why and its Retry brings it back into the ranking", async () => {
    await scriptModel(stub.url, "gpt-flaky", [
      { status: 404, errorMessage: "The model `gpt-flaky` does not exist or you do not have access to it." },
    ]);
    const long = Array.from({ length: 60 }, (_, i) => `${i + 1}. A steady line of a long answer.`).join("\n");
    await scriptModel(stub.url, "claude-steady", [{ text: long }]);
    await scriptModel(stub.url, "gemini-steady", [{ text: "Steady answer two." }]);

    const page = await open();
    await page.goto(server.url);
    for (const id of ["openai:gpt-flaky", "anthropic:claude-steady", "google:gemini-steady"]) {
      await page.getByLabel("Model id").fill(id);
      await page.getByLabel("Model id").press("Enter");
    }
    await page.getByLabel("Question").fill("Say something steady.");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });

    const failed = page.locator(".answer-card[data-status=failed]");
    expect(await failed.count()).toBe(1);
    expect(await readableText(failed)).toContain("does not exist");
    await page.locator("table.ranking tbody tr").nth(2).waitFor({ timeout: STREAM_WAIT });
    expect(await page.locator("table.ranking tbody tr:not(.unranked)").count()).toBe(2);
    const flakyLabel = await failed.getAttribute("data-label");
    expect(await readableText(page.locator("table.ranking tr.unranked"))).toBe(
      `— gpt-flaky (Answer ${flakyLabel}) Not ranked: this model gave no answer`,
    );
    await screenshot(page, "08-failed-card");

    // The long answer starts collapsed and opens on request.
    const toggle = page.getByRole("button", { name: "Show the whole answer" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await page.locator(".answer-body.collapsed").count()).toBe(1);
    await toggle.click();
    expect(await page.getByRole("button", { name: "Collapse answer" }).getAttribute("aria-expanded")).toBe("true");
    expect(await page.locator(".answer-body.collapsed").count()).toBe(0);

    await failed.getByRole("button", { name: "Retry gpt-flaky" }).click();
    await waitForCount(page, ".answer-card[data-status=done]", 3, STREAM_WAIT);
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });
    await waitForCount(page, "table.ranking tbody tr:not(.unranked)", 3, STREAM_WAIT);
    expect(await page.locator("table.ranking tr.unranked").count()).toBe(0);
  });

  test("the vote math says how many reviewers ranked first the answer they were shown first, against chance, and the order each was shown", async () => {
    const page = await open();
    await page.goto(server.url);
    for (const name of ["Demo · Concise", "Demo · Thorough", "Demo · Skeptic"])
      await page.getByRole("checkbox", { name }).check();
    await page.getByLabel("Question").fill("Should tabs or spaces indent code?");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}-[0-9a-f]{32}$/, { timeout: 10_000 });
    const runId = page.url().split("/").pop()!;
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });
    await page.getByTestId("position-bias").waitFor({ timeout: STREAM_WAIT });

    // The hand count, from each reviewer's own order and ranking as stored.
    const res = await fetch(`${server.url}/api/runs/${runId}`);
    const { aggregation } = (await res.json()) as {
      aggregation: {
        voteBreakdown: {
          reviewers: { ranking: string[]; shownOrder?: string[] | null }[];
          positionBias?: { reviewers: number; firstShownRankedFirst: number; expected: number } | null;
        };
      };
    };
    const reviewers = aggregation.voteBreakdown.reviewers;
    expect(reviewers).toHaveLength(3);
    const firstShownFirst = reviewers.filter(
      (r) => r.shownOrder!.find((l) => r.ranking.includes(l)) === r.ranking[0],
    ).length;
    const expected = reviewers.reduce((sum, r) => sum + 1 / r.ranking.length, 0);
    expect(expected).toBe(1.5); // three reviewers, each ranking the two answers that are not its own
    expect(aggregation.voteBreakdown.positionBias).toEqual({
      reviewers: 3,
      firstShownRankedFirst: firstShownFirst,
      expected,
    });
    expect(await readableText(page.getByTestId("position-bias"))).toBe(
      `Position bias: ${firstShownFirst} of 3 reviewers ranked first the answer they were shown first (1.5 expected by chance). Each reviewer read the answers in its own shuffled order, so no answer was always first.`,
    );

    // Each reviewer's shown order in the Borda table, beside its ranking.
    const table = page.getByRole("region", { name: "Borda points by reviewer" });
    expect(await table.getByRole("columnheader", { name: "Shown order" }).count()).toBe(1);
    const shown = await table.locator("tbody [data-col=shown-order]").allInnerTexts();
    expect(shown).toEqual(reviewers.map((r) => r.shownOrder!.join(", ")));
    expect(
      await table
        .locator("tbody tr")
        .evaluateAll((rows: { children: ArrayLike<{ textContent: string | null }> }[]) =>
          rows.map((r) => r.children[3].textContent),
        ),
    ).toEqual(reviewers.map((r) => r.ranking.join(" › ")));
    await page.getByTestId("position-bias").scrollIntoViewIfNeeded();
    await screenshot(page, "13-position-bias");
  });

  test("at phone width in dark mode every control is labelled and the keyboard alone can set up a run", async () => {
    const page = await open({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });
    await page.goto(server.url);
    await page.getByRole("checkbox", { name: "Demo · Concise" }).waitFor();

    expect(await unlabelledControls(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    expect(await page.evaluate("getComputedStyle(document.body).backgroundColor")).toBe("rgb(20, 20, 19)");
    await screenshot(page, "09-phone-dark-setup");

    // Keyboard only: a checkbox, a typed model id, the question, then Ctrl+Enter.
    await page.getByRole("checkbox", { name: "Demo · Concise" }).focus();
    await page.keyboard.press("Space");
    expect(await page.getByRole("checkbox", { name: "Demo · Concise" }).isChecked()).toBe(true);
    await page.getByLabel("Model id").focus();
    await page.keyboard.type("openai-compatible:llama3.2");
    await page.keyboard.press("Enter");
    expect(await readableText(page.locator("#model-id-message"))).toContain("no OPENAI_COMPATIBLE_BASE_URL");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("demo:skeptic");
    await page.keyboard.press("Enter");
    expect(await page.getByRole("checkbox", { name: "Demo · Skeptic" }).isChecked()).toBe(true);
    await page.getByLabel("Question").focus();
    await page.keyboard.type("Is a hot dog a sandwich?");
    await page.keyboard.press("Control+Enter");
    await page.waitForURL(/\/runs\//);
    await page.getByTestId("run-status").getByText("Done").waitFor({ timeout: STREAM_WAIT });
    await page.locator("table.ranking tbody tr").nth(1).waitFor({ timeout: STREAM_WAIT });
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, "10-phone-dark-run");
  });
});
