/**
 * Reads a reviewer's output into a ballot. Small slips that leave the reviewer's intent clear
 * are repaired and recorded; anything that would mean guessing its judgement is an error.
 *
 * Labels, wherever they appear (a review's `label`, the `ranking`):
 * - written loosely ("a", "Answer B", "(C)"): read as the label meant, recorded;
 * - unknown (not among the labels this reviewer had to judge — its own answer, a label that doesn't
 *   exist): dropped, recorded; the rest of the review stands;
 * - repeated: the first occurrence counts (the first review of a label, its best rank), later ones are
 *   dropped, recorded;
 * - missing from the ranking but reviewed: appended after the ranked ones, best overall score first
 *   (equal scores in label order), recorded;
 * - neither ranked nor reviewed, or no review or ranking left at all: an error — placing it would be
 *   guessing — so the room asks once more, then marks the review failed.
 * Output of any shape is an outcome, never an exception.
 */
import { z } from "zod";
import { overallOf, type Scoring, scoringOf } from "../shared/rubric";
import type { Scores } from "../shared/run";

export interface ParsedReview {
  reviews: { label: string; critique: string; scores: Scores }[];
  ranking: string[];
  confidence: number | null;
}

export type ParseOutcome = { ok: true; review: ParsedReview; repairs: string[] } | { ok: false; error: string };

const missingOr = (what: string) => (iss: { input?: unknown }) =>
  iss.input === undefined ? "is missing" : `must be ${what}`;
const numberLike = z.union([z.number(), z.string()], { error: missingOr("a number") });
/** The shape of a review whose scores are the rubric's keys (extra keys are ignored). */
const rawReviewOf = (keys: readonly string[]) =>
  z.object(
    {
      reviews: z.array(
        z.object(
          {
            label: z.string({ error: missingOr("a string") }),
            critique: z.string({ error: missingOr("a string") }),
            scores: z.object(Object.fromEntries(keys.map((key) => [key, numberLike])), {
              error: missingOr("an object"),
            }),
          },
          { error: missingOr("an object") },
        ),
        { error: missingOr("a list") },
      ),
      ranking: z.array(z.string({ error: missingOr("a label") }), { error: missingOr("a list of labels") }).optional(),
      confidence: z.union([z.number(), z.string(), z.null()], { error: missingOr("a number") }).optional(),
    },
    { error: missingOr("a JSON object") },
  );

const DEFAULT_SCORING = scoringOf({});
const defaultShape = rawReviewOf(DEFAULT_SCORING.keys);

/** Validates and repairs one review against the labels the reviewer had to judge and the rubric's keys. */
export function parseReview(raw: string, labels: string[], scoring: Scoring = DEFAULT_SCORING): ParseOutcome {
  const repairs: string[] = [];
  const json = extractJsonObject(raw);
  if (json === null) return { ok: false, error: "the output is not JSON" };
  if (json.extracted) repairs.push("took the JSON object out of the text around it");

  const checked = (scoring === DEFAULT_SCORING ? defaultShape : rawReviewOf(scoring.keys)).safeParse(json.value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { ok: false, error: `${pathOf(issue.path)} ${issue.message}` };
  }
  const input = checked.data;
  const canonical = labelReader(labels, repairs);

  const reviewed = new Map<string, ParsedReview["reviews"][number]>();
  for (const entry of input.reviews) {
    const label = canonical(entry.label, "review");
    if (label === null) continue;
    if (reviewed.has(label)) {
      repairs.push(`dropped a second review of ${label}`);
      continue;
    }
    const scores: Scores = {};
    for (const key of scoring.keys) {
      const value = readScore(entry.scores[key]!, `${key} of ${label}`, repairs);
      if (value === null) return { ok: false, error: `the ${key} score of ${label} is not a number` };
      scores[key] = value;
    }
    reviewed.set(label, { label, critique: entry.critique, scores });
  }
  if (reviewed.size === 0) return { ok: false, error: `no review of any answer to judge (${labels.join(", ")})` };

  const ranking: string[] = [];
  for (const item of input.ranking ?? []) {
    const label = canonical(item, "ranking");
    if (label === null) continue;
    if (ranking.includes(label)) repairs.push(`dropped a second ${label} from the ranking`);
    else ranking.push(label);
  }
  if (ranking.length === 0) return { ok: false, error: "the ranking names none of the answers to judge" };

  const unranked = labels.filter((l) => !ranking.includes(l) && reviewed.has(l));
  // A stable sort keeps label order between equal scores.
  const overall = (label: string) => overallOf(scoring, reviewed.get(label)!.scores);
  unranked.sort((a, b) => overall(b) - overall(a));
  for (const label of unranked) {
    ranking.push(label);
    repairs.push(`appended ${label} to the ranking by its overall score`);
  }
  const lost = labels.filter((l) => !ranking.includes(l));
  if (lost.length) return { ok: false, error: `${lost.join(", ")} neither ranked nor reviewed` };

  return {
    ok: true,
    review: {
      reviews: labels.filter((l) => reviewed.has(l)).map((l) => reviewed.get(l)!),
      ranking,
      confidence: readConfidence(input.confidence, repairs),
    },
    repairs,
  };
}

