/**
 * Starting an arena comparison, as POST /api/comparisons does it and as a chat thread's dual message does it too:
 * the pair (given, drawn or topper's), presets, spend set aside at blind prices, the room started. One path, so a
 * thread's comparison is the arena's own: same rows, flags and leaderboard.
 */
import type { Context } from "hono";
import { type ChosenPair, choosePair, NoPairError } from "../arena/choose-pair";
import { estimateComparison, poolPrices } from "../arena/estimate";
import type { Price } from "../council/estimate";
import { openDb } from "../db/queries";
import type { ThreadLink } from "../rooms/comparison-room";
import { settings } from "../shared/config";
import { isPresetId } from "../shared/contestant";
import type { CreateComparisonInput } from "../shared/requests";
import { comparisonRoom } from "./comparison-room";
import { claimContestants, targetsOf } from "./contestants";
import { ApiError } from "./errors";
import { newItemId } from "./item-ids";
import { clientIdOf, rateLimit } from "./rate-limit";
import { redactComparison, redactMode } from "./redaction";
import { unwrap } from "./room-result";
import { reserveSpend, utcDay, withHold, workMs } from "./spend";

/** The longest a comparison's calls may take: both sides at once, then judges (two orders, each maybe asked twice). */
export const comparisonCallsMs = (timeoutMs: number) => 5 * timeoutMs;

/**
 * A blind comparison's work is set aside at the highest prices of the models its pair could have been:
 * the two asked for (the client knows them, just not their sides), or the pool a sampled pair came from.
 * With a cap set, every model of that pool must have a price, whichever two were drawn.
 */
function blindPricing(env: Env, blind: boolean, candidates: string[]): { price: Price; unpriced: string[] } | null {
  return blind ? poolPrices(env, candidates) : null;
}

/** Starts a comparison of `given` (validated); `thread` links it to the chat thread reply it answers. */
export async function startComparison(
  c: Context<{ Bindings: Env }>,
  given: CreateComparisonInput,
  thread?: ThreadLink,
) {
  const redacted = redactMode(c.env) ? await redactComparison(given) : null;
  const input = redacted?.input ?? given;
  await rateLimit(c, "comparisons", await clientIdOf(c));
  const { arena } = settings(c.env);
  // QUORUM_JUDGES' model ids are checked when asked (one may be unconfigured today); its presets resolve here.
  const named = [...(input.models ?? []), ...(input.judges ?? arena.judges.filter(isPresetId))];
  const claimed = await claimContestants(c.env, named);
  let chosen: ChosenPair;
  try {
    chosen = await choosePair(c.env, openDb(c.env.DB), input, arena.topperMinAppearances);
  } catch (err) {
    if (err instanceof NoPairError) throw new ApiError(409, "no_models", err.message);
    throw err;
  }
  // A preset drawn from QUORUM_ARENA_MODELS is claimed as a named one is: marked used, then read.
  const drawn = [chosen.models.left, chosen.models.right].filter(
    (id) => isPresetId(id) && !claimed.some((x) => x.id === id),
  );
  const contestants = drawn.length ? [...claimed, ...(await claimContestants(c.env, drawn))] : claimed;
  const autoJudges = input.judges ?? arena.judges;
  const called = (id: string) => contestants.find((x) => x.id === id)?.modelId ?? id;
  const context = input.context ?? [];
  // Priced as the models the presets call; both sides read the context first, so it is priced as part of the prompt.
  const blind = blindPricing(
    c.env,
    input.blind,
    chosen.candidates.map((id) => called(chosen.calls[id] ?? id)),
  );
  const estimate = estimateComparison(c.env, {
    models: { left: called(chosen.models.left), right: called(chosen.models.right) },
    prompt: [...context.map((m) => m.content), input.prompt].join("\n\n"),
    params: input.params ?? {},
    judges: autoJudges.map(called),
    blind: blind?.price ?? null,
  });
  const id = await newItemId(c.env, "comparison");
  const holdId = await reserveSpend(c, {
    itemId: id,
    what: "comparison",
    estimate: blind ? { ...estimate, unpriced: [...new Set([...blind.unpriced, ...estimate.unpriced])] } : estimate,
    hidden: input.blind,
    blindPrices: blind?.price ?? null,
    // Automatic judges are asked after the vote, whenever it comes: their part stays set aside until then, today at least.
    workMs: Math.max(
      workMs(c.env, comparisonCallsMs(arena.timeoutMs)),
      autoJudges.length ? utcDay().resetsAt - Date.now() : 0,
    ),
  });
  const outcome = await withHold(
    c.env,
    holdId,
    async (holdId) =>
      await comparisonRoom(c.env, id).start({
        id,
        prompt: input.prompt,
        models: chosen.models,
        category: input.category ?? null,
        blind: input.blind,
        mode: chosen.mode,
        modeNote: chosen.modeNote,
        params: redacted ? { ...input.params, redactions: redacted.redactions } : (input.params ?? {}),
        maxTurns: arena.maxTurns,
        timeoutMs: arena.timeoutMs,
        autoJudges,
        holdId,
        targets: targetsOf(contestants),
        ...(context.length ? { context } : {}),
        ...(thread ? { thread } : {}),
      }),
  );
  const started = unwrap(outcome);
  return {
    ...started,
    mode: chosen.mode,
    modeNote: chosen.modeNote,
    ...(redacted ? { redactions: redacted.redactions } : {}),
  };
}
