/**
 * The parent of an evaluation spread over shard rooms (evaluation/concurrency.ts says when and how many). The
 * parent is the room the API talks to: it keeps the record and status, and answers detail and socket as an
 * unsharded room does, but makes no call itself. Each shard is an EvaluationRoom of its own (named from the
 * evaluation's id and its index, shard-reports.ts) started with its items and its share of the providers' caps:
 * it runs them as any room does (its own call store and scheduler, resume after eviction, its calls' D1 rows, its
 * own part of the money set aside) and reports its progress here. The parent starts the shards, hands them pause,
 * resume, cancel and retry, adds their reports up, and ends once every shard has; its alarm looks at the shards
 * now and then and wakes one that lost its alarm (starting a shard is idempotent).
 */
import { splitHoldWrites } from "../../db/spend-queries";
import { itemShards } from "../../evaluation/concurrency";
import type { Write } from "../../db/statements";
import type { EvaluationStatus } from "../../shared/constants";
import type { EvaluationProgress } from "../../shared/evaluation";
import type { PromptSetItem } from "../../shared/prompt-set";
import { logError } from "../log";
import type { EvaluationRecord } from "./record";
import { outcomeOf, type ShardReport, type ShardState, shardEnded, shardRoomName } from "./shard-reports";

/** How often the parent's alarm looks at its shards while the evaluation runs. */
export const SHARD_CHECK_MS = 30_000;

const SHARDS_KEY = "shards";

/** What a shard is started with (EvaluationRoom.start's `shard` part). */
export interface ShardStart {
  index: number;
  of: number;
  roomCaps: Record<string, number>;
}

export interface ParentHost {
  env: Env;
  kv: SyncKvStorage;
  record(): EvaluationRecord;
  /** the items at these places in the prompt set, from the parent's storage */
  items(indices: number[]): (PromptSetItem & { maxUsd: number })[];
  /** a shard's failures and changed progress, to announce */
  reported(report: ShardReport): void;
  /** the shards' progress added up */
  progress(): EvaluationProgress;
  /** ends the evaluation (D1 holds every shard's calls by then: a shard reports its end once it is written) */
  finish(status: EvaluationStatus, error: string | null): Promise<void>;
  setAlarm(at: number): Promise<void>;
}

/** The id of shard `index`'s part of the money set aside by hold `holdId`. */
const partOf = (holdId: string, index: number) => `${holdId}/${index}`;

export class ShardParent {
  constructor(private readonly host: ParentHost) {}

  get states(): ShardState[] {
    const r = this.host.record();
    return (
      this.host.kv.get<ShardState[]>(SHARDS_KEY) ??
      Array.from({ length: r.shards?.length ?? 0 }, () => ({ started: false, report: null }))
    );
  }

  /**
   * The parent's alarm: starts a shard not started yet, wakes one that lost its alarm, reads where each stands, and
   * ends the evaluation once they all have; else looks again in SHARD_CHECK_MS.
   */
  async step(current: () => boolean): Promise<void> {
    const r = this.host.record();
    if (r.holdId && this.states.some((s) => !s.started)) await this.startAll(r.holdId, r.holdExpiresAt);
    await this.pull();
    if (!current() || r.status !== "running") return;
    await this.endIfAllEnded();
    if (r.status === "running") await this.host.setAlarm(Date.now() + SHARD_CHECK_MS);
  }

  /** A shard's report (its own push): kept and announced unless a newer one was; the end once every shard ended. */
  async reported(index: number, report: ShardReport): Promise<void> {
    if (this.take(index, report)) await this.endIfAllEnded();
  }

  private async endIfAllEnded(): Promise<void> {
    const r = this.host.record();
    if (r.status !== "running" || !this.states.every(shardEnded)) return;
    const { status, error } = outcomeOf(this.states, this.host.progress());
    await this.host.finish(status, error);
  }

  /**
   * The writes that hand the evaluation's hold to its shards, one part each for the most its items may cost (the
   * parts add up to the hold: the items' most is what was set aside), leaving the parent none to settle.
   */
  splitHold(holdId: string): Write[] {
    const parts = this.states.map((_, k) => ({
      id: partOf(holdId, k),
      usd: this.itemsOf(k).reduce((s, it) => s + it.maxUsd, 0),
    }));
    return splitHoldWrites(this.host.env.DB, holdId, parts);
  }

