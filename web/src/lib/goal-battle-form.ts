/**
 * The goal battle launch form: its values (strings until sent), the request body they make, and each refusal put
 * next to the field it is about — the form's own checks and the server's 400s alike.
 */
import type { z } from "zod";
import {
  DEFAULT_GOAL_MARKER,
  DEFAULT_GOAL_TURNS,
  MAX_GOAL_TURNS,
  MAX_OUTPUT_TOKENS,
  MAX_TEMPERATURE,
  MAX_TIMEOUT_MS,
} from "../../../worker/shared/constants";
import type { createGoalBattleInput } from "../../../worker/shared/goal-battle-input";
import type { GoalJudgeMode } from "./goal-battle-types";
import { promptsOfLines } from "./prompt-lines";

export interface LaunchValues {
  /** two named contestants, or two drawn from a pool */
  draw: "pair" | "pool";
  first: string;
  second: string;
  /** model or preset ids, comma-separated */
  pool: string;
  systemPrompt: string;
  goal: string;
  userMode: "model" | "script";
  userModel: string;
  persona: string;
  /** one user message per line */
  script: string;
  marker: string;
  judgeModel: string;
  maxTurns: string;
  turnTimeoutSeconds: string;
  temperature: string;
  maxTokens: string;
  category: string;
  judgeMode: GoalJudgeMode;
  /** how many battles with these settings */
  count: string;
}

export type LaunchField = Exclude<keyof LaunchValues, "draw" | "userMode">;
export type LaunchErrors = Partial<Record<LaunchField, string>>;

export const MAX_LAUNCH = 10;

export const LAUNCH_DEFAULTS: LaunchValues = {
  draw: "pair",
  first: "",
  second: "",
  pool: "",
  systemPrompt: "",
  goal: "",
  userMode: "model",
  userModel: "",
  persona: "",
  script: "",
  marker: DEFAULT_GOAL_MARKER,
  judgeModel: "",
  maxTurns: String(DEFAULT_GOAL_TURNS),
  turnTimeoutSeconds: "120",
  temperature: "",
  maxTokens: "",
  category: "",
  judgeMode: "goal",
  count: "1",
};

/** The request body, as the Worker's schema takes it. */
export type GoalBattleBody = z.input<typeof createGoalBattleInput>;

const ids = (raw: string) =>
  raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** A number within bounds, or the reason it isn't one; blank is `undefined` where the field may be left out. */
function numberOf(raw: string, min: number, max: number, integer: boolean, optional: boolean) {
  const text = raw.trim();
  if (text === "" && optional) return undefined;
  const n = Number(text);
  if (text === "" || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n)))
    return new Error(`${integer ? "A whole number" : "A number"} from ${min} to ${max}.`);
  return n;
}

/** The body to send and how many times, or the fields that are wrong (the body is null then). */
export function buildLaunch(v: LaunchValues): { body: GoalBattleBody | null; count: number; errors: LaunchErrors } {
  const errors: LaunchErrors = {};
  const num = (field: LaunchField, min: number, max: number, integer: boolean, optional = false) => {
    const n = numberOf(v[field], min, max, integer, optional);
    if (n instanceof Error) errors[field] = n.message;
    return typeof n === "number" ? n : undefined;
  };
  const count = num("count", 1, MAX_LAUNCH, true) ?? 0;
  const maxTurns = num("maxTurns", 1, MAX_GOAL_TURNS, true);
  const timeout = num("turnTimeoutSeconds", 1, MAX_TIMEOUT_MS / 1000, false);
  const temperature = num("temperature", 0, MAX_TEMPERATURE, false, true);
  const maxTokens = num("maxTokens", 1, MAX_OUTPUT_TOKENS, true, true);

  const goal = v.goal.trim();
  if (!goal) errors.goal = "Say what both sides must achieve.";
  const [a, b] = [v.first.trim(), v.second.trim()];
  const pool = ids(v.pool);
  if (v.draw === "pair") {
    if (!a) errors.first = "Name a model or preset.";
    if (!b) errors.second = "Name a model or preset.";
    else if (a === b) errors.second = "The two contestants must differ.";
  } else if (pool.length < 2) errors.pool = "Name at least two models or presets to draw from.";
  const script = promptsOfLines(v.script);
  if (v.userMode === "model" && !v.userModel.trim()) errors.userModel = "Name the model that plays the user.";
  if (v.userMode === "script" && !script.length) errors.script = "Write at least one user message, one per line.";
  if (v.judgeMode === "llm" && !v.judgeModel.trim()) errors.judgeModel = "Judging alone needs a judge model.";
  if (Object.keys(errors).length) return { body: null, count: 0, errors };

  const body: GoalBattleBody = {
    ...(v.draw === "pair" ? { contestants: [a, b] } : { pool }),
    systemPrompt: v.systemPrompt,
    goal,
    user:
      v.userMode === "model"
        ? { mode: "model", modelId: v.userModel.trim(), ...(v.persona.trim() ? { persona: v.persona.trim() } : {}) }
        : { mode: "script", script },
    goalCheck: {
      ...(v.marker.trim() ? { marker: v.marker.trim() } : {}),
      ...(v.judgeModel.trim() ? { judgeModelId: v.judgeModel.trim() } : {}),
    },
    maxTurns,
    turnTimeoutMs: timeout === undefined ? undefined : Math.round(timeout * 1000),
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
    ...(v.category.trim() ? { category: v.category.trim() } : {}),
    judgeMode: v.judgeMode,
  };
  return { body, count, errors };
}

