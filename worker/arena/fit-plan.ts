/**
 * Where a leaderboard's Bradley–Terry fit runs. A small fit runs on the request (a few ms); a larger one runs in
 * a FitRoom, in slices that yield, while the leaderboard says "computing"; past the ceiling there is no fit at
 * all, and the response says why. Bootstrap rounds over very many models are cut down: each round is a whole
 * refit, and the intervals' percentiles need far fewer rounds than the ratings need precision.
 */
import type { Slice } from "../db/leaderboard-queries";
import type { INTERVAL_METHODS } from "../shared/constants";

/** Fits this small (models, and models × (rounds + 1)) cost a few ms, so the request itself runs them. */
export const INLINE_FIT_MODELS = 24;
const INLINE_FIT_WORK = 2_500;

/** Past this many rated models a fit runs at most LARGE_FIT_ROUNDS bootstrap rounds. */
export const FULL_BOOTSTRAP_MODELS = 1_000;
export const LARGE_FIT_ROUNDS = 20;

export type FitPlan =
  | { where: "inline"; rounds: number }
  | { where: "room"; rounds: number; notice: string | null }
  | { where: "refused"; notice: string };

export function fitPlan(models: number, rounds: number, maxModels: number): FitPlan {
  if (models > maxModels)
    return {
      where: "refused",
      notice:
        `This view has ${models} rated models, more than the ${maxModels} one Bradley–Terry fit may take (QUORUM_MAX_FIT_MODELS), so it shows no ratings. ` +
        "Narrow it with a category, or raise QUORUM_MAX_FIT_MODELS if the server has the memory.",
    };
  if (models <= INLINE_FIT_MODELS && models * (rounds + 1) <= INLINE_FIT_WORK) return { where: "inline", rounds };
  if (models > FULL_BOOTSTRAP_MODELS && rounds > LARGE_FIT_ROUNDS)
    return {
      where: "room",
      rounds: LARGE_FIT_ROUNDS,
      notice: `Intervals come from ${LARGE_FIT_ROUNDS} bootstrap rounds, not ${rounds}: a fit over more than ${FULL_BOOTSTRAP_MODELS} models runs at most ${LARGE_FIT_ROUNDS}.`,
    };
  return { where: "room", rounds, notice: null };
}

/** How a fit's intervals are made, as the leaderboard query asks. */
export interface IntervalMethod {
  /** arena-rank's closed-form sandwich, or the seeded bootstrap of `rounds` rounds */
  ci: (typeof INTERVAL_METHODS)[number];
  rounds: number;
  /** arena-rank's inverse pair-frequency weights, in the fit and its intervals */
  reweight: boolean;
}

/** What a FitRoom (rooms/fit-room.ts) is asked to fit. */
export interface FitRequest extends IntervalMethod {
  slice: Slice;
  /**
   * The anchor's model, pinned at 0 here: an anchor's rating moves every rating and every bootstrap round by
   * the same amount, so the caller adds it, and one room and one fit serve every rating of an anchor.
   */
  anchorModel: string | null;
  version: string;
}

/** The room of one view: the same slice, interval method and anchor share a fit. */
export function fitRoomName(request: Omit<FitRequest, "version">): string {
  const { slice, ci, rounds, reweight, anchorModel } = request;
  // The plain view keeps the name it had before the interval methods, so its room and stored fit carry over.
  const method = ci === "bootstrap" && !reweight ? {} : { ci, reweight };
  return JSON.stringify({ slice, rounds: ci === "bootstrap" ? rounds : 0, anchor: anchorModel, ...method });
}

/**
 * The room that replays a slice's online Elo and TrueSkill when a read finds too many battles to replay itself
 * (rooms/fit-room.ts `replayOnline`): one per slice, whatever the intervals asked, apart from the fit rooms.
 */
export function replayRoomName(slice: Slice): string {
  return JSON.stringify({ replay: slice });
}
