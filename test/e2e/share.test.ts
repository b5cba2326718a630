/**
 * Share links in a real browser: the owner of a Quorum with APP_TOKEN set shares a finished run (and a
 * comparison) from its page; a visitor with a fresh browser and no token opens the link and sees that item,
 * live and read-only, until the owner revokes it.
 */
import { expect, test } from "vitest";
import { screenshot, type BrowserSession } from "../helpers/e2e-browser";
import { readableText } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";

const APP_TOKEN = "e2e-share-token-51c0";
const DONE_WAIT = 30_000;
const LINK = /^http:\/\/127\.0\.0\.1:\d+\/shared\/[A-Za-z0-9_-]{43}$/;
/** Anything that would change the item, or lead into the rest of the app. */
const CONTROLS = /retry|delete|run again|cancel|review and vote|share|export|vote|change|new round|send|ask judges/i;

describeInBrowser("share links in a real browser", () => {
  const { server, openSession: browser } = browserSuite({
    vars: { APP_TOKEN, QUORUM_DEMO_DELAY_MS: "5", QUORUM_MIN_VOTE_MS: "0" },
  });

  const post = async (path: string, body: unknown): Promise<{ id: string }> => {
    const res = await fetch(`${server.url}/api${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", Authorization: `Bearer ${APP_TOKEN}` },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: string };
  };

  /** The owner opens `path` and gives the page the token it asks for, as a person would. */
  const ownerAt = async (path: string) => {
    const owner = await browser();
    await owner.page.goto(`${server.url}${path}`);
    await owner.page.getByLabel("Access token", { exact: true }).fill(APP_TOKEN);
    await owner.page.getByRole("button", { name: "Save" }).click();
    return owner;
  };

  /** Opens the share panel, makes a link, copies it, and returns it. */
  const makeLink = async (owner: BrowserSession) => {
    await owner.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await owner.page.getByRole("button", { name: "Share", exact: true }).click();
    await owner.page.getByRole("button", { name: "Create link" }).click();
    const field = owner.page.getByTestId("share-url");
    await field.waitFor();
    const link = await field.inputValue();
    expect(link).toMatch(LINK);
    // made on 127.0.0.1: the panel says teammates can't open it
    expect(await readableText(owner.page.getByTestId("share-local-note"))).toMatch(
      new RegExp(`^This link points at ${new URL(link).host.replace(/\./g, "\\.")}, which only this machine can open.`),
    );
    await owner.page.getByRole("button", { name: "Copy", exact: true }).click();
    await owner.page.getByText("Copied.").waitFor();
    expect(await owner.page.evaluate("navigator.clipboard.readText()")).toBe(link);
    return link;
  };

  test("a finished run shared from its page opens, live and read-only, in a browser with no token, until it is revoked", async () => {
    const { id } = await post("/runs", {
      question: "Is a hot dog a sandwich?",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }],
    });
    const owner = await ownerAt(`/runs/${id}`);
    await owner.page.locator("table.ranking tbody tr").nth(2).waitFor({ timeout: DONE_WAIT });
    // The ranking shows before the run ends, and the names only once it has: read the page as the visitor will see it.
    await owner.page.getByTestId("run-status").getByText("Done").waitFor({ timeout: DONE_WAIT });
    const winner = await readableText(owner.page.getByTestId("winner"));
    const ranking = await owner.page.locator("table.ranking tbody tr").allInnerTexts();
    const titles = await owner.page.locator(".answer-card h3").allInnerTexts();

    const link = await makeLink(owner);
    const panel = owner.page.getByTestId("share-panel");
    expect(await panel.getByRole("button", { name: /^Revoke the link made / }).count()).toBe(1);
    await screenshot(owner.page, "share-01-owner-panel");

    // A visitor: a fresh browser, no token. The page reads the item through the link and follows it over the link's socket.
    const visitor = await browser();
    const opened = visitor.page.waitForEvent("websocket", { timeout: 15_000 });
    const response = await visitor.page.goto(link);
    // the token is in the address: never sent on as a referrer, never indexed
    expect(response?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
    const socket = await opened;
    expect(new URL(socket.url()).pathname).toBe(`/api/shared/${link.split("/").pop()}/ws`);
    const first = await socket.waitForEvent("framereceived", { timeout: 15_000 });
    expect(JSON.parse(String(first.payload))).toMatchObject({
      type: "snapshot",
      state: { run: { id, status: "done" } },
    });

    await visitor.page.locator("table.ranking tbody tr").nth(2).waitFor({ timeout: 15_000 });
    expect(await readableText(visitor.page.getByTestId("winner"))).toBe(winner);
    expect(await visitor.page.locator("table.ranking tbody tr").allInnerTexts()).toEqual(ranking);
    expect(await visitor.page.locator(".answer-card h3").allInnerTexts()).toEqual(titles);
    expect(await visitor.page.locator(".reviewer-card").count()).toBe(3);
    expect(await visitor.page.locator(".critique-text").count()).toBeGreaterThanOrEqual(6);
    expect(await readableText(visitor.page.getByTestId("read-only-note"))).toMatch(/read-only view of one council run/);
    await visitor.page.locator("[role=status]", { hasText: "Live" }).waitFor({ timeout: 10_000 });
    // Nothing here changes the run, asks for a token, or leads into the owner's Quorum.
    expect(await visitor.page.getByRole("button", { name: CONTROLS }).count()).toBe(0);
    expect(await visitor.page.getByRole("link", { name: CONTROLS }).count()).toBe(0);
    expect(await visitor.page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
    expect(await visitor.page.locator("#access-token").count()).toBe(0);
    expect(await visitor.page.locator("a[href^='/']").count()).toBe(0);
    // The shared run leads with its outcome, and its cards carry their ranks, as on the owner's page.
    expect(await visitor.page.locator(".outcome-ranking li").allInnerTexts()).toEqual(
      await owner.page.locator(".outcome-ranking li").allInnerTexts(),
    );
    expect(await visitor.page.getByTestId("rank-badge").allInnerTexts()).toEqual(
      await owner.page.getByTestId("rank-badge").allInnerTexts(),
    );
    await screenshot(visitor.page, "share-02-visitor-run");

    // The owner revokes the link: the visitor's open page loses it at once, and so does a reload.
    await panel.getByRole("button", { name: /^Revoke the link made / }).click();
    await panel.getByText("No live link to this run.").waitFor();
    const gone = visitor.page.getByRole("alert");
    await gone.waitFor({ timeout: 15_000 });
    expect(await readableText(gone)).toMatch(/This link opens nothing: it was revoked/);
    expect(await visitor.page.locator("table.ranking").count()).toBe(0);
    await visitor.page.reload();
    await visitor.page.getByRole("heading", { name: "Link not available" }).waitFor();
    expect(await visitor.page.locator("#access-token").count()).toBe(0);
  });

  test("a comparison shared before its vote stays blind for the visitor, then reveals the names live when the owner votes", async () => {
    const { id } = await post("/comparisons", {
      prompt: "Name a prime number.",
      models: ["demo:concise", "demo:thorough"],
    });
    const owner = await ownerAt(`/arena/${id}`);
    await owner.page
      .getByTestId("comparison-status")
      .filter({ hasText: "Ready for your vote" })
      .waitFor({ timeout: DONE_WAIT });
    const link = await makeLink(owner);

    const visitor = await browser();
    await visitor.page.goto(link);
    const status = visitor.page.getByTestId("comparison-status");
    await status.filter({ hasText: "Waiting for a vote" }).waitFor();
    expect(await visitor.page.locator(".arena-pane .card-head h2").allInnerTexts()).toEqual(["Model A", "Model B"]);
    expect(await visitor.page.locator("main").innerText()).not.toMatch(/Demo · |demo:/);
    expect(await visitor.page.getByRole("button", { name: CONTROLS }).count()).toBe(0);
    expect(await visitor.page.locator("textarea").count()).toBe(0);
    await visitor.page.locator("[role=status]", { hasText: "Live" }).waitFor({ timeout: 10_000 });

    await owner.page.locator("button.vote[data-choice=left]").click();
    await owner.page.getByText("You voted: A is better").waitFor();
    const named = await owner.page.locator(".arena-pane .card-head h2").allInnerTexts();
    expect(named).not.toEqual(["Model A", "Model B"]);
    await status.filter({ hasText: "Voted" }).waitFor({ timeout: 15_000 });
    await visitor.page.locator(".arena-pane .card-head h2", { hasText: named[0] }).waitFor({ timeout: 15_000 });
    expect(await visitor.page.locator(".arena-pane .card-head h2").allInnerTexts()).toEqual(named);
    expect(await readableText(visitor.page.getByTestId("shared-vote"))).toMatch(/^Voted: A is better/);
    // The visitor's page leads with the same outcome, as voted (not "your vote").
    expect(await readableText(visitor.page.getByTestId("arena-winner"))).toBe(
      `${named[0]} (Model A) won (by the vote)`,
    );
    await screenshot(visitor.page, "share-03-visitor-comparison");
  });
});
