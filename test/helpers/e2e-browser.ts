/**
 * Debian's Chromium driven by playwright-core: a fresh profile per session, no downloads of browsers,
 * no background network of its own. Screenshots go to test-results/e2e/.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM_PATH);
export const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-results/e2e");

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** messages the page logged and errors it threw, for failure messages */
  console: string[];
  close: () => Promise<void>;
}

export interface SessionOptions {
  viewport?: { width: number; height: number };
  colorScheme?: "light" | "dark";
  /** a phone: a touch screen and a mobile viewport (no hover, a coarse pointer) */
  touch?: boolean;
}

/** Launches Chromium with a new, empty profile and opens one page. */
export async function openBrowser(opts: SessionOptions = {}): Promise<BrowserSession> {
  const profile = await mkdtemp(path.join(tmpdir(), "quorum-e2e-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: opts.viewport ?? { width: 1280, height: 900 },
    colorScheme: opts.colorScheme ?? "light",
    ...(opts.touch ? { hasTouch: true, isMobile: true } : {}),
    acceptDownloads: true,
    timeout: 30_000,
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(20_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const log: string[] = [];
  page.on("console", (m) => log.push(`[${m.type()}] ${m.text()}`));
  page.on("pageerror", (e) => log.push(`[pageerror] ${e.message}`));
  return {
    context,
    page,
    console: log,
    close: async () => {
      await context.close().catch(() => {});
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot as a test artifact and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
