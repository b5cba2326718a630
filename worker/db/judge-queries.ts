/** What judge calibration reads: each judge verdict with its comparison's models and first counted human vote. */
import { sql } from "drizzle-orm";
import type { SideVerdict, VoteChoice } from "../shared/arena";
import type { Db } from "./queries";

/** One judge verdict with what calibration compares it to. */
export interface CalibrationRow {
  judgeModelId: string;
  verdict: SideVerdict;
  flipped: boolean;
  /** the comparison's first counted human vote, as a side (both-bad is a tie); null when nobody voted */
  human: SideVerdict | null;
  leftChars: number;
  rightChars: number;
  leftModelId: string;
  rightModelId: string;
}

const HUMAN: Record<VoteChoice, SideVerdict> = { left: "left", right: "right", tie: "tie", "both-bad": "tie" };

export async function calibrationRows(db: Db): Promise<CalibrationRow[]> {
  const rows = await db.all<{
    judgeModelId: string;
    verdict: SideVerdict;
    flipped: number;
    leftChars: number;
    rightChars: number;
    leftModelId: string;
    rightModelId: string;
    human: VoteChoice | null;
  }>(sql`SELECT jv.judge_model_id AS judgeModelId, jv.verdict, jv.flipped, jv.left_chars AS leftChars, jv.right_chars AS rightChars,
      c.model1_id AS leftModelId, c.model2_id AS rightModelId,
      (SELECT mv.choice FROM model_votes mv WHERE mv.comparison_id = jv.comparison_id AND coalesce(mv.flags, '[]') = '[]'
       ORDER BY mv.created_at, mv.id LIMIT 1) AS human
    FROM judge_verdicts jv JOIN comparisons c ON c.id = jv.comparison_id`);
  return rows.map((r) => ({ ...r, flipped: r.flipped === 1, human: r.human ? HUMAN[r.human] : null }));
}
