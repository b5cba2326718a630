/**
 * How far each judge can be trusted, measured against the people who voted on the same comparisons:
 * agreement (ties as their own class, and without ties), Cohen's kappa, how often its verdict flips
 * with the order of the answers, and its preferences for its own maker and for longer answers.
 */
import type { CalibrationRow } from "../db/judge-queries";
import type { SideVerdict } from "../shared/arena";

export interface Preference {
  /** percentage of the judge's decisive verdicts (or people's) that took the preferred side; null with none */
  judge: number | null;
  humans: number | null;
  /** comparisons the figure is over */
  count: number;
}

export interface JudgeCalibration {
  judgeModelId: string;
  /** comparisons it judged */
  judged: number;
  /** of those, comparisons with a counted human vote */
  withHumans: number;
  /** percentage agreeing with people, ties a class of their own */
  agreement: number | null;
  /** percentage agreeing where neither the judge nor the person called a tie, over `decisive` comparisons */
  agreementDecisive: number | null;
  decisive: number;
  kappa: number | null;
  /** percentage of its verdicts that changed when the answers swapped places */
  flipRate: number | null;
  /** picking the side made by its own maker, over comparisons where exactly one side is */
  selfPreference: Preference;
  /** picking the longer answer */
  lengthPreference: Preference;
}

const CLASSES: SideVerdict[] = ["left", "right", "tie"];
const pct = (part: number, whole: number) => (whole ? (part / whole) * 100 : null);

/** The maker of a model, as far as its id says (`provider:name`); imported names have none. */
function makerOf(modelId: string): string | null {
  const at = modelId.indexOf(":");
  const provider = at > 0 ? modelId.slice(0, at) : null;
  return provider === "openai" || provider === "anthropic" || provider === "google" ? provider : null;
}

export function cohensKappa(pairs: [SideVerdict, SideVerdict][]): number | null {
  if (!pairs.length) return null;
  const n = pairs.length;
  const observed = pairs.filter(([a, b]) => a === b).length / n;
  const expected = CLASSES.reduce(
    (sum, k) => sum + (pairs.filter(([a]) => a === k).length / n) * (pairs.filter(([, b]) => b === k).length / n),
    0,
  );
  return expected === 1 ? null : (observed - expected) / (1 - expected);
}

function preference(rows: CalibrationRow[], preferred: (r: CalibrationRow) => SideVerdict | null): Preference {
  const relevant = rows.filter((r) => preferred(r) !== null);
  const judgeDecisive = relevant.filter((r) => r.verdict !== "tie");
  const humanDecisive = relevant.filter((r) => r.human !== null && r.human !== "tie");
  return {
    judge: pct(judgeDecisive.filter((r) => r.verdict === preferred(r)).length, judgeDecisive.length),
    humans: pct(humanDecisive.filter((r) => r.human === preferred(r)).length, humanDecisive.length),
    count: relevant.length,
  };
}

export function calibrate(rows: CalibrationRow[]): JudgeCalibration[] {
  const byJudge = new Map<string, CalibrationRow[]>();
  for (const r of rows) byJudge.set(r.judgeModelId, [...(byJudge.get(r.judgeModelId) ?? []), r]);
  return [...byJudge.entries()]
    .map(([judgeModelId, own]) => {
      const paired = own
        .filter((r) => r.human !== null)
        .map((r) => [r.verdict, r.human!] as [SideVerdict, SideVerdict]);
      const decisive = paired.filter(([j, h]) => j !== "tie" && h !== "tie");
      const maker = makerOf(judgeModelId);
      return {
        judgeModelId,
        judged: own.length,
        withHumans: paired.length,
        agreement: pct(paired.filter(([j, h]) => j === h).length, paired.length),
        agreementDecisive: pct(decisive.filter(([j, h]) => j === h).length, decisive.length),
        decisive: decisive.length,
        kappa: cohensKappa(paired),
        flipRate: pct(own.filter((r) => r.flipped).length, own.length),
        selfPreference: preference(own, (r) => {
          const [l, rt] = [makerOf(r.leftModelId) === maker, makerOf(r.rightModelId) === maker];
          return maker === null || l === rt ? null : l ? "left" : "right";
        }),
        lengthPreference: preference(own, (r) =>
          r.leftChars === r.rightChars ? null : r.leftChars > r.rightChars ? "left" : "right",
        ),
      };
    })
    .sort((a, b) => (a.judgeModelId < b.judgeModelId ? -1 : 1));
}
