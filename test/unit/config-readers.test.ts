/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";

/** Every Worker source file's text, by its path relative to this test (Vite reads them at build time). */
const sources = import.meta.glob<string>(["../../worker/**/*.ts", "!../../worker/**/*.d.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
});

/** The one module that reads the settings (worker/env.d.ts, left out above, declares them). */
const CONFIG = "../../worker/shared/config.ts";

/**
 * A setting read or declared: `env.QUORUM_X`, `vars?.APP_TOKEN`, `env["QUORUM_X"]`, or a property `QUORUM_X?:`.
 * A name in prose or in a message (`(QUORUM_MAX_RUN_USD)`, `set QUORUM_PRICES=…`) is none of these.
 */
const READ =
  /(?:\?\.|\.|\[\s*["'`])(QUORUM_[A-Z0-9_]+|APP_TOKEN)\b|\b(QUORUM_[A-Z0-9_]+|APP_TOKEN)\??\s*:\s*(?:string|number|boolean|unknown|["'`{])/g;

describe("settings are read in one place", () => {
  it("finds the Worker's sources and the config module among them", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(sources[CONFIG]).toMatch(/QUORUM_RATE_RUNS/);
  });

  it("no Worker file but worker/shared/config.ts reads or declares a QUORUM_* variable or APP_TOKEN", () => {
    const readers = Object.entries(sources)
      .filter(([path]) => path !== CONFIG)
      .flatMap(([path, text]) =>
        [...text.matchAll(READ)].map((m) => `${path.slice("../../".length)}: ${m[1] ?? m[2]}`),
      );
    expect(readers).toEqual([]);
  });
});
