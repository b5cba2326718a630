/**
 * The page's JavaScript, gzip: the first load (the entry and everything it imports statically) against the
 * 60 KB budget, and for each lazy route what opening it costs on top, and so its own first load.
 */
import { rm } from "node:fs/promises";
import type { BenchContext } from "./lib/context";
import type { Row } from "./lib/report";
import { fixed } from "./lib/stats";
import { buildWeb, type Chunk } from "./lib/web-build";
import { tempDir } from "./lib/wrangler";

const BUDGET_KB = 60;
const kb = (bytes: number) => `${fixed(bytes / 1024, 1)} KB`;

/** A chunk and, transitively, its static imports. */
function closure(chunks: Map<string, Chunk>, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || !chunks.has(name)) return;
    seen.add(name);
    for (const dep of chunks.get(name)!.imports) visit(dep);
  };
  roots.forEach(visit);
  return seen;
}

const sum = (chunks: Map<string, Chunk>, names: Iterable<string>) =>
  [...names].reduce((s, n) => s + chunks.get(n)!.gzip, 0);

export async function webBundleBench(ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const outDir = await tempDir("web");
  ctx.onClose(() => rm(outDir, { recursive: true, force: true }));
  const built = await buildWeb(outDir);
  const { chunks } = built;
  const entries = [...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName);
  const first = closure(chunks, entries);
  const firstBytes = sum(chunks, first);
  const routes = [...chunks.values()].filter((c) => c.isDynamicEntry && !first.has(c.fileName));
  const perRoute = routes
    .map((c) => {
      const extra = [...closure(chunks, [c.fileName])].filter((n) => !first.has(n));
      const extraBytes = sum(chunks, extra);
      return { page: c.facade ?? c.fileName, extraBytes, total: firstBytes + extraBytes };
    })
    .sort((a, b) => b.total - a.total);
  const all = sum(chunks, chunks.keys());
  const heaviest = perRoute[0];
  return {
    name,
    benchmark: "web bundle: first-load JavaScript, gzip",
    baseline: "—",
    result: `first load ${kb(firstBytes)} (the entry's route, /); heaviest route ${heaviest ? `${heaviest.page} ${kb(heaviest.total)} with its lazy chunks` : "none"}; all chunks ${kb(all)}`,
    target: `first-load JavaScript ≤ ${BUDGET_KB} KB gzip, per route printed`,
    verdict: firstBytes <= BUDGET_KB * 1024 ? "met" : "MISSED",
    details: [
      `built with web/vite.config.ts (its budget plugin left out so sizes print even over budget) in ${fixed(built.seconds, 1)} s`,
      `first load: ${[...first].map((n) => `${n} ${kb(chunks.get(n)!.gzip)}`).join(" + ")} = ${kb(firstBytes)}`,
      "",
      "| route page | opening it adds | its first load |",
      "| --- | --- | --- |",
      `| / (setup, in the entry) | 0 KB | ${kb(firstBytes)} |`,
      ...perRoute.map((r) => `| ${r.page} | ${kb(r.extraBytes)} | ${kb(r.total)} |`),
      "",
    ],
    problems: [],
  };
}
