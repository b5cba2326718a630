/** A model's structured output read as one JSON object, the way every structured call (judges, classifier) reads it. */

/** Strips a Markdown code fence some models put around JSON even when told not to. */
export function unfence(raw: string): string {
  const m = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n\s*```\s*$/.exec(raw);
  return m ? m[1] : raw;
}

/** The output as a JSON object, or what is wrong with it, naming `what` it is (e.g. "the judge's output"). */
export function parseJsonObject(
  raw: string,
  what: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(unfence(raw));
  } catch {
    return { ok: false, error: `${what} is not JSON` };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data))
    return { ok: false, error: `${what} is not a JSON object` };
  return { ok: true, value: data as Record<string, unknown> };
}
