// `npm run eval -- --set FILE --contestants A,B --judges J [...]`: runs an evaluation on a running Quorum, shows its
// progress, prints its leaderboard and exits non-zero when a stated threshold fails — a step a CI job can gate on.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, extname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";

const USAGE = `Usage: npm run eval -- --set FILE --contestants A,B[,…] --judges J[,…] [options]

Runs an evaluation: every contestant answers every prompt of the set. Pairwise (the default): each judge compares
each contestant's answer with the baseline's in both orders. Council (--method council): each prompt is a council
round, and each reviewer (the judges, or without --judges the contestants, each leaving its own answer out) ranks
all the answers blind. Goal (--method goal): each prompt's goal is a goal battle for every pair of contestants,
won by reaching it first (or by the one --judges model). Prints the leaderboard and exits 1 when a threshold fails, 2 on a usage or server error.

Contestants and judges are model ids (demo:concise, openai:gpt-4.1) or presets: preset:SLUG@VERSION, or
preset:SLUG for its latest version.

Options:
  --set FILE            prompts: JSON Lines or CSV (prompt, optional id, category, reference, turns; goal,
                        persona and marker for --method goal)
  --set-id ID           an existing prompt set instead of --set
  --name NAME           the evaluation's name (default: the set's file name and the date)
  --contestants LIST    comma-separated contestants
  --baseline ID         the contestant everyone is compared with (default: every pair, up to 6 contestants)
  --judges LIST         comma-separated judge models (council: the reviewers; optional)
  --method M            pairwise (default), council or goal
  --user-model ID       goal: a model plays the user (default: a script, the prompt then --script's lines)
  --script "A|B"        goal: the user's lines after each item's prompt, separated by |
  --max-turns N         goal: the turns a battle may take (default 25)
  --turn-timeout-ms N   goal: how long a turn may take (default 120000)
  --repeats N           answers per contestant and prompt (default 1)
  --presets FILE        a JSON array of presets to create or update first:
                        [{ "name", "slug"?, "modelId", "systemPrompt"?, "temperature"?, "maxTokens"? }]
  --min-win-rate C=P    fail unless C's win rate is at least P% at 95% confidence (the interval's lower bound);
                        repeatable; C may be preset:SLUG to match any version
  --max-cost-usd C=D    fail if C's answers cost more than D dollars; repeatable
  --json FILE           also write the whole report as JSON
  --url URL             the Quorum server (default http://127.0.0.1:8787)
  --token T             sent as "Authorization: Bearer T" (default: env QUORUM_TOKEN)
  --help                show this text`;

const POLL_MS = Number(process.env.QUORUM_EVAL_POLL_MS ?? 1000);
const FINAL = new Set(["completed", "cancelled", "failed"]);

class UsageError extends Error {}

interface ReportRow {
  contestant: string;
  displayName: string;
  rank: number | null;
  bt: number | null;
  ciLower: number | null;
  ciUpper: number | null;
  winRate: number | null;
  winRateLower: number | null;
  winRateUpper: number | null;
  lcWinRate: number | null;
  costUsd: number | null;
  failures: number;
  games: number;
}

interface Report {
  status: string;
  baseline: string | null;
  rows: ReportRow[];
  separation: { best: string | null; tiedWithBest: string[]; moreItemsNeeded: number | null };
}

interface Threshold {
  contestant: string;
  value: number;
}

