/**
 * The goal battle launch form: its values (strings until sent), the request body they make, and each refusal put
 * next to the field it is about — the form's own checks and the server's 400s alike.
 */
import { MAX_OUTPUT_TOKENS, MAX_TEMPERATURE } from "../../../worker/shared/constants";
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
  marker: "GOAL_REACHED",
  judgeModel: "",
  maxTurns: "25",
  turnTimeoutSeconds: "60",
  temperature: "0.7",
  maxTokens: "1024",
  category: "",
  judgeMode: "goal",
  count: "1",
};

export interface GoalBattleBody {
  contestants?: [string, string];
  pool?: string[];
  systemPrompt: string;
  goal: string;
  user: { mode: "model"; modelId: string; persona?: string } | { mode: "script"; script: string[] };
  goalCheck: { marker?: string; judgeModelId?: string };
  maxTurns: number;
  turnTimeoutMs: number;
  temperature: number;
  maxTokens: number;
  category?: string;
  judgeMode: GoalJudgeMode;
}

const ids = (raw: string) =>
  raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** A number within bounds, or the reason it isn't one. */
function numberOf(raw: string, min: number, max: number, integer: boolean): number | string {
  const n = Number(raw.trim());
  if (raw.trim() === "" || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n)))
    return `${integer ? "A whole number" : "A number"} from ${min} to ${max}.`;
  return n;
}

/** The body to send and how many times, or the fields that are wrong (the body is null then). */
export function buildLaunch(v: LaunchValues): { body: GoalBattleBody | null; count: number; errors: LaunchErrors } {
  const errors: LaunchErrors = {};
  const num = (field: LaunchField, min: number, max: number, integer: boolean) => {
    const n = numberOf(v[field], min, max, integer);
    if (typeof n === "string") errors[field] = n;
    return typeof n === "number" ? n : 0;
  };
  const count = num("count", 1, MAX_LAUNCH, true);
  const maxTurns = num("maxTurns", 1, 100, true);
  const timeout = num("turnTimeoutSeconds", 1, 900, false);
  const temperature = num("temperature", 0, MAX_TEMPERATURE, false);
  const maxTokens = num("maxTokens", 1, MAX_OUTPUT_TOKENS, true);

  const body: Partial<GoalBattleBody> = { systemPrompt: v.systemPrompt, goal: v.goal.trim() };
  if (!body.goal) errors.goal = "Say what both sides must achieve.";
  if (v.draw === "pair") {
    const [a, b] = [v.first.trim(), v.second.trim()];
    if (!a) errors.first = "Name a model or preset.";
    if (!b) errors.second = "Name a model or preset.";
    else if (a === b) errors.second = "The two contestants must differ.";
    body.contestants = [a, b];
  } else {
    body.pool = ids(v.pool);
    if (body.pool.length < 2) errors.pool = "Name at least two models or presets to draw from.";
  }
  if (v.userMode === "model") {
    if (!v.userModel.trim()) errors.userModel = "Name the model that plays the user.";
    body.user = {
      mode: "model",
      modelId: v.userModel.trim(),
      ...(v.persona.trim() ? { persona: v.persona.trim() } : {}),
    };
  } else {
    const script = promptsOfLines(v.script);
    if (!script.length) errors.script = "Write at least one user message, one per line.";
    body.user = { mode: "script", script };
  }
  body.goalCheck = {
    ...(v.marker.trim() ? { marker: v.marker.trim() } : {}),
    ...(v.judgeModel.trim() ? { judgeModelId: v.judgeModel.trim() } : {}),
  };
  if (!v.marker.trim() && !v.judgeModel.trim()) errors.marker = "Give a goal marker, a judge model, or both.";
  if (v.judgeMode === "llm" && !v.judgeModel.trim()) errors.judgeModel = "Judge only needs a judge model.";
  Object.assign(body, {
    maxTurns,
    turnTimeoutMs: Math.round(timeout * 1000),
    temperature,
    maxTokens,
    judgeMode: v.judgeMode,
    ...(v.category.trim() ? { category: v.category.trim() } : {}),
  });
  const ok = Object.keys(errors).length === 0;
  return { body: ok ? (body as GoalBattleBody) : null, count: ok ? count : 0, errors };
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

/**
 * A refused launch, split into messages beside the fields the server named (its issues' paths) and the rest,
 * said once under the form.
 */
export function launchRefusal(
  err: unknown,
  userMode: LaunchValues["userMode"],
): { fields: LaunchErrors; general: string | null } {
  // The API's refusals carry a code (lib/api.ts's ApiError); checked by shape, so this module needs no client.
  if (!(err instanceof Error) || typeof (err as Partial<Refusal>).code !== "string")
    return { fields: {}, general: err instanceof Error ? err.message : String(err) };
  const fields: LaunchErrors = {};
  let general: string | null = null;
  const issues = issuesOf((err as Refusal).details);
  for (const issue of issues) {
    const field = fieldOfPath(issue.path, userMode);
    if (field) fields[field] ??= issue.message;
    else general ??= issue.path ? `${issue.path}: ${issue.message}` : issue.message;
  }
  if (!issues.length) general = err.message;
  return { fields, general };
}
