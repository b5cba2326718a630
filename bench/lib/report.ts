/** One row per benchmark, the table they make, and the machine and commit they ran on. */
import { execFileSync } from "node:child_process";
import os from "node:os";
import { ROOT, wranglerEnv } from "./wrangler";

export type Verdict = "met" | "MISSED" | "printed" | "FAILED";

export interface Row {
  /** the name `npm run bench -- NAME` takes */
  name: string;
  benchmark: string;
  baseline: string;
  result: string;
  target: string;
  verdict: Verdict;
  /** lines for the details section: per-trial figures, breakdowns, sanity checks */
  details: string[];
  /** sanity checks that failed (votes lost, wins that differ…), printed loudly */
  problems: string[];
  seconds: number;
}

export function machine(): string[] {
  const cpus = os.cpus();
  const git = (...args: string[]) => {
    try {
      return execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
    } catch {
      return "";
    }
  };
  const dirty = git("status", "--porcelain").split("\n").filter(Boolean).length;
  return [
    `date: ${new Date().toISOString()}`,
    `commit: ${git("rev-parse", "--short=12", "HEAD") || "unknown"}${dirty ? ` plus ${dirty} uncommitted change(s) in the working tree` : ""}`,
    `machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown"}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${os.type()} ${os.release()}, load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
    `node: ${process.version} (the pinned one: the same V8 major as workerd)`,
    "servers: the working tree as it was when the run started, bundled once by `wrangler deploy --dry-run` and served by `wrangler dev` from that bundle (bench/lib/snapshot.ts), so edits made during the run change nothing; rate limits raised through QUORUM_RATE_*; " +
      (wranglerEnv().X_LOCAL_OBSERVABILITY === "true"
        ? "wrangler's local trace collector on (X_LOCAL_OBSERVABILITY=true)"
        : "wrangler's local trace collector off, as `npm start` runs it"),
  ];
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function table(rows: Row[]): string {
  const head = "| benchmark | result | baseline (same run) | target | verdict |\n| --- | --- | --- | --- | --- |";
  const lines = rows.map(
    (r) =>
      `| ${cell(r.benchmark)} | ${cell(r.result)} | ${cell(r.baseline)} | ${cell(r.target)} | ${r.verdict === "MISSED" || r.verdict === "FAILED" ? `**${r.verdict}**` : r.verdict} |`,
  );
  return [head, ...lines].join("\n");
}

export function markdown(rows: Row[], header: string[], totalSeconds: number): string {
  const details = rows.flatMap((r) => [
    `### ${r.benchmark} (\`npm run bench -- ${r.name}\`, ${r.seconds.toFixed(0)} s)`,
    "",
    ...(r.problems.length ? [`**Sanity check failed:**`, ...r.problems.map((p) => `- **${p}**`), ""] : []),
    ...r.details.map((d) => (d.startsWith("|") || d.startsWith("```") || d === "" ? d : `- ${d}`)),
    "",
  ]);
  return [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (bench/run.ts). Every figure is a ratio to a baseline measured in the same run on the",
    "same machine, over repeated trials; absolute times are printed for reading, never for comparing across runs.",
    "",
    ...header.map((h) => `- ${h}`),
    `- whole run: ${(totalSeconds / 60).toFixed(1)} min`,
    "",
    table(rows),
    "",
    "## Details",
    "",
    ...details,
  ].join("\n");
}
