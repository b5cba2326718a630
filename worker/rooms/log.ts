/**
 * One line per provider call that ended, for the terminal running `wrangler dev` (or `wrangler tail`).
 * It names the model but never the label, so a blind run stays blind in the log too; errors are
 * the adapters' messages, which never hold a key; questions and answers are never logged.
 */
export interface CallLog {
  /** the run or comparison id */
  run: string;
  step: "answer" | "review" | "side" | "judge" | "synthesis";
  model: string;
  status: "done" | "failed";
  latencyMs: number | null;
  attempts: number;
  error?: string | null;
}

export function logCall(env: { QUORUM_LOG?: string }, entry: CallLog): void {
  if (env.QUORUM_LOG === "off") return;
  console.log(JSON.stringify({ at: new Date().toISOString(), ...entry }));
}
