/**
 * How each kind of setting is read from its variable (worker/shared/config.ts lists which kind each is): blank is
 * unset, and a value that doesn't parse is a zod issue saying what it is and what it should be.
 */
import { z } from "zod";

/** A model's price per million tokens, in US dollars. */
export interface Price {
  priceIn: number;
  priceOut: number;
}

/** How a value is quoted back: whole when short, else its start (a setting is never a secret that can fail). */
const shown = (raw: string) => JSON.stringify(raw.length > 60 ? `${raw.slice(0, 57)}…` : raw);

/** Unset and blank are the same (a `.dev.vars` line `X=` or a test's `X: ""` clears a setting); wrangler.toml [vars] may hold numbers and booleans. */
const asText = (raw: unknown) =>
  typeof raw === "number" || typeof raw === "boolean"
    ? String(raw)
    : typeof raw === "string" && raw.trim() === ""
      ? undefined
      : raw;

/** A setting: `value` parses what is set; unset, it is `fallback`. */
export function setting<T, F>(value: z.ZodType<T, string>, fallback: F) {
  return z.preprocess(asText, value.optional()).transform((v): T | F => (v === undefined ? fallback : v));
}

export const text = z.string({ error: "is not text" }).transform((s) => s.trim());

/** A number that `ok` accepts, written as JavaScript's Number() reads it (`1e6` too). */
const numberWhere = (need: string, ok: (n: number) => boolean) =>
  text.transform((s, ctx) => {
    const n = Number(s);
    if (Number.isFinite(n) && ok(n)) return n;
    ctx.addIssue({ code: "custom", message: `is ${shown(s)}, not ${need}` });
    return z.NEVER;
  });

export const whole = (min: number) =>
  numberWhere(`a whole number, ${min} or more`, (n) => Number.isInteger(n) && n >= min);
export const aboveZero = numberWhere("a number above 0", (n) => n > 0);
export const dollars = numberWhere("an amount of US dollars, 0 or more", (n) => n >= 0);

const YES = ["true", "1", "yes", "on"];
const NO = ["false", "0", "no", "off"];
export const flag = text.transform((s, ctx) => {
  if (YES.includes(s.toLowerCase())) return true;
  if (NO.includes(s.toLowerCase())) return false;
  ctx.addIssue({ code: "custom", message: `is ${shown(s)}, not true or false` });
  return z.NEVER;
});

export const onOff = text.transform((s, ctx) => {
  if (s.toLowerCase() === "on") return true;
  if (s.toLowerCase() === "off") return false;
  ctx.addIssue({ code: "custom", message: `is ${shown(s)}, not on or off` });
  return z.NEVER;
});

/** Comma-separated, blanks dropped. */
export const list = text.transform((s) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean),
);

/** `id=input:output` entries, comma-separated, in US dollars per million tokens (`openai-compatible:llama3.2=0:0`). */
export const prices = text.transform((s, ctx) => {
  const found = new Map<string, Price>();
  for (const entry of s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean)) {
    const at = entry.lastIndexOf("=");
    const [input = "", output = "", ...rest] = entry
      .slice(at + 1)
      .split(":")
      .map((x) => x.trim());
    const [priceIn, priceOut] = [Number(input), Number(output)];
    if (at <= 0 || rest.length || input === "" || output === "" || !(priceIn >= 0) || !(priceOut >= 0)) {
      ctx.addIssue({
        code: "custom",
        message: `has the entry ${shown(entry)}, not one like openai-compatible:llama3.2=0:0 (model id=input:output, US dollars per million tokens, 0 or more)`,
      });
      return z.NEVER;
    }
    found.set(entry.slice(0, at).trim(), { priceIn, priceOut });
  }
  return found;
});

/** The ranking the arena's pairing works toward: `all` (the whole order) or `topN` (the first N, in order). */
export interface ArenaFocus {
  /** null: the whole order */
  top: number | null;
}

export const focus = text.transform((s, ctx): ArenaFocus => {
  const lower = s.toLowerCase();
  if (lower === "all") return { top: null };
  const top = /^top([1-9]\d{0,3})$/.exec(lower);
  if (top) return { top: Number(top[1]) };
  ctx.addIssue({ code: "custom", message: `is ${shown(s)}, not all or topN (top3, top10…)` });
  return z.NEVER;
});

/** A focus as the setting spells it: "all", "top3". */
export const focusName = (f: ArenaFocus): string => (f.top === null ? "all" : `top${f.top}`);

/** One model id, `provider:name` (as QUORUM_JUDGES' entries are). */
export const modelId = text.transform((s, ctx) => {
  const at = s.indexOf(":");
  if (at > 0 && at < s.length - 1) return s;
  ctx.addIssue({ code: "custom", message: `is ${shown(s)}, not a model id like demo:concise or openai:gpt-4o-mini` });
  return z.NEVER;
});

/** `off`, `arena` (the Arena's percentile rule) or a whole number of battles each prompt keeps at most. */
export const dedupRule = text.transform((s, ctx): "arena" | number | null => {
  const word = s.toLowerCase();
  if (word === "off") return null;
  if (word === "arena") return "arena";
  const n = Number(s);
  if (Number.isInteger(n) && n >= 1) return n;
  ctx.addIssue({ code: "custom", message: `is ${shown(s)}, not off, arena or a whole number of battles, 1 or more` });
  return z.NEVER;
});

/** `provider=n` entries, comma-separated: how many calls an evaluation keeps in flight per provider (`openai=8,anthropic=4`). */
export const concurrencyCaps = text.transform((s, ctx) => {
  const found = new Map<string, number>();
  for (const entry of s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean)) {
    const [provider = "", n = "", ...rest] = entry.split("=").map((x) => x.trim());
    const cap = Number(n);
    if (!/^[a-z][a-z-]*$/.test(provider) || rest.length || !Number.isInteger(cap) || cap < 1) {
      ctx.addIssue({
        code: "custom",
        message: `has the entry ${shown(entry)}, not one like openai=8 (a provider and a whole number of calls, 1 or more)`,
      });
      return z.NEVER;
    }
    found.set(provider, cap);
  }
  return found;
});

/** Model or preset ids, comma-separated; each must look like `provider:name`. */
export const modelIds = list.transform((ids, ctx) => {
  const bad = ids.find((id) => id.indexOf(":") <= 0 || id.endsWith(":"));
  if (bad === undefined) return ids;
  ctx.addIssue({
    code: "custom",
    message: `holds ${shown(bad)}, not a model id like demo:concise or openai:gpt-4o-mini`,
  });
  return z.NEVER;
});