/** Request paths (zod's, dot-joined) and the field each belongs to; the longest prefix wins. */
const FIELD_OF_PATH: [string, LaunchField][] = [
  ["contestants.1", "second"],
  ["contestants", "first"],
  ["pool", "pool"],
  ["systemPrompt", "systemPrompt"],
  ["goal", "goal"],
  ["user.persona", "persona"],
  ["user.script", "script"],
  ["user", "userModel"],
  ["goalCheck.judgeModelId", "judgeModel"],
  ["goalCheck", "marker"],
  ["maxTurns", "maxTurns"],
  ["turnTimeoutMs", "turnTimeoutSeconds"],
  ["temperature", "temperature"],
  ["maxTokens", "maxTokens"],
  ["category", "category"],
  ["judgeMode", "judgeMode"],
];

export function fieldOfPath(path: string, userMode: LaunchValues["userMode"] = "model"): LaunchField | null {
  if (path === "user" && userMode === "script") return "script";
  const hit = FIELD_OF_PATH.find(([prefix]) => path === prefix || path.startsWith(`${prefix}.`));
  return hit?.[1] ?? null;
}

/** What of lib/api.ts's ApiError a refusal is read by. */
interface Refusal extends Error {
  code: string;
  details?: unknown;
}

interface Issue {
  path: string;
  message: string;
}

function issuesOf(details: unknown): Issue[] {
  const list = (details as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (i): i is Issue => typeof i?.path === "string" && typeof (i as { message?: unknown }).message === "string",
  );
}

/** Refusals whose code says which field they are about. */
const FIELD_OF_CODE: Partial<Record<string, LaunchField>> = { judge_is_contestant: "judgeModel" };

/** The fields that hold model or preset ids, for a refusal that names one (`Model "x:y" …`). */
const MODEL_FIELDS = ["first", "second", "pool", "userModel", "judgeModel"] as const;

/** The model fields holding the id a refusal's message quotes: the server names the id it refused, not the field. */
function fieldsNaming(message: string, v: LaunchValues): LaunchField[] {
  const shown = (f: (typeof MODEL_FIELDS)[number]) =>
    f === "pool"
      ? v.draw === "pool"
      : f === "first" || f === "second"
        ? v.draw === "pair"
        : f !== "userModel" || v.userMode === "model";
  return MODEL_FIELDS.filter((f) => shown(f) && ids(v[f]).some((id) => message.includes(`"${id}"`)));
}

/**
 * A refused launch, split into messages beside the fields it is about (the validation issues' paths, or the model
 * fields holding an id it names) and the rest, said once under the form.
 */
export function launchRefusal(err: unknown, v: LaunchValues): { fields: LaunchErrors; general: string | null } {
  // The API's refusals carry a code (lib/api.ts's ApiError); checked by shape, so this module needs no client.
  if (!(err instanceof Error) || typeof (err as Partial<Refusal>).code !== "string")
    return { fields: {}, general: err instanceof Error ? err.message : String(err) };
  const fields: LaunchErrors = {};
  let general: string | null = null;
  const issues = issuesOf((err as Refusal).details);
  for (const issue of issues) {
    const field = fieldOfPath(issue.path, v.userMode);
    if (field) fields[field] ??= issue.message;
    else general ??= issue.path ? `${issue.path}: ${issue.message}` : issue.message;
  }
  if (issues.length) return { fields, general };
  const byCode = FIELD_OF_CODE[(err as Refusal).code];
  if (byCode) return { fields: { [byCode]: err.message }, general: null };
  const named = fieldsNaming(err.message, v);
  for (const field of named) fields[field] = err.message;
  return { fields, general: named.length ? null : err.message };
}
