/**
 * A shard room's line to its parent (evaluation/parent.ts): its reports (status, progress, the calls that failed
 * since the last one), pushed as they change and read by the parent's alarm too, and the 429s it meets, which the
 * parent hands to the other shards so a provider's back-off holds over the whole evaluation. A push that fails is
 * logged and left: the parent's next look reads the shard's state as it is by then.
 */
import type { EvaluationFailure, EvaluationProgress } from "../../shared/evaluation";
import { logError } from "../log";
import type { EvaluationRecord } from "./record";
import type { ShardReport } from "./shard-reports";

export interface LinkHost {
  env: Env;
  record(): EvaluationRecord | null;
  /** the room's last event number: later reports have higher ones */
  lastSeq(): number;
  progress(): EvaluationProgress;
}

export class ParentLink {
  private unreported: EvaluationFailure[] = [];
  private trailing: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly host: LinkHost) {}

  /** A failed call, for the parent to announce with the next report. */
  failed(failure: EvaluationFailure): void {
    if (this.host.record()?.shard) this.unreported.push(failure);
  }

  /** Where this shard stands now; the failures it carries are not sent again. */
  report(): ShardReport {
    const r = this.host.record()!;
    return {
      seq: this.host.lastSeq(),
      status: r.status,
      error: r.error,
      progress: this.host.progress(),
      failures: this.unreported.splice(0),
    };
  }

  /** Tells the parent where this shard stands. */
  send(): void {
    this.cancelLater();
    const r = this.host.record();
    if (!r?.shard) return;
    const index = r.shard.index;
    this.parent(r.id)
      .takeShardReport(index, this.report())
      .catch((err: unknown) => logError(`evaluation ${r.id}: shard ${index} could not report:`, err));
  }

  /**
   * Progress held back by the room's pace of announcements: the parent reads a shard's counts from its reports
   * only, so the last change before a quiet spell must reach it too, `delayMs` from now.
   */
  later(delayMs: number, announce: () => void): void {
    if (!this.host.record()?.shard) return;
    this.trailing ??= setTimeout(() => {
      this.trailing = null;
      announce();
    }, delayMs);
  }

  /** This shard met a 429 from `provider`: the parent tells the other shards. */
  backOff(provider: string, untilMs: number): void {
    const r = this.host.record();
    if (!r?.shard) return;
    this.parent(r.id)
      .backOff(provider, untilMs, r.shard.index)
      .catch((err: unknown) => logError(`evaluation ${r.id}: a shard's back-off did not reach its parent:`, err));
  }

  private cancelLater() {
    if (this.trailing !== null) clearTimeout(this.trailing);
    this.trailing = null;
  }

  private parent(evaluationId: string) {
    const ns = this.host.env.EVALUATION_ROOM;
    return ns.get(ns.idFromName(evaluationId));
  }
}
