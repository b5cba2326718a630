/**
 * How a contestant is named wherever one is listed: its shown name (a model's catalog name, a preset version's own
 * name and version, "Terse v2") and, for a preset, the model it calls, shown beside it as the leaderboard does.
 * Responses that list contestants carry these by id (`names`), so no page shows a raw `preset:<slug>@<n>`.
 */
import * as z from "zod/mini";

export const contestantName = z.object({
  displayName: z.string(),
  /** a preset's model; null for a model */
  modelId: z.nullable(z.string()),
});

export const contestantNames = z.record(z.string(), contestantName);

export type ContestantName = z.infer<typeof contestantName>;
export type ContestantNames = z.infer<typeof contestantNames>;
