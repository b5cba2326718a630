/**
 * Chatbot Arena's style control over the battles that carry style features: ratings with style held equal, and
 * β per feature — as arena-rank fits it today (contextual Bradley–Terry, sandwich intervals, pair reweighting),
 * or as FastChat's 2024 notebooks did (its features, penalty and bootstrap).
 */
import type { FeaturedBattle } from "../db/style-queries";
import type { Anchor } from "../rating/bradley-terry";
import {
  bootstrapStyleControlledSliced,
  fitStyleControlledSliced,
  oddsFactorPerStd,
  type StyleBattle,
} from "../rating/style-control";
import type { Sliced, Slicer } from "../rating/work-slices";
import { contextualStyleFeatures, fitContextualBradleyTerrySliced } from "../rating/contextual-bt";
import { STYLE_FEATURES, type StyleCounts, styleCountsFromConvMetadata, styleDiffs } from "../rating/style-features";
import type { StyleMethod } from "../shared/constants";
import { BOOTSTRAP_SEED } from "./leaderboard";
import { denseIndex } from "../shared/memo";

export interface StyleResult {
  method: StyleMethod;
  models: { modelId: string; rating: number | null; lower: number | null; upper: number | null }[];
  features: {
    name: (typeof STYLE_FEATURES)[number];
    beta: number;
    lower: number | null;
    upper: number | null;
    oddsFactor: number;
    std: number;
  }[];
  /** battles in the fit, and battles of the slice left out because they carry no style features */
  battles: number;
  withoutFeatures: number;
  anchor: { modelId: string; rating: number } | null;
}

const finite = (x: number) => (Number.isFinite(x) ? x : null);

/** arena-rank's style features, in its order: sum_assistant_tokens, header_count, bold_count, list_count. */
const ARENA_RANK_FEATURES = [
  "tokens",
  "headers",
  "bold",
  "lists",
] as const satisfies readonly (typeof STYLE_FEATURES)[number][];

/** Collects battles page by page, then fits and bootstraps. */
export class StyleFitter {
  private readonly index = new Map<string, number>();
  /** each battle's style counts per side: each method derives its own features from them */
  private readonly battles: (Omit<StyleBattle, "diffs"> & { counts: { a: StyleCounts; b: StyleCounts } })[] = [];
  private withoutFeatures = 0;

  add(page: FeaturedBattle[]): void {
    for (const b of page) {
      const counts = b.convMetadata
        ? styleCountsFromConvMetadata(JSON.parse(b.convMetadata) as Record<string, unknown>)
        : null;
      if (!counts) {
        this.withoutFeatures++;
        continue;
      }
      this.battles.push({
        a: this.at(b.modelA),
        b: this.at(b.modelB),
        winner: b.winner,
        counts,
      });
    }
  }

  /** The fit and its intervals, in slices that yield (rating/work-slices.ts). */
  *fit(
    method: StyleMethod,
    rounds: number,
    anchor: { modelId: string; rating: number } | null,
    slicer: Slicer,
  ): Sliced<StyleResult> {
    const n = this.index.size;
    const at = anchor ? this.index.get(anchor.modelId) : undefined;
    const pinned: Anchor | null = anchor && at !== undefined ? { index: at, rating: anchor.rating } : null;
    if (method === "arena-rank") return yield* this.fitArenaRank(n, pinned, anchor, slicer);
    const battles: StyleBattle[] = this.battles.map((b) => ({ ...b, diffs: styleDiffs(b.counts.a, b.counts.b) }));
    const fit = yield* fitStyleControlledSliced(n, battles, { anchor: pinned }, slicer);
    const ci =
      rounds > 0
        ? yield* bootstrapStyleControlledSliced(n, battles, { rounds, seed: BOOTSTRAP_SEED, anchor: pinned }, slicer)
        : null;
    return {
      method,
      models: [...this.index].map(([modelId, i]) => ({
        modelId,
        rating: finite(fit.ratings[i]),
        lower: ci ? finite(ci.lower[i]) : null,
        upper: ci ? finite(ci.upper[i]) : null,
      })),
      features: STYLE_FEATURES.map((name, k) => ({
        name,
        beta: fit.beta[k],
        lower: ci ? finite(ci.betaLower[k]) : null,
        upper: ci ? finite(ci.betaUpper[k]) : null,
        oddsFactor: oddsFactorPerStd(fit.beta[k]),
        std: fit.featureStd[k],
      })),
      battles: this.battles.length,
      withoutFeatures: this.withoutFeatures,
      anchor: pinned ? anchor : null,
    };
  }

  /**
   * arena-rank's ContextualBradleyTerry: its four features in its order, (a − b)/(a + b) each, standardised;
   * battles weighted 1 / max(pair battles, 50), normalised to mean 1; sandwich intervals. Dense in models and
   * features, per battle in its passes: in slices like the rest.
   */
  private *fitArenaRank(
    n: number,
    pinned: Anchor | null,
    anchor: { modelId: string; rating: number } | null,
    slicer: Slicer,
  ): Sliced<StyleResult> {
    const features = ARENA_RANK_FEATURES;
    const fit = yield* fitContextualBradleyTerrySliced(
      n,
      this.battles.map((b) => ({
        a: b.a,
        b: b.b,
        winner: b.winner,
        features: contextualStyleFeatures(
          features.map((f) => b.counts.a[f]),
          features.map((f) => b.counts.b[f]),
        ),
      })),
      { reweight: true, anchor: pinned },
      slicer,
    );
    return {
      method: "arena-rank" as const,
      models: [...this.index].map(([modelId, i]) => ({
        modelId,
        rating: finite(fit.ratings[i]),
        lower: finite(fit.lower[i]),
        upper: finite(fit.upper[i]),
      })),
      features: features.map((name, k) => ({
        name,
        beta: fit.coefficients[k],
        lower: finite(fit.coefficientLower[k]),
        upper: finite(fit.coefficientUpper[k]),
        oddsFactor: Math.exp(fit.coefficients[k]),
        std: fit.featureStd[k],
      })),
      battles: this.battles.length,
      withoutFeatures: this.withoutFeatures,
      anchor: pinned ? anchor : null,
    };
  }

  private at(model: string): number {
    return denseIndex(this.index, model);
  }
}
