/**
 * What Quorum logs, for the terminal running `wrangler dev` (or `wrangler tail`): one line per provider call
 * that ended, and unexpected errors by their shape.
 *
 * A call's line names the model but never the label, so a blind run stays blind in the log too; its
 * error is the adapter's message, which never holds a key; questions and answers are never logged.
 */
import { type ConfigVars, settings } from "../shared/config";

export interface CallLog {
  /** the run, comparison, evaluation, goal battle or thread id */
  run: string;
  step:
    | "answer"
    | "review"
    | "side"
    | "judge"
    | "synthesis"
    | "classifier"
    | "eval-answer"
    | "eval-judge"
    | "eval-review"
    | "revision"
    | "v1"
    | "goal-side"
    | "goal-user"
    | "goal-check"
    | "goal-judge"
    | "chat";
  model: string;
  status: "done" | "failed";
  latencyMs: number | null;
  attempts: number;
  error?: string | null;
}

export function logCall(env: ConfigVars, entry: CallLog): void {
  if (!settings(env).logCalls) return;
  console.log(JSON.stringify({ at: new Date().toISOString(), ...entry }));
}

/** An unexpected error by its shape only (its name, the start of its message), so no question, answer or key ends up in logs. */
export function logError(what: string, err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  console.error(what, e.name, e.message.slice(0, 200));
}
