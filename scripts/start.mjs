// `npm start`: builds the page, applies the local D1 migrations and serves Quorum under `wrangler dev`, saying
// only what a person starting it needs: what was applied, what went wrong (with the tool's own output), and, as
// the last line once the server answers, the address to open. The build's and wrangler's chatter is kept back
// unless a step fails, when all of it is printed.
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";

const host = (process.env.HOST || "127.0.0.1").trim();
const port = (process.env.PORT || "8787").trim();
const persist = process.env.PERSIST_TO ? ["--persist-to", process.env.PERSIST_TO] : [];
const env = {
  ...process.env,
  // This script reads wrangler's "Ready on" and migration lines, and holds its chatter back itself: a quieter
  // WRANGLER_LOG would hide them (debug, louder, still passes).
  WRANGLER_LOG: process.env.WRANGLER_LOG === "debug" ? "debug" : "log",
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  X_LOCAL_OBSERVABILITY: process.env.X_LOCAL_OBSERVABILITY ?? "false",
};

/** Runs a step with its output captured; on failure prints that output and what was being done, then exits. */
function step(what, command, args) {
  const result = spawnSync(command, args, { env, encoding: "utf8" });
  if (result.status === 0) return result.stdout + result.stderr;
  process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
  console.error(`\nnpm start stopped: ${what} failed (its output is above).`);
  process.exit(result.status ?? 1);
}

const started = Date.now();
step("building the web app (vite build)", "vite", ["build", "--config", "web/vite.config.ts"]);
console.log(`Built the web app in ${((Date.now() - started) / 1000).toFixed(1)} s.`);

const migrated = step("applying the D1 migrations to the local database", "wrangler", [
  "d1",
  "migrations",
  "apply",
  "DB",
  "--local",
  ...persist,
]);
// Without a terminal wrangler prints its table again after each migration: the names are counted once.
const applied = [...new Set([...migrated.matchAll(/│\s*(\d{4}_[\w-]+)\.sql\s*│\s*✅/g)].map((m) => m[1]))];
if (applied.length) console.log(`Applied ${applied.length} migration(s) to the local database: ${applied.join(", ")}.`);

const listen = spawnSync(process.execPath, ["scripts/check-listen.mjs"], { env, stdio: "inherit" });
if (listen.status !== 0) process.exit(listen.status ?? 1);

const server = spawn(
  "wrangler",
  [
    "dev",
    "--ip",
    host,
    "--port",
    port,
    "--var",
    `QUORUM_LISTEN:${host}`,
    "--show-interactive-dev-session=false",
    ...persist,
    // `npm start -- --inspector-port 9300` and the like go to wrangler dev as they are
    ...process.argv.slice(2),
  ],
  { env, stdio: ["inherit", "pipe", "pipe"] },
);

// Before it is ready, wrangler's banner, bindings table and notes are held back (errors excepted): printed only
// if it never gets there. Afterwards its lines (requests, the Worker's logs) pass straight through.
const held = [];
let ready = false;
const shown = host === "127.0.0.1" || host === "0.0.0.0" || host === "::" ? "localhost" : host;
for (const stream of [server.stdout, server.stderr]) {
  const out = stream === server.stdout ? process.stdout : process.stderr;
  createInterface({ input: stream }).on("line", (line) => {
    if (ready || /\bERROR\b/.test(line)) return void out.write(`${line}\n`);
    held.push(line);
    if (/Ready on https?:\/\//.test(line)) {
      ready = true;
      console.log(
        `Quorum is ready: open http://${shown.includes(":") ? `[${shown}]` : shown}:${port} (Ctrl+C stops it)`,
      );
    }
  });
}

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => {
  if (!ready) {
    process.stderr.write(`${held.join("\n")}\n`);
    console.error("\nnpm start stopped: wrangler dev exited before it was ready (its output is above).");
  }
  process.exit(code ?? (signal ? 1 : 0));
});
