/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";

/** Every Worker source file's text, by its path relative to this test (Vite reads them at build time). */
const sources = import.meta.glob<string>(["../../worker/**/*.ts", "!../../worker/**/*.d.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
});

const ROOT = "../../worker/";

/** The top-level folder of `worker/` a path is in, or "(entry)" for the files directly under it. */
const folderOf = (path: string) =>
  path.slice(ROOT.length).includes("/") ? path.slice(ROOT.length).split("/")[0] : "(entry)";

/** `spec` resolved against the folder of `from`, both relative to this test. */
function resolve(from: string, spec: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const step of spec.split("/")) {
    if (step === "..") parts.pop();
    else if (step !== ".") parts.push(step);
  }
  return parts.join("/");
}

/** Folder → the folders its files import (type imports too: a type still ties two folders together). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [path, text] of Object.entries(sources)) {
    const from = folderOf(path);
    for (const [, spec] of text.matchAll(/(?:import|export)\s[^'"]*?from\s+["'](\.[^"']+)["']/g)) {
      const target = resolve(path, spec);
      if (!target.startsWith(ROOT)) continue;
      const to = folderOf(target + (target.slice(ROOT.length).includes("/") ? "" : ".ts"));
      if (to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Each cycle found by a depth-first walk, as the folders along it. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const walk = (node: string, path: string[]) => {
    state.set(node, "open");
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...path.slice(path.indexOf(next)), node, next]);
      else if (!state.has(next)) walk(next, [...path, node]);
    }
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) walk(node, []);
  return found;
}

/**
 * The layers of worker/, top to bottom (ARCHITECTURE.md): a folder imports only from its own layer or below,
 * so the data layer and the pure maths never reach up into the features that use them.
 */
const LAYERS: string[][] = [
  ["(entry)"],
  ["api"],
  ["rooms", "arena"],
  ["council", "judges", "providers", "battles", "labels", "evaluation", "prompt-sets"],
  ["db", "rating", "redaction"],
  ["shared"],
];

function layerOf(folder: string): number {
  const at = LAYERS.findIndex((layer) => layer.includes(folder));
  if (at === -1) throw new Error(`worker/${folder}/ is in no layer: add it to LAYERS and to ARCHITECTURE.md`);
  return at;
}

/** Every import that reaches up a layer, as "from → to". */
function upward(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph)
    for (const to of targets) if (layerOf(to) < layerOf(from)) found.push(`${from} → ${to}`);
  return found.sort();
}

describe("the folders of worker/", () => {
  it("import only from their own layer or below", () => {
    const graph = folderGraph();
    for (const folder of graph.keys()) layerOf(folder);
    expect(upward(graph)).toEqual([]);
    expect(upward(new Map([["db", new Set(["battles", "shared"])]]))).toEqual(["db → battles"]);
  });

  it("import each other without a cycle", () => {
    const graph = folderGraph();
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    expect(graph.get("api")?.has("rooms")).toBe(true);
    expect(cycles(graph)).toEqual([]);
  });

  it("would see a cycle if one came back", () => {
    const graph = new Map([
      ["arena", new Set(["db", "rooms"])],
      ["rooms", new Set(["arena"])],
      ["db", new Set(["rating"])],
    ]);
    expect(cycles(graph)).toEqual([["arena", "rooms", "arena"]]);
  });
});