function options() {
  const { values } = parseArgs({
    options: {
      set: { type: "string" },
      "set-id": { type: "string" },
      name: { type: "string" },
      contestants: { type: "string" },
      baseline: { type: "string" },
      judges: { type: "string" },
      method: { type: "string" },
      "user-model": { type: "string" },
      script: { type: "string" },
      "max-turns": { type: "string" },
      "turn-timeout-ms": { type: "string" },
      repeats: { type: "string" },
      presets: { type: "string" },
      "min-win-rate": { type: "string", multiple: true },
      "max-cost-usd": { type: "string", multiple: true },
      json: { type: "string" },
      url: { type: "string" },
      token: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const list = (value: string | undefined, flag: string) => {
    const items = (value ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (items.length === 0) throw new UsageError(`${flag} is required`);
    return items;
  };
  if (!values.set === !values["set-id"]) throw new UsageError("give exactly one of --set FILE and --set-id ID");
  const method = values.method ?? "pairwise";
  if (method !== "pairwise" && method !== "council" && method !== "goal")
    throw new UsageError(`--method is pairwise, council or goal; got "${method}"`);
  const repeats = values.repeats === undefined ? 1 : Number(values.repeats);
  if (!Number.isInteger(repeats) || repeats < 1) throw new UsageError(`--repeats must be a whole number ≥ 1`);
  const thresholds = (raw: string[] | undefined, flag: string, scale: number): Threshold[] =>
    (raw ?? []).map((t) => {
      const at = t.lastIndexOf("=");
      const value = Number(t.slice(at + 1));
      if (at <= 0 || !Number.isFinite(value)) throw new UsageError(`${flag} takes CONTESTANT=NUMBER; got "${t}"`);
      return { contestant: t.slice(0, at), value: value / scale };
    });
  const whole = (raw: string | undefined, flag: string) => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number ≥ 1`);
    return n;
  };
  const goalFlags = ["user-model", "script", "max-turns", "turn-timeout-ms"] as const;
  const given = goalFlags.filter((f) => values[f] !== undefined);
  if (method !== "goal" && given.length) throw new UsageError(`--${given[0]} is for --method goal`);
  if (values["user-model"] !== undefined && values.script !== undefined)
    throw new UsageError("give --user-model or --script, not both");
  const goal =
    method === "goal"
      ? {
          user: values["user-model"]
            ? { mode: "model" as const, modelId: values["user-model"] }
            : {
                mode: "script" as const,
                script: (values.script ?? "")
                  .split("|")
                  .map((s) => s.trim())
                  .filter(Boolean),
              },
          maxTurns: whole(values["max-turns"], "--max-turns"),
          turnTimeoutMs: whole(values["turn-timeout-ms"], "--turn-timeout-ms"),
        }
      : null;
  return {
    set: values.set ?? null,
    setId: values["set-id"] ?? null,
    name: values.name ?? null,
    contestants: list(values.contestants, "--contestants"),
    baseline: values.baseline ?? null,
    method,
    // A council's reviewers default to the contestants themselves; a goal evaluation's judge is optional.
    judges:
      (method === "council" || method === "goal") && values.judges === undefined ? [] : list(values.judges, "--judges"),
    goal,
    repeats,
    presets: values.presets ?? null,
    minWinRate: thresholds(values["min-win-rate"], "--min-win-rate", 100),
    maxCost: thresholds(values["max-cost-usd"], "--max-cost-usd", 1),
    json: values.json ?? null,
    url: (values.url ?? "http://127.0.0.1:8787").replace(/\/$/, ""),
    token: values.token ?? process.env.QUORUM_TOKEN ?? null,
  };
}

type Options = ReturnType<typeof options>;

class Server {
  constructor(
    private readonly url: string,
    private readonly token: string | null,
  ) {}

  async call<T>(method: string, path: string, body?: unknown, contentType = "application/json"): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = contentType;
    let res: Response;
    try {
      res = await fetch(`${this.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
    } catch {
      throw new Error(`Can't reach Quorum at ${this.url}: start it with \`npm start\`, or pass --url.`);
    }
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
      } catch {}
      throw new ServerError(res.status, `${method} ${path} answered ${res.status}: ${message}`);
    }
    return JSON.parse(text) as T;
  }
}

class ServerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface PresetInput {
  name: string;
  slug?: string;
  modelId: string;
  systemPrompt?: string;
  temperature?: number;
  maxTokens?: number;
}

/** Creates each preset, or updates it (the server keeps a used version and writes the next). */
async function syncPresets(server: Server, file: string): Promise<void> {
  const presets = JSON.parse(readFileSync(file, "utf8")) as PresetInput[];
  if (!Array.isArray(presets)) throw new UsageError(`${file} must hold a JSON array of presets`);
  for (const preset of presets) {
    try {
      const made = await server.call<{ id: string }>("POST", "/api/presets", preset);
      console.error(`Preset ${made.id} created.`);
    } catch (err) {
      if (!(err instanceof ServerError && err.status === 409)) throw err;
      const slug = preset.slug ?? slugOf(preset.name);
      const { slug: _, ...changes } = preset;
      const edited = await server.call<{ id: string }>("PATCH", `/api/presets/${slug}`, changes);
      console.error(`Preset ${edited.id} is current.`);
    }
  }
}

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 48);

