/**
 * The judge panel: judges asked to compare the two sides, each twice with the sides swapped. While names are
 * hidden judges wait for the first vote, and their verdicts are shown and written only once names are out.
 */
import { saveJudgeVerdict } from "../../db/arena-queries";
import { openDb } from "../../db/queries";
import { insertSpendEntry } from "../../db/spend-queries";
import { parseJudgeOutput } from "../../judges/parse";
import { buildJudgeRequest, type JudgedTurn } from "../../judges/prompt";
import { combineOrders } from "../../judges/verdict";
import { costOf } from "../../providers/pricing";
import { isHidden, type JudgeRecord, judgeView, panelOf } from "../comparison-record";
import { logCall } from "../log";
import { askStructured, type Usage } from "../structured-call";
import { targetOf, withPresetSystem } from "../targets";
import type { ComparisonContext } from "./context";

const SELF_JUDGE = "This judge is one of the two sides, and a model doesn't judge its own answer, so it was left out.";

export class JudgePanel {
  constructor(private readonly ctx: ComparisonContext) {}

  /** Judges still to ask; those of a hidden comparison wait for its first vote. */
  toAsk(): JudgeRecord[] {
    const r = this.ctx.record;
    if (isHidden(r)) return [];
    return r.judges.filter((j) => j.status === "pending" || j.status === "running");
  }

  /** True while judges wait for the first vote, so the money set aside for them stays set aside. */
  waitingForVote(): boolean {
    const r = this.ctx.record;
    return r.revealedAt === null && (r.autoJudges.length > 0 || r.judges.some((j) => j.status === "pending"));
  }

  /** Adds the judges not on the panel yet, and has them asked once names are out. */
  async add(judges: string[]): Promise<void> {
    const r = this.ctx.record;
    const fresh = [...new Set(judges)].filter((j) => !r.judges.some((x) => x.judgeModelId === j));
    if (!fresh.length) return;
    for (const judgeModelId of fresh)
      r.judges.push({
        judgeModelId,
        status: "pending",
        orders: [null, null],
        verdict: null,
        flipped: false,
        error: null,
        written: false,
      });
    const skipped = this.skipSelfJudges();
    this.ctx.save();
    if (r.revealedAt !== null) for (const j of skipped) await this.announce(j);
    if (this.toAsk().length) await this.ctx.wake();
  }

  /**
   * Once names are out, judges may be shown and asked: write and show the finished ones, leave out any that is
   * a side, then ask those that waited for the vote, or else the automatic panel.
   */
  async afterFirstVote(): Promise<void> {
    const r = this.ctx.record;
    this.skipSelfJudges();
    this.ctx.save();
    for (const j of r.judges.filter((x) => x.status === "done" || x.status === "failed")) await this.announce(j);
    if (!r.judges.length && r.autoJudges.length) await this.add(r.autoJudges);
    else if (this.toAsk().length) await this.ctx.wake();
  }

  /** Asks every judge still to ask, at once. */
  async askAll(generation: number): Promise<void> {
    await Promise.all(this.toAsk().map((j) => this.ask(generation, j)));
  }

  /** The watchdog gave up: a judge still to ask fails with `reason`. */
  async failStuck(reason: string): Promise<void> {
    for (const j of this.toAsk()) {
      Object.assign(j, { status: "failed", error: reason });
      this.ctx.save();
      if (this.ctx.record.revealedAt !== null) await this.announce(j);
    }
  }

  /** Once names are out, a judge that is one of the two sides is left out (a model doesn't judge its own answer). */
  private skipSelfJudges(): JudgeRecord[] {
    const r = this.ctx.record;
    if (isHidden(r)) return [];
    // A preset calls its model: a judge on a side's model judges that model's own answer, whatever its prompt.
    const called = (id: string) => targetOf(r.targets, id).modelId;
    const sides = [r.models.left, r.models.right];
    const selves = r.judges.filter(
      (j) =>
        j.status === "pending" &&
        (sides.includes(j.judgeModelId) || sides.map(called).includes(called(j.judgeModelId))),
    );
    for (const j of selves) Object.assign(j, { status: "failed", error: SELF_JUDGE });
    return selves;
  }

