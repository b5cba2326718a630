import { gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import solid from "vite-plugin-solid";

/** The page's JavaScript budget, gzip, first load (DESIGN.md "Performance"). */
const JS_BUDGET_BYTES = 60 * 1024;

/**
 * Prints the gzip size of every JS chunk, and fails the build when the first load (the entry and
 * everything it imports statically) is over budget. Lazy routes are printed beside it: they load
 * only when their page is opened.
 */
function jsBudget(limit: number): Plugin {
  return {
    name: "quorum-js-budget",
    apply: "build",
    enforce: "post",
    // After every other plugin has had its say, so the sizes are those of the files as written.
    writeBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle).flatMap((f) => (f.type === "chunk" ? [[f.fileName, f] as const] : [])),
      );
      const size = new Map([...chunks].map(([name, c]) => [name, gzipSync(c.code).length]));
      const firstLoad = new Set<string>();
      const visit = (name: string) => {
        if (firstLoad.has(name)) return;
        firstLoad.add(name);
        for (const dep of chunks.get(name)?.imports ?? []) visit(dep);
      };
      for (const c of chunks.values()) if (c.isEntry) visit(c.fileName);
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
      /** What opening a lazy route downloads beyond the first load: it and the chunks it imports. */
      const opening = (name: string, seen = new Set<string>()): number => {
        if (seen.has(name) || firstLoad.has(name)) return 0;
        seen.add(name);
        return size.get(name)! + (chunks.get(name)?.imports ?? []).reduce((sum, dep) => sum + opening(dep, seen), 0);
      };
      const line = (name: string) => {
        const c = chunks.get(name)!;
        const what = firstLoad.has(name)
          ? c.isEntry
            ? "entry"
            : "first load"
          : c.isDynamicEntry
            ? `lazy route; opening it loads ${kb(opening(name))} with its shared chunks`
            : "lazy, shared";
        return `  ${name}  ${kb(size.get(name)!)} gzip  (${what})`;
      };
      const total = [...firstLoad].reduce((sum, name) => sum + size.get(name)!, 0);
      const all = [...size.values()].reduce((a, b) => a + b, 0);
      const summary = `First-load JS gzip total: ${kb(total)} (budget ${(limit / 1024).toFixed(0)} KB); all chunks ${kb(all)}`;
      console.log(
        [
          "",
          ...[...firstLoad].map(line),
          ...[...chunks.keys()].filter((n) => !firstLoad.has(n)).map(line),
          summary,
        ].join("\n"),
      );
      if (total > limit) this.error(`${summary}: first load over budget by ${kb(total - limit)}`);
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [solid(), jsBudget(JS_BUDGET_BYTES)],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    // Every browser this app supports has <link rel=modulepreload>; the polyfill would be dead weight.
    modulePreload: { polyfill: false },
  },
  server: {
    // `vite dev` for UI work: the API comes from `wrangler dev`.
    proxy: { "/api": { target: "http://127.0.0.1:8787", ws: true } },
  },
});
