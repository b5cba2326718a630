/**
 * Starting a council run, the one way every caller starts one (POST /api/runs, `quorum:council` on /v1): redact,
 * resolve the contestants, count it against the runs rate limit, set its most aside under a spend cap, and hand
 * it to its RunRoom, which answers once D1 holds the run.
 */
import type { Context } from "hono";
import { estimateRunCost } from "../council/estimate";
import { isPresetId } from "../shared/contestant";
import type { CreateRunInput } from "../shared/requests";
import type { Redactions } from "../shared/redact";
import type { RunSettings, RunStatus } from "../shared/run";
import { claimContestants, type Contestant, resolveContestants, targetsOf } from "./contestants";
import { ApiError } from "./errors";
import { newItemId } from "./item-ids";
import { clientIdOf, rateLimit } from "./rate-limit";
import { redactMode, redactRun } from "./redaction";
import { unwrap } from "./room-result";
import { reserveSpend, withHold, workMs } from "./spend";

/** The room of run `id`: only for an id the server made (item-ids.ts), since addressing a room creates it. */
export const runRoom = (env: Env, id: string) => env.RUN_ROOM.get(env.RUN_ROOM.idFromName(id));

/** The longest a run's calls may take: its answers, then its reviews (each maybe asked twice), then its synthesis. */
export function runCallsMs(settings: RunSettings, models: number): number {
  const waves = (calls: number) => Math.max(1, Math.ceil(calls / Math.max(1, settings.concurrency)));
  return (waves(models) + 2 * waves(settings.reviewers?.length ?? models) + 1) * settings.timeoutMs;
}

export interface StartedRun {
  id: string;
  status: RunStatus;
  /** what redact mode masked, when it is on */
  redactions?: Redactions;
  /** the run's models (then its synthesis' and reviewers'), as named and as what they call */
  contestants: Contestant[];
}

export async function startRun(c: Context<{ Bindings: Env }>, body: CreateRunInput): Promise<StartedRun> {
  const redacted = redactMode(c.env) ? await redactRun(body) : null;
  const input = redacted?.input ?? body;
  const chair = input.settings.synthesis?.modelId;
  const ids = [...input.models.map((m) => m.id), ...(chair ? [chair] : []), ...(input.settings.reviewers ?? [])];
  await resolveContestants(c.env, ids);
  const withParams = input.models.find((m) => isPresetId(m.id) && m.params);
  if (withParams)
    throw new ApiError(
      400,
      "invalid_request",
      `models: "${withParams.id}" is a preset, which brings its own system prompt and parameters; leave its params out, or edit the preset.`,
    );
  await rateLimit(c, "runs", await clientIdOf(c));
  const contestants = await claimContestants(c.env, ids);
  const models = input.models.map((m, i) => (isPresetId(m.id) ? { id: m.id, params: contestants[i].params } : m));
  const called = (id: string) => contestants.find((x) => x.id === id)?.modelId ?? id;
  const id = await newItemId(c.env, "run");
  // A blind run's total, over labels whose tokens are shown, would say which model wrote which: it shows at the run's end.
  const holdId = await reserveSpend(c, {
    itemId: id,
    what: "run",
    // Priced as the models the presets call.
    estimate: estimateRunCost(c.env, {
      ...input,
      models: models.map((m) => ({ ...m, id: called(m.id) })),
      settings: {
        ...input.settings,
        ...(chair ? { synthesis: { modelId: called(chair) } } : {}),
        ...(input.settings.reviewers ? { reviewers: input.settings.reviewers.map(called) } : {}),
      },
    }),
    hidden: input.settings.blind,
    blindPrices: null,
    workMs: workMs(c.env, runCallsMs(input.settings, input.models.length)),
  });
  const settings = redacted ? { ...input.settings, redactions: redacted.redactions } : input.settings;
  const started = unwrap(
    await withHold(
      c.env,
      holdId,
      async (holdId) =>
        await runRoom(c.env, id).start({
          id,
          question: input.question,
          models,
          settings,
          holdId,
          targets: targetsOf(contestants),
        }),
    ),
  );
  return { ...started, ...(redacted ? { redactions: redacted.redactions } : {}), contestants };
}