/** `preset:SLUG` without a version means its latest. */
async function pinVersions(server: Server, ids: string[]): Promise<string[]> {
  return Promise.all(
    ids.map(async (id) => {
      if (!id.startsWith("preset:") || id.includes("@")) return id;
      const preset = await server.call<{ id: string }>("GET", `/api/presets/${id.slice("preset:".length)}`);
      return preset.id;
    }),
  );
}

async function createSet(server: Server, file: string): Promise<string> {
  const format = extname(file).toLowerCase() === ".csv" ? "csv" : "jsonl";
  const name = basename(file);
  const made = await server.call<{ id: string; items: number }>(
    "POST",
    `/api/prompt-sets/upload?name=${encodeURIComponent(name)}&format=${format}`,
    readFileSync(file, "utf8"),
    format === "csv" ? "text/csv" : "application/x-ndjson",
  );
  console.error(`Prompt set ${made.id}: ${made.items} prompts from ${file}.`);
  return made.id;
}

/** What GET /api/evaluations/:id says of the calls (worker/shared/evaluation.ts). */
interface Calls {
  done: number;
  failed: number;
  total: number;
}

interface Progress {
  status: string;
  method: string;
  progress: { answers: Calls; judgments: Calls; spentUsd: number; etaMs: number | null };
}

