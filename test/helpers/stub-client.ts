/** Helpers for tests (inside workerd) to script the provider stub over HTTP; the URL comes from `inject("stubUrl")`. */
import { modelsListName, type RecordedCall, type Step } from "./stub/types";

export type { JsonBody, RecordedCall, Step } from "./stub/types";

async function stubFetch<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`stub ${init?.method ?? "GET"} ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const post = <T>(url: string, body: unknown) =>
  stubFetch<T>(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** Appends steps for calls to `model` (the name after `provider:`); each call takes the next one. */
export async function scriptModel(stubUrl: string, model: string, steps: Step[]): Promise<void> {
  await post(`${stubUrl}/__stub/script`, { model, steps });
}

/**
 * A lasting rule for calls to `model`: one whose JSON request body matches the regular expression `pattern` takes
 * `step`, once the model's scripted steps are used up (e.g. a judge's verdict by which answer it was shown as A).
 * With `times`, the rule takes only that many calls (e.g. hold the first call for one item, not its retry).
 */
export async function ruleFor(
  stubUrl: string,
  model: string,
  pattern: string,
  step: Step,
  times?: number,
): Promise<void> {
  await post(`${stubUrl}/__stub/rule`, { model, pattern, step, ...(times === undefined ? {} : { times }) });
}

/** Model-list calls have no model name: their steps are filed under the API key the client sends. */
export async function scriptModelsList(stubUrl: string, apiKey: string, steps: Step[]): Promise<void> {
  await scriptModel(stubUrl, modelsListName(apiKey), steps);
}

/** Lets every call held on `key` answer; resolves to how many were held. */
export async function releaseHold(stubUrl: string, key: string): Promise<number> {
  return (await post<{ released: number }>(`${stubUrl}/__stub/release`, { key })).released;
}

/** Every call the stub received for `model`, oldest first. */
export function callsFor(stubUrl: string, model: string): Promise<RecordedCall[]> {
  return stubFetch(`${stubUrl}/__stub/calls?model=${encodeURIComponent(model)}`);
}

export function modelsListCalls(stubUrl: string, apiKey: string): Promise<RecordedCall[]> {
  return callsFor(stubUrl, modelsListName(apiKey));
}

/**
 * The most calls the stub had open at once to models whose names start with `prefix`, a name up to and including
 * one of its hyphens (`cc-` for `cc-a` and `cc-b`), or a whole name.
 */
export async function peakOpen(stubUrl: string, prefix: string): Promise<number> {
  return (await stubFetch<{ peak: number }>(`${stubUrl}/__stub/peak?prefix=${encodeURIComponent(prefix)}`)).peak;
}

/**
 * The most of `calls` open at once in each group `groupOf` puts them in (null: left out), from the stub's order of
 * arrivals and closes; `all` is the most over every group together.
 */
export function peakBy(calls: RecordedCall[], groupOf: (call: RecordedCall) => string | null): Map<string, number> {
  const moments: { at: number; group: string; d: number }[] = [];
  for (const call of calls) {
    const group = groupOf(call);
    if (group === null) continue;
    moments.push({ at: call.opened, group, d: 1 });
    moments.push({ at: call.closed ?? Number.POSITIVE_INFINITY, group, d: -1 });
  }
  moments.sort((a, b) => a.at - b.at);
  const open = new Map<string, number>();
  const peak = new Map<string, number>();
  for (const m of moments)
    for (const key of [m.group, "all"]) {
      open.set(key, (open.get(key) ?? 0) + m.d);
      peak.set(key, Math.max(peak.get(key) ?? 0, open.get(key) ?? 0));
    }
  return peak;
}

export async function heldCount(stubUrl: string, key: string): Promise<number> {
  return (await stubFetch<{ count: number }>(`${stubUrl}/__stub/held?key=${encodeURIComponent(key)}`)).count;
}

/** Polls until the stub has received at least `count` calls for `model`; throws after `timeoutMs`. */
export async function waitForCalls(
  stubUrl: string,
  model: string,
  count = 1,
  timeoutMs = 5_000,
): Promise<RecordedCall[]> {
  return poll(
    () => callsFor(stubUrl, model),
    (calls) => calls.length >= count,
    timeoutMs,
    `${count} call(s) for model "${model}"`,
  );
}

/** Polls until at least `count` calls are held on `key`; throws after `timeoutMs`. */
export async function waitForHeld(stubUrl: string, key: string, count = 1, timeoutMs = 5_000): Promise<void> {
  await poll(
    () => heldCount(stubUrl, key),
    (held) => held >= count,
    timeoutMs,
    `${count} call(s) held on "${key}"`,
  );
}

/** Reads until `done` holds of what it read (every 10 ms); throws after `timeoutMs`, saying what it waited for. */
export async function poll<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() >= deadline)
      throw new Error(`waited ${timeoutMs} ms for ${what}; last saw ${JSON.stringify(value).slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
