/**
 * Builds the page with the project's own vite config (less its budget check, so an over-budget build still
 * reports its sizes) into a temporary folder, and returns every JS chunk with its gzip size and imports.
 */
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build, loadConfigFromFile, type Plugin, type PluginOption } from "vite";
import { ROOT } from "./wrangler";

export interface Chunk {
  fileName: string;
  gzip: number;
  imports: string[];
  isEntry: boolean;
  isDynamicEntry: boolean;
  /** the module a lazy route's chunk stands for, relative to web/src */
  facade: string | null;
}

export interface WebBuild {
  seconds: number;
  chunks: Map<string, Chunk>;
}

const flat = (plugins: PluginOption[] | undefined): PluginOption[] =>
  (plugins ?? []).flatMap((p) => (Array.isArray(p) ? flat(p) : [p]));

export async function buildWeb(outDir: string): Promise<WebBuild> {
  const configFile = path.join(ROOT, "web/vite.config.ts");
  const loaded = await loadConfigFromFile({ command: "build", mode: "production" }, configFile, ROOT, "silent");
  if (!loaded) throw new Error(`could not load ${configFile}`);
  const chunks = new Map<string, Chunk>();
  const capture: Plugin = {
    name: "quorum-bench-capture",
    apply: "build",
    enforce: "post",
    writeBundle(_options, bundle) {
      for (const f of Object.values(bundle)) {
        if (f.type !== "chunk") continue;
        chunks.set(f.fileName, {
          fileName: f.fileName,
          gzip: gzipSync(f.code).length,
          imports: f.imports,
          isEntry: f.isEntry,
          isDynamicEntry: f.isDynamicEntry,
          facade: f.facadeModuleId ? path.relative(path.join(ROOT, "web/src"), f.facadeModuleId) : null,
        });
      }
    },
  };
  const plugins = flat(loaded.config.plugins).filter(
    (p) => !(p && typeof p === "object" && "name" in p && p.name === "quorum-js-budget"),
  );
  const t = performance.now();
  await build({
    ...loaded.config,
    configFile: false,
    logLevel: "warn",
    plugins: [...plugins, capture],
    build: { ...loaded.config.build, outDir, emptyOutDir: true },
  });
  return { seconds: (performance.now() - t) / 1000, chunks };
}