/** `reviews[0].scores.safety`, as a reader of the raw output would look for it. */
function pathOf(path: PropertyKey[]): string {
  if (path.length === 0) return "the review";
  return path
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
    .join("")
    .replace(/^\./, "");
}

/** Maps "a", "Answer B", "(C)" to the label it means, or null (recorded) when it names no answer to judge. */
function labelReader(labels: string[], repairs: string[]) {
  return (written: string, where: "review" | "ranking"): string | null => {
    const bare = written
      .trim()
      .replace(/^answer\s*/i, "")
      .replace(/^[\s"'`*()[\]:.#-]+|[\s"'`*()[\]:.#-]+$/g, "")
      .toUpperCase();
    const label = labels.find((l) => l.toUpperCase() === bare) ?? null;
    if (label === null)
      repairs.push(
        where === "review"
          ? `dropped a review of unknown label "${written}"`
          : `dropped unknown label "${written}" from the ranking`,
      );
    else if (label !== written) repairs.push(`read label "${written}" as ${label}`);
    return label;
  };
}

function toNumber(value: number | string): number | null {
  if (typeof value === "number") return value;
  const n = value.trim() === "" ? NaN : Number(value.trim());
  return Number.isFinite(n) ? n : null;
}

function readScore(value: number | string, what: string, repairs: string[]): number | null {
  const n = toNumber(value);
  if (n === null) return null;
  if (typeof value === "string") repairs.push(`read ${what} from the string "${value}"`);
  const clamped = Math.min(10, Math.max(0, n));
  if (clamped !== n) repairs.push(`clamped ${what} from ${n} to ${clamped}`);
  return clamped;
}

function readConfidence(value: number | string | null | undefined, repairs: string[]): number | null {
  if (value === undefined || value === null) {
    repairs.push("confidence missing; left empty");
    return null;
  }
  const n = toNumber(value);
  if (n === null) {
    repairs.push(`confidence "${value}" is not a number; left empty`);
    return null;
  }
  if (typeof value === "string") repairs.push(`read confidence from the string "${value}"`);
  // Reviewers sometimes answer on a 0–100 scale despite the instructions.
  const scaled = n > 1 && n <= 100 ? n / 100 : n;
  const clamped = Math.min(1, Math.max(0, scaled));
  if (clamped !== n) repairs.push(`read confidence ${n} as ${clamped}`);
  return clamped;
}

/** The JSON value itself, or the outermost object inside ```json fences or prose (then `extracted`). */
function extractJsonObject(raw: string): { value: unknown; extracted: boolean } | null {
  const whole = tryJson(raw.trim());
  if (whole !== undefined) return { value: whole, extracted: false };
  const fence = /```[a-zA-Z]*[^\S\n]*\n([\s\S]*?)\n?```/.exec(raw);
  const inFence = fence ? tryJson(fence[1].trim()) : undefined;
  if (inFence !== undefined) return { value: inFence, extracted: true };
  // Prose may hold braces of its own ("{informal}"), so try each opening brace in turn.
  let start = raw.indexOf("{");
  for (let tries = 0; start >= 0 && tries < MAX_BRACE_TRIES; tries++) {
    const end = matchingBrace(raw, start);
    const value = end > start ? tryJson(raw.slice(start, end + 1)) : undefined;
    if (value !== undefined) return { value, extracted: true };
    start = raw.indexOf("{", start + 1);
  }
  const first = raw.indexOf("{");
  const value = first >= 0 ? tryJson(raw.slice(first, raw.lastIndexOf("}") + 1)) : undefined;
  return value === undefined ? null : { value, extracted: true };
}

const MAX_BRACE_TRIES = 50;

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The index of the brace closing the one at `start`, skipping braces inside strings; -1 if none. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return i;
  }
  return -1;
}