function bar(done: number, total: number): string {
  const width = 30;
  const filled = total ? Math.round((done / total) * width) : 0;
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${total ? Math.floor((done / total) * 100) : 0}%`;
}

async function follow(server: Server, id: string): Promise<string> {
  let lastShown = -1;
  for (;;) {
    const state = await server.call<Progress>("GET", `/api/evaluations/${id}`);
    const { answers, judgments, spentUsd, etaMs } = state.progress;
    const done = answers.done + judgments.done;
    const total = answers.total + judgments.total;
    const failed = answers.failed + judgments.failed;
    const eta = etaMs === null ? "" : `, ~${Math.ceil(etaMs / 1000)} s left`;
    const judged = state.method === "council" ? "reviews" : state.method === "goal" ? "battles" : "judgments";
    const line = `${bar(done, total)} answers ${answers.done}/${answers.total}, ${judged} ${judgments.done}/${judgments.total}${failed ? `, ${failed} failed` : ""}, $${spentUsd.toFixed(4)}${eta}`;
    if (process.stderr.isTTY) process.stderr.write(`\r${line}`);
    else if (Math.floor((done / Math.max(total, 1)) * 10) !== lastShown) {
      lastShown = Math.floor((done / Math.max(total, 1)) * 10);
      console.error(line);
    }
    if (FINAL.has(state.status)) {
      if (process.stderr.isTTY) process.stderr.write("\n");
      return state.status;
    }
    await sleep(POLL_MS);
  }
}

const pct = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null) => (x === null ? "—" : x.toFixed(0));

export function leaderboardTable(report: Report): string {
  const rows = [...report.rows].sort((a, b) => (b.bt ?? -Infinity) - (a.bt ?? -Infinity));
  const table = [
    ["Rank", "Contestant", "Rating", "95% CI", "Win rate", "95% CI", "LC win rate", "Cost", "Failures"],
    ...rows.map((r) => [
      String(r.rank ?? "—"),
      r.contestant === report.baseline ? `${r.displayName} (baseline)` : r.displayName,
      num(r.bt),
      `${num(r.ciLower)}–${num(r.ciUpper)}`,
      pct(r.winRate),
      `${pct(r.winRateLower)}–${pct(r.winRateUpper)}`,
      pct(r.lcWinRate),
      r.costUsd === null ? "unpriced" : `$${r.costUsd.toFixed(4)}`,
      String(r.failures),
    ]),
  ];
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
  return table
    .map((row) =>
      row
        .map((cell, c) => cell.padEnd(widths[c]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** Who is best at 95%, or who can't be told apart, named as in the table. */
export function separationLine(report: Report): string {
  const nameOf = (id: string) => report.rows.find((r) => r.contestant === id)?.displayName ?? id;
  const { best, tiedWithBest, moreItemsNeeded } = report.separation;
  if (best) return `\n${nameOf(best)} is best at 95% confidence.`;
  if (!tiedWithBest.length) return "";
  const more = moreItemsNeeded ? ` (about ${moreItemsNeeded} more items would tell)` : "";
  return `\nNot separable with these items: ${tiedWithBest.map(nameOf).join(", ")}${more}.`;
}

const matches = (row: ReportRow, wanted: string) =>
  row.contestant === wanted || (!wanted.includes("@") && row.contestant.startsWith(`${wanted}@`));

/** Each failed threshold, said plainly; an unknown contestant is a failure too, so a typo can't pass a gate. */
export function failedThresholds(report: Report, minWinRate: Threshold[], maxCost: Threshold[]): string[] {
  const failed: string[] = [];
  for (const t of minWinRate) {
    const row = report.rows.find((r) => matches(r, t.contestant));
    if (!row) failed.push(`--min-win-rate: no contestant ${t.contestant} in this evaluation`);
    else if (row.winRateLower === null || row.winRateLower < t.value)
      failed.push(
        `${row.displayName}: win rate ${pct(row.winRate)}, 95% lower bound ${pct(row.winRateLower)} < ${pct(t.value)}`,
      );
  }
  for (const t of maxCost) {
    const row = report.rows.find((r) => matches(r, t.contestant));
    if (!row) failed.push(`--max-cost-usd: no contestant ${t.contestant} in this evaluation`);
    else if (row.costUsd === null || row.costUsd > t.value)
      failed.push(
        `${row.displayName}: cost ${row.costUsd === null ? "unknown" : `$${row.costUsd.toFixed(4)}`} > $${t.value}`,
      );
  }
  return failed;
}

async function main(opts: Options): Promise<number> {
  const server = new Server(opts.url, opts.token);
  if (opts.presets) await syncPresets(server, opts.presets);
  const promptSetId = opts.setId ?? (await createSet(server, opts.set ?? ""));
  const contestants = await pinVersions(server, opts.contestants);
  const [baseline] = opts.baseline ? await pinVersions(server, [opts.baseline]) : [null];
  const judges = await pinVersions(server, opts.judges);
  const name = opts.name ?? `${opts.set ? basename(opts.set) : promptSetId} ${new Date().toISOString().slice(0, 16)}`;
  const started = await server.call<{ id: string; estimate: { usd: number } }>("POST", "/api/evaluations", {
    name,
    promptSetId,
    contestants,
    method: opts.method,
    judges,
    ...(baseline ? { baseline } : {}),
    repeats: opts.repeats,
    ...(opts.goal ? { settings: { goal: opts.goal } } : {}),
  });
  console.error(`Evaluation ${started.id} started.`);
  const status = await follow(server, started.id);
  const report = await server.call<Report>("GET", `/api/evaluations/${started.id}/report`);
  if (opts.json) writeFileSync(opts.json, JSON.stringify(report, null, 2));
  console.log(leaderboardTable(report));
  const separation = separationLine(report);
  if (separation) console.log(separation);
  if (status !== "completed") {
    console.error(`The evaluation ended ${status}: its report covers what finished.`);
    return 2;
  }
  const failed = failedThresholds(report, opts.minWinRate, opts.maxCost);
  for (const f of failed) console.error(`FAILED ${f}`);
  if (failed.length === 0 && opts.minWinRate.length + opts.maxCost.length > 0) console.error("All thresholds passed.");
  return failed.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  let opts: Options;
  try {
    opts = options();
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    process.exit(2);
  }
  main(opts).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(
        err instanceof UsageError ? `${err.message}\n\n${USAGE}` : err instanceof Error ? err.message : err,
      );
      process.exit(2);
    },
  );
}
