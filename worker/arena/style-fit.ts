/** Chatbot Arena's style control over the battles that carry style features: ratings with style held equal, and β per feature. */
import type { FeaturedBattle } from "../db/style-queries";
import type { Anchor } from "../rating/bradley-terry";
import {
  bootstrapStyleControlledSliced,
  fitStyleControlledSliced,
  oddsFactorPerStd,
  type StyleBattle,
} from "../rating/style-control";
import type { Sliced, Slicer } from "../rating/work-slices";
import { STYLE_FEATURES, styleCountsFromConvMetadata, styleDiffs } from "../rating/style-features";
import { BOOTSTRAP_SEED } from "./leaderboard";
import { denseIndex } from "../shared/memo";

export interface StyleResult {
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

/** Collects battles page by page, then fits and bootstraps. */
export class StyleFitter {
  private readonly index = new Map<string, number>();
  private readonly battles: StyleBattle[] = [];
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
        diffs: styleDiffs(counts.a, counts.b),
      });
    }
  }

  /** The fit and its bootstrap, in slices that yield (rating/work-slices.ts). */
  *fit(rounds: number, anchor: { modelId: string; rating: number } | null, slicer: Slicer): Sliced<StyleResult> {
    const n = this.index.size;
    const at = anchor ? this.index.get(anchor.modelId) : undefined;
    const pinned: Anchor | null = anchor && at !== undefined ? { index: at, rating: anchor.rating } : null;
    const fit = yield* fitStyleControlledSliced(n, this.battles, { anchor: pinned }, slicer);
    const ci =
      rounds > 0
        ? yield* bootstrapStyleControlledSliced(
            n,
            this.battles,
            { rounds, seed: BOOTSTRAP_SEED, anchor: pinned },
            slicer,
          )
        : null;
    return {
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

  private at(model: string): number {
    return denseIndex(this.index, model);
  }
}
