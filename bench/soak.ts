/**
 * `npm run bench:soak`: a soak, not a test and not a timing. On the bench's own wrangler dev and provider
 * stub (bench/lib/context.ts), it runs 200 council runs with faults drawn per model call from a fixed seed,
 * 16 in flight, then 10,000 vote requests from 64 clients with 10% replays, counts what D1 stored, and
 * samples memory all along. One table is printed and written to bench/SOAK.md; the exit code is 1 when
 * a run got stuck, a vote was lost or stored twice, or the server answered 5xx (or not at all).
 *
 *   npm run bench:soak [-- --runs N --votes N --in-flight N --seed N --timeout-ms N]
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { BenchContext } from "./lib/context";
import { installCleanup, memoryOf, memorySampler, stopAll } from "./lib/processes";
import { machine } from "./lib/report";
import { CountingHttp, seeded } from "./lib/soak-http";
import {
  ANSWER_FAULTS,
  REVIEW_FAULTS,
  outcomeMatrix,
  planRuns,
  scriptStub,
  soakRuns,
  type RunOutcome,
  type RunsOptions,
} from "./lib/soak-runs";
import { soakVotes, VOTE_MODELS, type VotesOutcome } from "./lib/soak-votes";
import { fixed, spread, thousands } from "./lib/stats";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "200" },
    "in-flight": { type: "string", default: "16" },
    "timeout-ms": { type: "string", default: "8000" },
    votes: { type: "string", default: "10000" },
    clients: { type: "string", default: "64" },
    seed: { type: "string", default: "7009" },
  },
});
const SEED = Number(args.seed);
const RUNS: RunsOptions = {
  runs: Number(args.runs),
  inFlight: Number(args["in-flight"]),
  // short, so a hanging call costs seconds: 429 + retry-after 1 s and three 500s with backoff still fit
  timeoutMs: Number(args["timeout-ms"]),
  // generous: a run's calls are bounded by timeoutMs per phase, so a run still going after this is stuck
  deadlineMs: 300_000,
};
const VOTES = {
  requests: Number(args.votes),
  replayShare: 0.1,
  clients: Number(args.clients),
  perComparison: 20,
  seed: `soak${SEED}`,
};
const full = RUNS.runs === 200 && VOTES.requests === 10_000;

const started = performance.now();
const clock = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(5)} s`;
const log = (s: string) => console.log(`[${clock()}] ${s}`);

installCleanup();
const header = machine();
console.log(header.join("\n"));
const ctx = new BenchContext();
const problems: string[] = [];
const details: string[] = [];
let runs: RunOutcome[] = [];
let votes: VotesOutcome | null = null;
let http: CountingHttp | null = null;
let fatal: string | null = null;
let serverPeak: Record<string, number> = {};
let serverProcesses = 0;
let workerdCurve: number[] = [];
let sampledSeconds = 0;
const benchPeak = { rssKb: 0 };
let runsSeconds = 0;
let serverOutput = "";

try {
  log("starting the provider stub and wrangler dev (fresh state, limits raised)…");
  const [stub, server] = [await ctx.stub(), await ctx.quorum()];
  log(`server up at ${server.url} (pid ${server.pid})`);
  const memory = memorySampler(server.pid, 250);
  const sampledFrom = performance.now();
  const selfSample = () => {
    const m = memoryOf(process.pid);
    if (m) benchPeak.rssKb = Math.max(benchPeak.rssKb, m.rssKb, m.hwmKb);
  };
  const selfTimer = setInterval(selfSample, 250);
  http = new CountingHttp(server.url);
  const random = seeded(SEED);
  try {
    const plans = planRuns(random, RUNS);
    scriptStub(stub, plans);
    log(
      `council: ${RUNS.runs} runs (${plans.reduce((s, p) => s + p.models.length, 0)} models), ${RUNS.inFlight} in flight, timeoutMs ${RUNS.timeoutMs}…`,
    );
    const t = performance.now();
    runs = await soakRuns(http, plans, RUNS, (o, done) => {
      if (done % 20 === 0 || done === plans.length)
        log(`council: ${done} of ${plans.length} runs followed to their end`);
      if (o.status.startsWith("stuck") || o.status === "no detail" || o.status === "not created")
        log(`  run ${o.plan.index + 1} (${o.id ?? "no id"}): ${o.status} ${o.notes.join("; ")}`);
    });
    runsSeconds = (performance.now() - t) / 1000;
    log(
      `votes: ${thousands(VOTES.requests)} requests from ${VOTES.clients} clients, ${VOTES.replayShare * 100}% replays…`,
    );
    votes = await soakVotes(http, stub, server.persistTo, random, VOTES, log);
    log("votes counted in D1");
  } finally {
    clearInterval(selfTimer);
    selfSample();
    const mem = memory.stop();
    serverPeak = mem.peakMiB;
    serverProcesses = mem.processes;
    sampledSeconds = (performance.now() - sampledFrom) / 1000;
    workerdCurve = [0.1, 0.25, 0.5, 0.75, 1].map((f) => mem.rssAt(f, "workerd"));
    serverOutput = server.output();
  }
} catch (err) {
  fatal = err instanceof Error ? (err.stack ?? err.message) : String(err);
  console.error(`✖ the soak did not finish: ${fatal}`);
  problems.push(`the soak did not finish: ${fatal.split("\n")[0]}`);
} finally {
  await ctx.close();
  await stopAll();
}
const wallSeconds = (performance.now() - started) / 1000;

// ---- the count ----

const count = (pred: (o: RunOutcome) => boolean) => runs.filter(pred).length;
const created = count((o) => o.id !== null);
const done = count((o) => o.status === "done");
const partial = count((o) => o.status === "partial");
const failed = count((o) => o.status === "failed");
const cancelled = count((o) => o.status === "cancelled");
const stuck = runs.filter((o) => o.status.startsWith("stuck") || o.status === "no detail");
const notCreated = runs.filter((o) => o.id === null);
if (stuck.length)
  problems.push(
    `${stuck.length} run(s) not ended after ${RUNS.deadlineMs / 1000} s: ${stuck
      .slice(0, 5)
      .map((o) => `${o.id} (${o.status}; ${o.plan.models.map((m) => `${m.id}: ${m.answer} / ${m.review}`).join(", ")})`)
      .join(" · ")}`,
  );
if (notCreated.length)
  problems.push(`${notCreated.length} run(s) refused at creation: ${notCreated[0].notes.join("; ")}`);
if (cancelled) problems.push(`${cancelled} run(s) ended cancelled, though none was cancelled`);
const doomedNotFailed = runs.filter(
  (o) => o.plan.doomed && o.id && o.status !== "failed" && !o.status.startsWith("stuck"),
);
const notes = runs.flatMap((o) => o.notes.map((n) => `run ${o.plan.index + 1} (${o.id}): ${n}`));
const viaPoll = count((o) => o.via === "poll");

if (votes) {
  if (votes.lost.length) problems.push(`${votes.lost.length} vote(s) lost: ${votes.lost.slice(0, 5).join(" · ")}`);
  if (votes.duplicated.length)
    problems.push(`${votes.duplicated.length} vote(s) duplicated: ${votes.duplicated.slice(0, 5).join(" · ")}`);
  if (votes.mismatched.length)
    problems.push(
      `${votes.mismatched.length} replay(s) answered with another vote: ${votes.mismatched.slice(0, 5).join(" · ")}`,
    );
  if (votes.stored.modelVoteRows !== votes.expectedModelVoteRows)
    problems.push(
      `model_votes holds ${thousands(votes.stored.modelVoteRows)} rows; the accepted votes should have written ${thousands(votes.expectedModelVoteRows)}`,
    );
}
const fiveXX = http?.fiveXX ?? 0;
const noAnswer = http?.networkErrors.length ?? 0;
if (fiveXX) problems.push(`${fiveXX} 5xx response(s): ${http!.serverErrors.slice(0, 5).join(" · ")}`);
if (noAnswer)
  problems.push(
    `${noAnswer} request(s) got no answer (connection dropped or 120 s passed): ${http!.networkErrors.slice(0, 5).join(" · ")}`,
  );

const mib = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? "n/a" : `${thousands(x)} MiB`);
const wranglerMiB = serverPeak.MainThread ?? serverPeak.node;
const refusedText = votes?.refused.size
  ? [...votes.refused].map(([k, v]) => `${k} ×${thousands(v)}`).join(", ")
  : "none";
const verdict = (ok: boolean) => (ok ? "ok" : "**FAILED**");
const tableRows: [string, string, string][] = [
  [
    "council runs",
    runs.length
      ? `${thousands(runs.length)} sent · ${thousands(done + partial)} completed (${done} done, ${partial} partial) · ${failed} failed (every answer failed) · ${stuck.length} stuck${notCreated.length ? ` · ${notCreated.length} refused` : ""}`
      : "did not run",
    verdict(runs.length > 0 && !stuck.length && !notCreated.length && !cancelled),
  ],
  [
    "votes",
    votes
      ? `${thousands(votes.sent)} sent (${thousands(votes.originals)} distinct + ${thousands(votes.replaysSent)} replays) · ${thousands(votes.accepted)} accepted · ${thousands(votes.replayed)} replayed · refused: ${refusedText}`
      : "did not run",
    verdict(votes !== null && !votes.mismatched.length),
  ],
  [
    "votes stored in D1",
    votes
      ? `${thousands(votes.stored.modelVoteRows)} model_votes rows (expected ${thousands(votes.expectedModelVoteRows)}: 1 per left/right/both-bad, 2 per tie) from ${thousands(votes.stored.modelVoteIds)} votes · ${thousands(votes.stored.battles)} battles · ${thousands(votes.stored.keys)} idempotency keys · ${votes.lost.length} lost · ${votes.duplicated.length} duplicated`
      : "not counted",
    verdict(
      votes !== null &&
        !votes.lost.length &&
        !votes.duplicated.length &&
        votes.stored.modelVoteRows === votes.expectedModelVoteRows,
    ),
  ],
  [
    "5xx responses",
    `${thousands(fiveXX)} of ${thousands(http?.requests ?? 0)} requests${noAnswer ? ` · ${noAnswer} unanswered` : ""}`,
    verdict(!fiveXX && !noAnswer),
  ],
  [
    "peak memory (RSS high-water mark)",
    `workerd ${mib(serverPeak.workerd)} · wrangler ${mib(wranglerMiB)} · bench process (client + stub) ${mib(benchPeak.rssKb / 1024)}`,
    "printed",
  ],
  [
    "wall time",
    `${fixed(wallSeconds / 60, 1)} min in all (council ${fixed(runsSeconds, 0)} s, votes ${votes ? fixed(votes.seconds, 0) : "–"} s at ${votes ? thousands(votes.perSecond) : "–"} requests/s)`,
    "printed",
  ],
];
const table = [
  "| what | figures | check |",
  "| --- | --- | --- |",
  ...tableRows.map((r) => `| ${r.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`),
].join("\n");

const matrix = (kind: "answer" | "review") =>
  [...outcomeMatrix(runs, kind)].map(
    ([fault, m]) =>
      `${kind} fault "${fault}": ${[...m]
        .sort((a, b) => b[1] - a[1])
        .map(([s, n]) => `${s} ×${n}`)
        .join(", ")}`,
  );
details.push(
  `seed ${SEED}; ${RUNS.runs} runs of 4–6 models (openai, anthropic and google protocols, all served by the stub), concurrency 3…models, settings.timeoutMs ${RUNS.timeoutMs}, ${RUNS.inFlight} runs in flight, each followed over its WebSocket (?since=0) and its detail read after; deadline ${RUNS.deadlineMs / 1000} s per run`,
  `faults drawn per model call: answers ${Object.entries(ANSWER_FAULTS)
    .map(([k, v]) => `${k} (${v.weight})`)
    .join(", ")}; reviews ${Object.entries(REVIEW_FAULTS)
    .map(([k, v]) => `${k} (${v.weight})`)
    .join(
      ", ",
    )}; plus ${runs.filter((o) => o.plan.doomed).length} runs whose every answer draws a fatal fault (500 every attempt, hang, stream dropped every attempt), which should end failed`,
  ...(runs.length
    ? [
        `run wall time: ${spread(
          runs.filter((o) => o.id).map((o) => o.seconds),
          (x) => `${fixed(x, 1)} s`,
        )}; ends seen on the WebSocket ${created - viaPoll}, by polling ${viaPoll}`,
      ]
    : []),
  ...matrix("answer"),
  ...matrix("review"),
  ...(doomedNotFailed.length
    ? [
        `runs with every answer fatal that did not end failed: ${doomedNotFailed.map((o) => `${o.id} ${o.status}`).join(", ")}`,
      ]
    : []),
  ...(votes
    ? [
        `votes: ${votes.comparisons} comparisons between ${VOTE_MODELS.join(", ")} made ready first${votes.comparisonsReplaced.length ? ` (${votes.comparisonsReplaced.length} replaced: ${votes.comparisonsReplaced.slice(0, 3).join("; ")})` : ""}; up to ${votes.mostPerComparison} distinct votes each from ${VOTES.clients} clients (own X-Client-Id each), at most ${votes.mostPerClientPerComparison} by one client on one comparison: the plan stays within the default caps (5 per client per comparison, 20 per comparison) though the bench context raises both to 1,000,000; every vote carries its own Idempotency-Key; ${thousands(votes.replaysSent)} replays with the same key, half sent at the same moment as the original, half later from the same client`,
        `accepted = votes answered 201 without Idempotent-Replayed (distinct vote ids); stored counted vote by vote in D1 (wrangler d1 execute --local on the bench's state folder): model_votes rows per vote id, battles (source human) per vote id, idempotency_keys with the soak's key prefix`,
      ]
    : []),
  `HTTP statuses by route: ${http ? http.summary().join(" · ") : "none"}`,
  ...(http?.socketTrouble.length
    ? [
        `WebSocket trouble (${http.socketTrouble.length}; those runs were polled): ${http.socketTrouble.slice(0, 5).join(" · ")}`,
      ]
    : []),
  ...(notes.length ? [`notes on ${notes.length} run(s): ${notes.slice(0, 8).join(" · ")}`] : []),
  `memory sampled every 250 ms over the server's process tree (${serverProcesses} processes; VmHWM, the kernel's own high-water mark, so spikes between samples count) and this process: ${Object.entries(
    serverPeak,
  )
    .map(([k, v]) => `${k} ${mib(v)}`)
    .join(
      ", ",
    )}; workerd RSS at 10/25/50/75/100% of the soak's time: ${workerdCurve.map((x) => thousands(x)).join(" / ")} MiB (from the server up to the end of the D1 count, ${fixed(sampledSeconds, 0)} s; the council phase is its first ${fixed(runsSeconds, 0)} s)`,
);
const serverComplaints = serverOutput.split("\n").filter((l) => /error|✘|uncaught|exception/i.test(l));
if (serverComplaints.length)
  details.push(
    `wrangler printed ${serverComplaints.length} error line(s) (log level warn); the last: ${serverComplaints.slice(-3).join(" / ").slice(0, 600)}`,
  );

console.log(`\n${table}\n`);
for (const d of details) console.log(`  ${d}`);
if (problems.length)
  console.error(`\n!!! ${problems.length} check(s) failed:\n${problems.map((p) => `!!!   ${p}`).join("\n")}`);

const file = path.join(import.meta.dirname, "SOAK.md");
const md = [
  "# Soak",
  "",
  "Written by `npm run bench:soak` (bench/soak.ts): council runs with faults and a vote storm with replays against one",
  "`wrangler dev` and the provider stub, counting what ends, what is stored and what the server refused. Not a timing:",
  "the wall times are for reading only.",
  "",
  ...header.map((h) => `- ${h}`),
  `- arguments: ${process.argv.slice(2).join(" ") || "(defaults)"}${full ? "" : " — a reduced run, not the full soak"}`,
  "",
  table,
  "",
  ...(problems.length ? ["## Failed checks", "", ...problems.map((p) => `- **${p}**`), ""] : []),
  "## Details",
  "",
  ...details.map((d) => `- ${d}`),
  ...(fatal ? ["", "```", ...fatal.split("\n").slice(0, 30), "```"] : []),
  "",
].join("\n");
await writeFile(file, md);
console.log(`\nWritten to ${path.relative(process.cwd(), file)} (${fixed(wallSeconds / 60, 1)} min).`);
process.exit(problems.length ? 1 : 0);