  /** Asks one judge twice, the left side shown first as A and then as B, one after the other. */
  private async ask(generation: number, j: JudgeRecord) {
    const { ctx } = this;
    const r = ctx.record;
    j.status = "running";
    ctx.save();
    const rules = ctx.rules();
    const target = targetOf(r.targets, j.judgeModelId);
    const ask = (turns: JudgedTurn[]) => {
      const request = buildJudgeRequest(turns);
      return askStructured(
        rules,
        { ...request, modelId: target.modelId, system: withPresetSystem(target, request.system), temperature: 0 },
        parseJudgeOutput,
      );
    };
    const started = Date.now();
    const first = await ask(r.turns.map((t) => ({ prompt: t.prompt, a: t.left.text, b: t.right.text })));
    const second = first.ok
      ? await ask(r.turns.map((t) => ({ prompt: t.prompt, a: t.right.text, b: t.left.text })))
      : null;
    // Paid for whatever happens next: judge calls have no row of their own to carry their cost.
    await this.keepSpend(target.modelId, [first.usage, ...(second ? [second.usage] : [])]);
    if (!ctx.current(generation)) return;
    const outcome = first.ok && second?.ok ? "done" : "failed";
    if (first.ok && second?.ok) {
      const { verdict, flipped } = combineOrders(first.value.winner, second.value.winner);
      Object.assign(j, {
        status: "done",
        verdict,
        flipped,
        orders: [
          { ...first.value, raw: first.raw },
          { ...second.value, raw: second.raw },
        ],
      });
    } else {
      const failed = first.ok ? second! : first;
      Object.assign(j, {
        status: "failed",
        error: failed.ok ? null : failed.error,
        orders: [first.ok ? { ...first.value, raw: first.raw } : null, null],
      });
    }
    ctx.save();
    logCall(ctx.env, {
      run: r.id,
      step: "judge",
      model: j.judgeModelId,
      status: outcome,
      latencyMs: Date.now() - started,
      attempts: 1,
      error: j.error,
    });
    if (r.revealedAt !== null) await this.announce(j);
  }

  private async keepSpend(modelId: string, usages: Usage[]) {
    const { ctx } = this;
    const tokensIn = usages.reduce<number | null>((n, u) => (u.tokensIn === null ? n : (n ?? 0) + u.tokensIn), null);
    const tokensOut = usages.reduce<number | null>((n, u) => (u.tokensOut === null ? n : (n ?? 0) + u.tokensOut), null);
    if (!tokensIn && !tokensOut) return;
    const costUsd = costOf(ctx.env, modelId, tokensIn ?? 0, tokensOut ?? 0);
    const r = ctx.record;
    const spent = r.judgeSpend;
    r.judgeSpend = {
      costUsd: spent.costUsd + (costUsd ?? 0),
      unknownCostCalls: spent.unknownCostCalls + (costUsd === null ? 1 : 0),
    };
    ctx.save();
    await insertSpendEntry(openDb(ctx.env.DB), {
      kind: "judge",
      itemId: r.id,
      modelId,
      tokensIn,
      tokensOut,
      costUsd,
      completedAt: Date.now(),
    });
  }

  /** Writes a finished verdict to D1 once, then shows the judge with the panel so far. */
  private async announce(j: JudgeRecord) {
    const { ctx } = this;
    const r = ctx.record;
    if (j.status === "done" && !j.written) {
      await saveJudgeVerdict(openDb(ctx.env.DB), r, j);
      j.written = true;
      ctx.save();
    }
    ctx.emit({ type: "judge.completed", judge: judgeView(j, r.targets), panel: panelOf(r) });
  }
}
