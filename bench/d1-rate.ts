/**
 * How many votes one local D1 database takes a second, written through Quorum's own query code (recordVote:
 * model_votes rows, the battle, and the triggers that keep pair_counts) by the bench's Worker in
 * d1-rate-worker/: one transaction per vote in sequence (one room), many such sequences at once (many rooms,
 * one D1), and several votes per transaction (what a buffering writer would do). No HTTP per vote, no room, no
 * rate limiter: this is D1's own ceiling under `wrangler dev`, the number docs/scaling.md's arithmetic needs.
 */
import { rm, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { BenchContext } from "./lib/context";
import type { Row } from "./lib/report";
import { fixed, p50, spread, thousands } from "./lib/stats";
import { d1File, migrate, startWrangler, tempDir } from "./lib/wrangler";

const TRIALS = 3;

interface Mode {
  label: string;
  votes: number;
  loops: number;
  batch: number;
}

const MODES: Mode[] = [
  { label: "sequential, 1 vote per transaction", votes: 1_000, loops: 1, batch: 1 },
  { label: "16 at once, 1 vote per transaction", votes: 2_000, loops: 16, batch: 1 },
  { label: "sequential, 10 votes per transaction", votes: 5_000, loops: 1, batch: 10 },
  { label: "sequential, 100 votes per transaction", votes: 10_000, loops: 1, batch: 100 },
];

async function config(snapshotConfig: string, dir: string): Promise<string> {
  const toml = await readFile(snapshotConfig, "utf8");
  const field = (name: string) => new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, "m").exec(toml)?.[1];
  const [id, dbName, date] = [field("database_id"), field("database_name"), field("compatibility_date")];
  if (!id || !dbName || !date)
    throw new Error("could not read database_id, database_name and compatibility_date from wrangler.toml");
  const file = path.join(dir, "d1-rate-wrangler.toml");
  await writeFile(
    file,
    `name = "quorum-bench-d1-rate"
main = "${path.join(import.meta.dirname, "d1-rate-worker/worker.ts")}"
compatibility_date = "${date}"
compatibility_flags = ["nodejs_compat"]

[[d1_databases]]
binding = "DB"
database_name = "${dbName}"
database_id = "${id}"
`,
  );
  return file;
}

/** Bytes of each table with its indexes, from SQLite's dbstat on the local D1 file (workerd's SQLite has no dbstat). */
function tableBytes(persistTo: string): Map<string, number> {
  const db = new DatabaseSync(d1File(persistTo), { readOnly: true });
  try {
    const rows = db
      .prepare(
        "SELECT coalesce(m.tbl_name, s.name) AS tbl, sum(s.pgsize) AS bytes FROM dbstat s LEFT JOIN sqlite_schema m ON m.name = s.name GROUP BY tbl",
      )
      .all() as { tbl: string; bytes: number }[];
    return new Map(rows.map((r) => [r.tbl, r.bytes]));
  } finally {
    db.close();
  }
}

async function call<T>(url: string): Promise<T> {
  const res = await fetch(url, { method: "POST" });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export async function d1RateBench(ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const snap = await ctx.snapshot();
  const dir = await tempDir("d1-rate");
  ctx.onClose(() => rm(dir, { recursive: true, force: true }));
  const persistTo = path.join(dir, "state");
  await migrate(persistTo, snap.config);
  const server = await startWrangler({ config: await config(snap.config, dir), persistTo, readyPath: "/health" });
  const results: { mode: Mode; hot: boolean; perSecond: number[]; statementsPerVote: number }[] = [];
  let stored = { votes: 0, bytes: 0, battles: 0, modelVotes: 0 };
  try {
    // What a vote adds to the database file, indexes and counters included (1,000 comparisons' rows apart).
    await call(`${server.url}/setup?comparisons=1000&hot=0`);
    const sizeBefore = (await call<{ bytes: number }>(`${server.url}/size`)).bytes;
    const tablesBefore = tableBytes(persistTo);
    await call(`${server.url}/write?votes=20000&loops=1&batch=100`);
    const tablesAfter = tableBytes(persistTo);
    const grew = (table: string) => (tablesAfter.get(table) ?? 0) - (tablesBefore.get(table) ?? 0);
    stored = {
      votes: 20_000,
      bytes: (await call<{ bytes: number }>(`${server.url}/size`)).bytes - sizeBefore,
      battles: grew("battles"),
      modelVotes: grew("model_votes"),
    };
    for (const hot of [false, true]) {
      await call(`${server.url}/setup?comparisons=200&hot=${hot ? 1 : 0}`);
      await call(`${server.url}/write?votes=200&loops=1&batch=1`); // warm-up
      for (const mode of MODES) {
        const perSecond: number[] = [];
        let statementsPerVote = 0;
        for (let t = 0; t < TRIALS; t++) {
          const wall = performance.now();
          const r = await call<{ votes: number; ms: number; statements: number }>(
            `${server.url}/write?votes=${mode.votes}&loops=${mode.loops}&batch=${mode.batch}`,
          );
          perSecond.push(r.votes / ((performance.now() - wall) / 1000));
          statementsPerVote = r.statements / r.votes;
        }
        results.push({ mode, hot, perSecond, statementsPerVote });
        console.log(
          `  ${hot ? "one hot pair" : "50 models"} · ${mode.label}: ${spread(perSecond, (x) => `${thousands(x)}/s`)}`,
        );
      }
    }
  } finally {
    await server.stop();
  }
  const seq = results.find((r) => !r.hot && r.mode.loops === 1 && r.mode.batch === 1)!;
  const best = results.filter((r) => !r.hot).reduce((a, b) => (p50(b.perSecond) > p50(a.perSecond) ? b : a));
  return {
    name,
    benchmark: "votes one local D1 database writes a second (recordVote with its triggers, no HTTP, no room)",
    baseline: "—",
    result: `${thousands(p50(seq.perSecond))} votes/s one transaction per vote; ${thousands(p50(best.perSecond))} votes/s at ${best.mode.batch} votes per transaction`,
    target: "printed (input to the README's Scaling arithmetic)",
    verdict: "printed",
    details: [
      ...results.map(
        (r) =>
          `${r.hot ? "every vote on one pair of models (one hot pair_counts row)" : "votes spread over 50 models"} · ${r.mode.label}: ${spread(r.perSecond, (x) => `${thousands(x)}/s`)} (${thousands(r.mode.votes)} votes a trial, ${fixed(r.statementsPerVote, 2)} statements a vote)`,
      ),
      `database file growth: ${thousands(stored.bytes / stored.votes)} bytes a vote (${thousands(stored.votes)} votes over 1,000 comparisons, with their indexes, battle and counters; the answers' text is in messages, written once per comparison); by SQLite's dbstat, the battles table with its indexes grew ${thousands(stored.battles / stored.votes)} bytes a vote and model_votes ${thousands(stored.modelVotes / stored.votes)}: the two the archive moves to R2`,
      "the bench's Worker (d1-rate-worker/) calls worker/db/arena-queries.ts as a ComparisonRoom does, against one local D1 (wrangler dev, miniflare's SQLite); timed from this process around one request per trial",
    ],
    problems: [],
  };
}
