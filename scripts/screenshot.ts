// `npx tsx scripts/screenshot.ts [URL]`: retakes docs/screenshot.png, the README's picture of a council run of the
// demo models, from a running Quorum (default http://127.0.0.1:8787; `npm start` in another terminal). Drives
// Debian's Chromium through playwright-core, headless, with a profile of its own that is removed afterwards.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

const CHROMIUM_PATH = "/usr/bin/chromium";
const OUT = "docs/screenshot.png";
const VIEWPORT = { width: 1280, height: 800 };
/** The demo models stream with a small delay each; a run of three ends within seconds. */
const RUN_TIMEOUT_MS = 60_000;

/** One of the demo's example questions (worker/providers/demo/examples/), so the demo models answer it for real. */
const QUESTION =
  "Pick a vector database for 50M embeddings (768 dimensions) with metadata filtering: pgvector, Qdrant or Milvus?";
const MODELS = ["demo:concise", "demo:thorough", "demo:skeptic"];

async function startRun(base: string, token: string | undefined): Promise<string> {
  const response = await fetch(new URL("/api/runs", base), {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ question: QUESTION, models: MODELS.map((id) => ({ id })) }),
  });
  if (response.status !== 201) throw new Error(`POST /api/runs answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

async function main(): Promise<void> {
  const base = process.argv[2] ?? "http://127.0.0.1:8787";
  const token = process.env.QUORUM_TOKEN;
  const id = await startRun(base, token);
  const profile = await mkdtemp(path.join(tmpdir(), "quorum-screenshot-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ["--no-sandbox"],
    viewport: VIEWPORT,
  });
  try {
    const page = await context.newPage();
    // Where the page keeps the access token (web/src/lib/access.ts), so it starts signed in.
    if (token) await page.addInitScript({ content: `localStorage.setItem("quorum.token", ${JSON.stringify(token)})` });
    await page.goto(new URL(`/runs/${id}`, base).href);
    // The run's status badge says Done once every answer, review and the ranking are in.
    await page.getByTestId("run-status").filter({ hasText: "Done" }).waitFor({ timeout: RUN_TIMEOUT_MS });
    await page.screenshot({ path: OUT });
    console.log(`${OUT}: run ${id}`);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

await main();
