/**
 * A full disk under `wrangler dev`: its state folder on a 3 MB tmpfs, filled through the API until SQLite
 * answers SQLITE_FULL (workerd passes the Worker only "internal error; reference = …" and prints the cause).
 * Writes then get a 503 that says what happened and what to do, reads still answer. Needs root to mount a
 * tmpfs; skipped with the reason where it can't. No browser needed.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, launchWranglerDev, migrate, ROOT } from "../../scripts/lib/wrangler-dev";
import { buildWeb } from "../helpers/e2e-wrangler";

const dir = mkdtempSync(path.join(tmpdir(), "quorum-full-disk-"));
const mountError = (() => {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", dir], { stdio: "pipe" });
    return null;
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return (err as { stderr?: Buffer }).stderr?.toString().trim() || String(err);
  }
})();
if (mountError)
  console.warn(`[e2e] skipping the full-disk test: cannot mount a small tmpfs (${mountError}); it needs root.`);

const BALLAST = path.join(dir, "ballast");
let server: DevServer | undefined;

beforeAll(async () => {
  if (mountError) return;
  if (!existsSync(path.join(ROOT, "web/dist/index.html"))) await buildWeb();
  await migrate(dir);
  // Space to give back once the disk is full, as a person would by deleting something.
  writeFileSync(BALLAST, new Uint8Array(768 * 1024));
  server = await launchWranglerDev({ persistTo: dir, vars: { QUORUM_LOG: "off", QUORUM_DEMO_DELAY_MS: "1" } });
});

afterAll(() => {
  if (mountError) return;
  return (server?.stop() ?? Promise.resolve()).finally(() => {
    execFileSync("umount", [dir]);
    rmSync(dir, { recursive: true, force: true });
  });
});

const post = (route: string, body: unknown, type = "application/json") =>
  fetch(`${server!.url}${route}`, {
    method: "POST",
    headers: { "content-type": type },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

/** 100 battles of ~4 KB each (their style metadata is padded): about 0.5 MB of D1 per request. */
const heavyBattles = (round: number) =>
  Array.from({ length: 100 }, (_, i) =>
    JSON.stringify({
      model_a: "full-a",
      model_b: "full-b",
      winner: "tie",
      tstamp: round * 100 + i,
      conv_metadata: { pad: "p".repeat(3900) },
    }),
  ).join("\n");

const MESSAGES = {
  // D1 and the rate limiter: workerd hides SQLITE_FULL behind an internal error's reference
  storage_unavailable:
    /^The server's storage failed \(runtime error reference \w+\), which under `npm start` almost always means the disk is full: wrangler's output then shows SQLITE_FULL\. Free some space on the disk that holds \.wrangler\/state, then try again; if the disk isn't full, wrangler's output names what failed\.$/,
  // a room's own SQL storage: the error reaches the Worker naming SQLITE_FULL
  storage_full:
    /^The server's disk is full \(its database answered SQLITE_FULL\), so this could not be done\. Free some space on the disk that holds the Worker's state \(\.wrangler\/state under `npm start`\), or delete old runs and comparisons, then try again\.$/,
};

async function expectStorage503(res: Response, code: keyof typeof MESSAGES): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(503);
  const { error } = JSON.parse(text) as { error: { code: string; message: string } };
  expect(error.code, text).toBe(code);
  expect(error.message).toMatch(MESSAGES[code]);
}

async function waitForReady(id: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const detail = (await (await fetch(`${server!.url}/api/comparisons/${id}`)).json()) as {
      comparison: { status: string };
    };
    if (detail.comparison.status === "ready") return;
    if (Date.now() > deadline)
      throw new Error(`comparison ${id} not ready within ${timeoutMs} ms: ${detail.comparison.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitForOutput(text: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!server!.output().includes(text)) {
    if (Date.now() > deadline)
      throw new Error(`wrangler never printed "${text}"; its output ends:\n${server!.output().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(mountError !== null)("a full disk under wrangler dev", () => {
  it("answers with a 503 that says the disk is full and what to do, from D1 and from a room's storage, and works again once space is freed", async () => {
    const created = await post("/api/comparisons", { prompt: "Say hi.", models: ["demo:concise", "demo:skeptic"] });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await waitForReady(id);

    // Fill D1 until SQLite can't grow it (3 MB hold a handful of rounds; the bound only stops a runaway loop).
    let refused: Response | null = null;
    for (let round = 0; round < 50 && !refused; round++) {
      const res = await post(`/api/battles/import?importId=fill-${round}`, heavyBattles(round), "application/x-ndjson");
      if (res.status !== 200) refused = res;
    }
    expect(refused, "the disk never filled").not.toBeNull();
    await expectStorage503(refused!, "storage_unavailable");
    // What workerd hid from the Worker, it prints: the failure was SQLite's own SQLITE_FULL.
    await waitForOutput("database or disk is full: SQLITE_FULL");

    // A room writes its own storage first: the comparison's follow-up, and a new run's rate limiter.
    await expectStorage503(await post(`/api/comparisons/${id}/messages`, { content: "And again?" }), "storage_full");
    await expectStorage503(
      await post("/api/runs", { question: "q", models: [{ id: "demo:concise" }] }),
      "storage_unavailable",
    );
    expect((await fetch(`${server!.url}/api/health`)).status).toBe(200);

    // What the message says to do works: with space freed, the same requests succeed.
    rmSync(BALLAST);
    const read = await fetch(`${server!.url}/api/comparisons/${id}`);
    expect(read.status, await read.clone().text()).toBe(200);
    const again = await post(`/api/comparisons/${id}/messages`, { content: "And again?" });
    expect(again.status, await again.clone().text()).toBe(202);
    const run = await post("/api/runs", { question: "q", models: [{ id: "demo:concise" }] });
    expect(run.status, await run.clone().text()).toBe(201);
  });
});
