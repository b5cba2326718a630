/**
 * The bench's relay Worker (relay-worker/) under a `wrangler dev` of its own: it measures the floor that
 * `wrangler dev` itself puts under a live event (/relay) or an arena round (/round, and /room with a
 * Durable Object per round, its only binding).
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BenchContext } from "./context";
import { startWrangler, tempDir, type Server } from "./wrangler";

/** Starts the relay Worker on Quorum's compatibility date; the caller stops it. */
export async function startRelay(ctx: BenchContext): Promise<Server> {
  const snap = await ctx.snapshot();
  const dir = await tempDir("relay");
  ctx.onClose(() => rm(dir, { recursive: true, force: true }));
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(await readFile(snap.config, "utf8"))?.[1] ?? "2026-11-01";
  const config = path.join(dir, "relay-wrangler.toml");
  const main = path.join(import.meta.dirname, "../relay-worker/worker.ts");
  await writeFile(
    config,
    [
      `name = "quorum-bench-relay"`,
      `main = "${main}"`,
      `compatibility_date = "${date}"`,
      `[[durable_objects.bindings]]`,
      `name = "ROUND_ROOM"`,
      `class_name = "RoundRoom"`,
      `[[migrations]]`,
      `tag = "v1"`,
      `new_sqlite_classes = ["RoundRoom"]`,
      "",
    ].join("\n"),
  );
  return startWrangler({ config, persistTo: path.join(dir, "state"), readyPath: "/health" });
}

/** The stub's OpenAI-style streaming endpoint: what the relay's rounds stream from, and the direct baseline reads. */
export const stubCompletions = (stubUrl: string): string => `${stubUrl}/v1/chat/completions`;

/** The relay's query string that points it at the stub's streaming endpoint. */
export function stubTarget(stubUrl: string): string {
  return `target=${encodeURIComponent(stubCompletions(stubUrl))}`;
}
