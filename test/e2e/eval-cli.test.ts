/**
 * `npm run eval` in a shell against a running Quorum on the demo models: it creates the presets and the prompt set,
 * runs the evaluation, prints the leaderboard, and its exit code follows the thresholds (0 when they hold, 1 when
 * one fails at 95%, 2 on a usage error).
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/wrangler-dev";
import { startWranglerDev, type WranglerDev } from "../helpers/e2e-wrangler";

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function evalCli(args: string[], timeoutMs = 120_000): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/eval.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, QUORUM_EVAL_POLL_MS: "200" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      reject(new Error(`npm run eval did not finish in ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("npm run eval", () => {
  let server: WranglerDev;
  let dir: string;

  beforeAll(async () => {
    server = await startWranglerDev({});
    dir = await mkdtemp(path.join(tmpdir(), "quorum-eval-cli-"));
    await writeFile(
      path.join(dir, "prompts.jsonl"),
      `${["Which vector database for 50M embeddings?", "How do I deduplicate rows in Python?", "Explain CAP."]
        .map((prompt, k) => JSON.stringify({ id: `q${k + 1}`, prompt }))
        .join("\n")}\n`,
    );
    await writeFile(
      path.join(dir, "presets.json"),
      JSON.stringify([
        { name: "CLI terse", modelId: "demo:thorough", systemPrompt: "Be terse: one sentence." },
        { name: "CLI steps", modelId: "demo:thorough", systemPrompt: "Answer in numbered steps with caveats." },
      ]),
    );
  });

  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const base = () => [
    "--url",
    server.url,
    "--set",
    path.join(dir, "prompts.jsonl"),
    "--presets",
    path.join(dir, "presets.json"),
    "--contestants",
    "preset:cli-terse,preset:cli-steps",
    "--baseline",
    "preset:cli-steps",
    "--judges",
    "demo:skeptic",
  ];

  it("prints the leaderboard and exits 1 when a contestant's win rate can't be shown above the threshold", async () => {
    const out = await evalCli([
      ...base(),
      "--min-win-rate",
      "preset:cli-terse=90",
      "--json",
      path.join(dir, "report.json"),
    ]);
    expect(out.code, out.stderr).toBe(1);
    expect(out.stdout).toMatch(/^Rank\s+Contestant\s+Rating\s+95% CI\s+Win rate/m);
    expect(out.stdout).toMatch(/CLI steps v1 \(baseline\)/);
    expect(out.stdout).not.toContain("preset:");
    expect(out.stderr).toMatch(/FAILED CLI terse v1: win rate .*, 95% lower bound .* < 90\.0%/);
    const report = JSON.parse(await readFile(path.join(dir, "report.json"), "utf8")) as {
      status: string;
      rows: { contestant: string; games: number }[];
    };
    expect(report.status).toBe("completed");
    // 3 prompts × 1 judge × 2 orders, each game 1 or 3.
    const terse = report.rows.find((r) => r.contestant === "preset:cli-terse@1");
    expect(terse?.games).toBeGreaterThanOrEqual(6);
  });

  it("--method council: the contestants review each other, the table is printed, and a failed threshold exits 1", async () => {
    const out = await evalCli([
      "--url",
      server.url,
      "--set",
      path.join(dir, "prompts.jsonl"),
      "--presets",
      path.join(dir, "presets.json"),
      "--method",
      "council",
      "--contestants",
      "preset:cli-terse,preset:cli-steps,demo:concise",
      "--baseline",
      "preset:cli-steps",
      "--min-win-rate",
      "preset:cli-terse=90",
      "--json",
      path.join(dir, "council.json"),
    ]);
    expect(out.code, out.stderr).toBe(1);
    expect(out.stderr).toMatch(/answers 9\/9, reviews 9\/9/);
    expect(out.stdout).toMatch(/^Rank\s+Contestant\s+Rating\s+95% CI\s+Win rate/m);
    expect(out.stdout).toMatch(/CLI steps v\d+ \(baseline\)/);
    expect(out.stdout).toMatch(/^\S+\s+Demo · Concise\s/m);
    // Contestants are named as the page names them, never by their ids.
    expect(out.stdout).not.toContain("preset:");
    expect(out.stderr).toMatch(/FAILED CLI terse v\d+: win rate .*, 95% lower bound .* < 90\.0%/);
    const report = JSON.parse(await readFile(path.join(dir, "council.json"), "utf8")) as {
      status: string;
      method: string;
      rows: { contestant: string; games: number }[];
      judgeSummaries: { judge: string; judgments: number }[];
    };
    expect(report).toMatchObject({ status: "completed", method: "council" });
    // No judges: each contestant reviewed each of the 3 prompts, ranking the other two.
    const unversioned = (id: string) => id.replace(/@\d+$/, "");
    expect(report.judgeSummaries.map((j) => [unversioned(j.judge), j.judgments]).sort()).toEqual([
      ["demo:concise", 3],
      ["preset:cli-steps", 3],
      ["preset:cli-terse", 3],
    ]);
    expect(report.rows.find((r) => unversioned(r.contestant) === "preset:cli-terse")?.games).toBeGreaterThan(0);
  });

  it("exits 0 when every threshold holds, and 2 on a malformed threshold", async () => {
    const passing = await evalCli([...base(), "--max-cost-usd", "preset:cli-terse=1"]);
    expect(passing.code, passing.stderr).toBe(0);
    expect(passing.stderr).toContain("All thresholds passed.");
    const usage = await evalCli([...base(), "--min-win-rate", "nonsense"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--min-win-rate takes CONTESTANT=NUMBER");
  });

  it("runs goal battles with --method goal: a model plays the user, the demo that gets there first leads", async () => {
    await writeFile(
      path.join(dir, "goals.jsonl"),
      `${[
        { id: "hike", prompt: "Hello, I need a packing list.", goal: "Write a packing list for a weekend hike" },
        { id: "trip", prompt: "Hi, I want to plan a trip.", goal: "Plan a three-day trip to Lisbon" },
      ]
        .map((item) => JSON.stringify(item))
        .join("\n")}\n`,
    );
    const out = await evalCli([
      "--url",
      server.url,
      "--set",
      path.join(dir, "goals.jsonl"),
      "--method",
      "goal",
      "--contestants",
      "demo:thorough,demo:skeptic",
      "--baseline",
      "demo:skeptic",
      "--user-model",
      "demo:concise",
      "--max-turns",
      "6",
      "--min-win-rate",
      "demo:thorough=1",
      "--json",
      path.join(dir, "goal-report.json"),
    ]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/battles 2\/2/);
    const report = JSON.parse(await readFile(path.join(dir, "goal-report.json"), "utf8")) as {
      method: string;
      rows: { contestant: string; games: number; observedWinRate: number | null }[];
    };
    expect(report.method).toBe("goal");
    expect(report.rows.find((r) => r.contestant === "demo:thorough")).toMatchObject({ games: 2, observedWinRate: 1 });
    const usage = await evalCli([...base(), "--user-model", "demo:concise"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--user-model is for --method goal");
  });
});
