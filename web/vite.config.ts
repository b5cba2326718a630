import { gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import solid from "vite-plugin-solid";

/** The page's JavaScript budget, gzip, first load (DESIGN.md "Performance"). */
const JS_BUDGET_BYTES = 60 * 1024;

/** Prints the gzip size of every JS chunk and their total, and fails the build when the total is over budget. */
function jsBudget(limit: number): Plugin {
  return {
    name: "quorum-js-budget",
    apply: "build",
    enforce: "post",
    // After every other plugin has had its say, so the sizes are those of the files as written.
    writeBundle(_options, bundle) {
      let total = 0;
      const lines: string[] = [];
      for (const file of Object.values(bundle)) {
        if (file.type !== "chunk") continue;
        const gz = gzipSync(file.code).length;
        total += gz;
        lines.push(`  ${file.fileName}  ${(gz / 1024).toFixed(1)} KB gzip`);
      }
      const summary = `JS gzip total: ${(total / 1024).toFixed(1)} KB (budget ${(limit / 1024).toFixed(0)} KB)`;
      console.log(["", ...lines, summary].join("\n"));
      if (total > limit) this.error(`${summary}: over budget by ${((total - limit) / 1024).toFixed(1)} KB`);
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
