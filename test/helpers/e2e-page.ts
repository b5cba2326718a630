/**
 * Small waits, readers and recorders for browser tests. Every wait names what it waits for and has a timeout.
 * Page-side functions are real functions (the page's CSP forbids evaluating strings), serialized by Playwright.
 */
import type { Locator, Page } from "playwright-core";
import { runEvent, type RunEvent } from "../../worker/shared/events";

/** A schema of the Worker's own event unions (zod/mini), as far as these helpers use it. */
interface EventSchema<E> {
  safeParse(value: unknown): { success: true; data: E } | { success: false; error: { issues: unknown[] } };
}

// The test program has no DOM types; page-side code only needs these few.
interface PageElement {
  textContent: string | null;
  attributes: Iterable<{ name: string }>;
  labels?: ArrayLike<unknown> | null;
  outerHTML: string;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): Iterable<PageElement> & ArrayLike<PageElement>;
  compareDocumentPosition(other: PageElement): number;
}
declare const document: {
  querySelectorAll(selector: string): Iterable<PageElement> & ArrayLike<PageElement>;
  querySelector(selector: string): PageElement | null;
  documentElement: { scrollWidth: number };
  activeElement: (PageElement & { id: string }) | null;
};
declare const window: { innerWidth: number };

export interface SocketRecord<E = RunEvent> {
  url: string;
  /** the events this socket delivered, each checked against the Worker's own event schema */
  events: E[];
}

export interface SocketLog<E = RunEvent> {
  /** every WebSocket the page opened, in order */
  sockets: SocketRecord<E>[];
  /** frames that were not valid events, with the reason */
  invalid: string[];
  /** all events of all sockets, in arrival order */
  events: () => E[];
}

/** Records the page's live sockets and validates every frame it receives (against `runEvent` unless told otherwise). */
export function recordSockets<E = RunEvent>(
  page: Page,
  schema: EventSchema<E> = runEvent as unknown as EventSchema<E>,
): SocketLog<E> {
  const sockets: SocketRecord<E>[] = [];
  const log: SocketLog<E> = { sockets, invalid: [], events: () => sockets.flatMap((s) => s.events) };
  page.on("websocket", (ws) => {
    const record: SocketRecord<E> = { url: ws.url(), events: [] };
    sockets.push(record);
    ws.on("framereceived", ({ payload }) => {
      if (typeof payload !== "string" || payload === "pong") return;
      const parsed = schema.safeParse(JSON.parse(payload));
      if (parsed.success) record.events.push(parsed.data);
      else log.invalid.push(`${payload.slice(0, 200)} → ${JSON.stringify(parsed.error.issues.slice(0, 2))}`);
    });
  });
  return log;
}

/** The `since` a socket asked to resume after, or null when it asked for a snapshot. */
export function sinceOf(socket: { url: string }): number | null {
  const since = new URL(socket.url).searchParams.get("since");
  return since === null ? null : Number(since);
}

/** Keeps a handle on every WebSocket the page opens, so a test can cut one as a network drop would. */
export async function trackSockets(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    const Native = window.WebSocket;
    window.__quorumSockets = [];
    window.WebSocket = class extends Native {
      constructor(...args) {
        super(...args);
        window.__quorumSockets.push(this);
      }
    };
  })()`);
}

/** Closes the page's newest WebSocket under it, as a dropped connection would. */
export async function dropNewestSocket(page: Page): Promise<void> {
  await page.evaluate("window.__quorumSockets.at(-1).close(4001, 'dropped by the test')");
}

/** Waits until exactly `count` elements match the CSS `selector`. */
export async function waitForCount(page: Page, selector: string, count: number, timeoutMs: number): Promise<void> {
  await page.waitForFunction(([s, n]) => document.querySelectorAll(s).length === n, [selector, count] as const, {
    timeout: timeoutMs,
    polling: "raf",
  });
}

/** Waits until some element matching `selector` shows text, but not yet `notYet` (it is still being written). */
export async function waitForPartialText(
  page: Page,
  selector: string,
  notYet: string,
  timeoutMs: number,
): Promise<void> {
  await page.waitForFunction(
    ([s, marker]) =>
      Array.from(document.querySelectorAll(s)).some(
        (el) => (el.textContent ?? "").length > 0 && !(el.textContent ?? "").includes(marker),
      ),
    [selector, notYet] as const,
    { timeout: timeoutMs, polling: "raf" },
  );
}

/** The text of an element with runs of whitespace folded, as a person reads it. */
export async function readableText(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\s+/g, " ").trim();
}

/** Names of every attribute on every element inside `locator`. */
export function attributeNames(locator: Locator): Promise<string[]> {
  return locator.evaluate((root: PageElement) =>
    Array.from(root.querySelectorAll("*")).flatMap((el) => Array.from(el.attributes, (a) => a.name)),
  );
}

/** The raw `href` attribute of each element matched by `links` (null when it has none). */
export function hrefsOf(links: Locator): Promise<(string | null)[]> {
  return links.evaluateAll((els: PageElement[]) => els.map((a) => a.getAttribute("href")));
}

/** Form controls, buttons and links that have no accessible name from a label, aria-label or text. */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll("input, textarea, select, button, a[href]"))
      .filter(
        (el) =>
          !(
            el.labels?.length ||
            el.getAttribute("aria-label") ||
            el.getAttribute("aria-labelledby") ||
            (el.textContent ?? "").trim()
          ),
      )
      .map((el) => el.outerHTML.slice(0, 160)),
  );
}

/** True when the page needs no horizontal scrolling at the current width. */
export function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** How wide the page is laid out, in CSS pixels: wider than the viewport means it scrolls sideways. */
export function pageScrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** True when the first element matching `first` comes before the first matching `second` in the document. */
export function comesBefore(page: Page, first: string, second: string): Promise<boolean> {
  return page.evaluate(
    ([a, b]) => {
      const [x, y] = [document.querySelector(a), document.querySelector(b)];
      // Node.DOCUMENT_POSITION_FOLLOWING: y follows x.
      return Boolean(x && y && x.compareDocumentPosition(y) & 4);
    },
    [first, second] as const,
  );
}

/** The id of the focused element, or null. */
export function focusedId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.id || null);
}

/** True when the element `locator` matches has the focus. */
export function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el: PageElement) => el === document.activeElement);
}
