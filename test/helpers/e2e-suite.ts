/**
 * What every browser test file sets up the same way: the web build (within its budget), the provider stub,
 * `wrangler dev` with the stub's provider variables, and browsers that are closed after each test, with a
 * screenshot, the page's console and the end of wrangler's output when the test failed, and a test failed
 * whose page threw an uncaught error or had a request refused by its Content Security Policy. Call
 * `browserSuite` at the top of a `describeInBrowser` block.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import {
  type BrowserSession,
  CHROMIUM_PATH,
  hasChromium,
  openBrowser,
  type SessionOptions,
  screenshot,
} from "./e2e-browser";
import { buildWeb, startWranglerDev, type WranglerDev } from "./e2e-wrangler";
import { startProviderStub } from "./provider-stub";

/** The line the build's budget plugin prints. */
const BUDGET = /First-load JS gzip total: [\d.]+ KB \(budget 60 KB\)/;
/** What a page must never log: an uncaught error, or a request the Content Security Policy refused. */
const PAGE_ERROR = /^\[pageerror\]|Content Security Policy/i;

/** The three vendors' SDKs pointed at the stub, with quick retries. */
export const providerVars = (stubUrl: string): Record<string, string> => ({
  OPENAI_API_KEY: "sk-test-openai-e2e",
  OPENAI_BASE_URL: `${stubUrl}/v1`,
  ANTHROPIC_API_KEY: "sk-ant-test-e2e",
  ANTHROPIC_BASE_URL: stubUrl,
  GOOGLE_API_KEY: "test-google-e2e",
  GOOGLE_BASE_URL: stubUrl,
  QUORUM_RETRY_BASE_MS: "5",
});

export interface SuiteOptions {
  /** lines the build must print besides the budget (its report on the lazy routes, say) */
  build?: RegExp[];
  /** start the provider stub, and give every server `providerVars` for it */
  stub?: boolean;
  /** the Worker's variables; a function gets the stub's URL */
  vars?: Record<string, string> | ((stubUrl: string) => Record<string, string>);
}

export interface Suite {
  /** the first `wrangler dev`, up before the first test */
  server: { readonly url: string };
  /** the provider stub (with `stub: true`) */
  stub: { readonly url: string };
  /** starts another `wrangler dev` (with the stub's provider variables too), stopped after the last test */
  startServer: (vars: Record<string, string>) => Promise<WranglerDev>;
  /** a browser of its own (a fresh profile: no token, no storage from another session), closed after the test */
  openSession: (opts?: SessionOptions) => Promise<BrowserSession>;
  /** opens a browser as `openSession` does and returns its page */
  open: (opts?: SessionOptions) => Promise<Page>;
  /** the browser opened last */
  session: () => BrowserSession;
  /**
   * Page errors the current test provokes on purpose (a payload the Content Security Policy must refuse, say):
   * lines matching `line` don't fail it; any other still does.
   */
  expectPageErrors: (line: RegExp) => void;
}

if (!hasChromium)
  console.warn(
    `[e2e] skipping the browser tests: ${CHROMIUM_PATH} not found. Install Debian's Chromium (apt-get install -y chromium) to run them.`,
  );

/** A `describe` of browser tests: skipped where Chromium is missing. */
export const describeInBrowser = describe.skipIf(!hasChromium);

/** Sets up the enclosing `describe` as above and hands its tests the server, the stub and the browsers. */
export function browserSuite(opts: SuiteOptions): Suite {
  let stubbed: Awaited<ReturnType<typeof startProviderStub>> | undefined;
  const servers: WranglerDev[] = [];
  const sessions: BrowserSession[] = [];
  let expected: RegExp[] = [];

  const startServer = async (vars: Record<string, string>) => {
    const server = await startWranglerDev(stubbed ? { ...providerVars(stubbed.url), ...vars } : vars);
    // Kept as soon as it runs, so afterAll stops whatever started.
    servers.push(server);
    return server;
  };
  const openSession = async (sessionOpts?: SessionOptions) => {
    const session = await openBrowser(sessionOpts);
    sessions.push(session);
    return session;
  };

  beforeAll(async () => {
    const build = await buildWeb();
    for (const line of [BUDGET, ...(opts.build ?? [])]) expect(build).toMatch(line);
    if (opts.stub) stubbed = await startProviderStub();
    await startServer(typeof opts.vars === "function" ? opts.vars(stubbed?.url ?? "") : (opts.vars ?? {}));
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === "fail") {
      const slug = ctx.task.name.slice(0, 40).replace(/\W+/g, "-");
      for (const [i, s] of sessions.entries()) {
        await screenshot(s.page, i === 0 ? `failed-${slug}` : `failed-${slug}-${i}`).catch(() => {});
        console.error(`[e2e] page ${i} console for "${ctx.task.name}":\n${s.console.join("\n")}`);
      }
      for (const [i, server] of servers.entries())
        console.error(`[e2e] the end of server ${i}'s output:\n${server.output().slice(-3000)}`);
    }
    const done = sessions.splice(0);
    const pageErrors = done.flatMap((s) =>
      s.console.filter((line) => PAGE_ERROR.test(line) && !expected.some((e) => e.test(line))),
    );
    expected = [];
    for (const s of done) await s.close();
    expect(pageErrors).toEqual([]);
  });

  afterAll(async () => {
    for (const server of servers) await server.close();
    await stubbed?.close();
  });

  return {
    server: {
      get url() {
        return servers[0].url;
      },
    },
    stub: {
      get url() {
        if (!stubbed) throw new Error("this suite runs without the provider stub: pass { stub: true }");
        return stubbed.url;
      },
    },
    startServer,
    openSession,
    open: async (sessionOpts) => (await openSession(sessionOpts)).page,
    expectPageErrors: (line) => {
      expected.push(line);
    },
    session: () => {
      const last = sessions.at(-1);
      if (!last) throw new Error("no browser is open");
      return last;
    },
  };
}