  /** Starts every shard not started yet; one that can't be reached now is left to the alarm's next look. */
  async startAll(holdId: string, holdExpiresAt: number): Promise<void> {
    const r = this.host.record();
    const shards = r.shards ?? [];
    for (const [k, state] of this.states.entries()) {
      if (state.started) continue;
      try {
        const items = this.itemsOf(k);
        const { version: _v, status: _s, error: _e, createdAt: _c, selfSkipped: _n, holdExpiresAt: _h, ...plan } = r;
        const { shards: _k, roomCaps: _caps, ...shared } = plan;
        const started = await this.shard(k).start({
          record: { ...shared, holdId: partOf(holdId, k), items: items.length },
          items,
          holdExpiresAt,
          shard: { index: k, of: shards.length, roomCaps: shards[k].caps },
        });
        if (!started.ok) throw new Error(`shard ${k} refused to start: ${started.message}`);
        this.update(k, { started: true });
        const report = await this.shard(k).kick();
        if (report) this.take(k, report);
      } catch (err) {
        logError(`evaluation ${r.id}: shard ${k} not started yet, the parent's alarm tries again:`, err);
      }
    }
  }

  /** Reads every shard's report now (after a control, before the parent decides anything from them). */
  async pull(): Promise<void> {
    await Promise.all(
      this.states.map(async (state, k) => {
        if (!state.started) return;
        try {
          const report = await this.shard(k).kick();
          if (report) this.take(k, report);
        } catch (err) {
          logError(`evaluation ${this.host.record().id}: shard ${k} did not answer:`, err);
        }
      }),
    );
  }

  /** Keeps a shard's report unless one it made later is already kept; true when kept. */
  private take(index: number, report: ShardReport): boolean {
    const states = this.states;
    const kept = states[index]?.report;
    if (!states[index] || (kept && kept.seq > report.seq)) return false;
    const { failures: _f, ...rest } = report;
    void _f;
    states[index] = { started: true, report: rest };
    this.host.kv.put(SHARDS_KEY, states);
    this.host.reported(report);
    return true;
  }

  /**
   * Hands a control to every started shard and reads their reports after it. A shard that refuses (already ended,
   * not paused) is left as it is.
   */
  async fanOut(control: (shard: ShardStub, index: number) => Promise<unknown>): Promise<void> {
    await Promise.all(
      this.states.map(async (state, k) => {
        if (state.started) await control(this.shard(k), k);
      }),
    );
    await this.pull();
  }

  /** A provider answered 429 to shard `from`: every other shard holds its calls to it back until `untilMs` too. */
  async backOff(provider: string, untilMs: number, from: number | null): Promise<void> {
    await Promise.all(
      this.states.map(async (state, k) => {
        if (!state.started || k === from) return;
        await this.shard(k)
          .backOff(provider, untilMs, k)
          .catch((err: unknown) => logError(`evaluation ${this.host.record().id}: shard ${k} missed a back-off:`, err));
      }),
    );
  }

  /** What a retry of the failed calls would make again and cost, over every shard. */
  async retryEstimate(): Promise<{ usd: number; calls: number; timeoutMs: number }[]> {
    return Promise.all(this.states.map((_, k) => this.shard(k).retryEstimate()));
  }

  /**
   * Retries the shards with failed calls, each with its part of hold `holdId` (split here for what each would
   * make again). Returns how many shards took it.
   */
  async retry(holdId: string, holdExpiresAt: number, flush: (writes: Write[]) => Promise<void>): Promise<number> {
    const estimates = await this.retryEstimate();
    const retried = estimates.flatMap((e, k) => (e.calls > 0 ? [{ k, usd: e.usd }] : []));
    if (!retried.length) return 0;
    await flush(
      splitHoldWrites(
        this.host.env.DB,
        holdId,
        retried.map(({ k, usd }) => ({ id: partOf(holdId, k), usd })),
      ),
    );
    let took = 0;
    for (const { k } of retried) {
      const res = await this.shard(k).retry(partOf(holdId, k), holdExpiresAt);
      if (res.ok) took++;
    }
    await this.pull();
    return took;
  }

  /** Shard `index`'s items, as the evaluation's weights split them (the same split every time). */
  private itemsOf(index: number) {
    const r = this.host.record();
    const split = itemShards(
      r.items,
      (r.shards ?? []).map((s) => s.weight),
    );
    return this.host.items(split.flatMap((shard, i) => (shard === index ? [i] : [])));
  }

  private update(index: number, change: Partial<ShardState>) {
    const states = this.states;
    states[index] = { ...states[index], ...change };
    this.host.kv.put(SHARDS_KEY, states);
  }

  private shard(index: number): ShardStub {
    const ns = this.host.env.EVALUATION_ROOM;
    return ns.get(ns.idFromName(shardRoomName(this.host.record().id, index)));
  }
}

type ShardStub = ReturnType<Env["EVALUATION_ROOM"]["get"]>;
