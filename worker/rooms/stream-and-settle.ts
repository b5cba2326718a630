/**
 * One streamed reply, start to end: stream it into its record, then settle it — record how it ended, keep it
 * (the room's storage and D1, in the order the caller's room needs), log the call and announce the end.
 * Council answers, the synthesis and arena sides all go through here; so should any new room's replies.
 */
import { REPLY_NOT_STARTED } from "../shared/run";
import { type CallLog, logCall } from "./log";
import { type Reply, type ReplyHooks, type ReplyRequest, type ReplyRules, streamReply } from "./reply";

/** What a reply streams into: an answer, a side, a synthesis. */
export interface StreamedRecord {
  status: string;
  text: string;
  latencyMs: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd?: number | null;
  truncated: boolean;
  error: string | null;
  /** kept by records that count their attempts (answers, sides), with the kind of failure that ended them */
  attempts?: number;
  errorKind?: string | null;
}

/** The fields of a reply not asked for yet, for a new answer, side or synthesis (a copy: records are mutated). */
export const pendingReply = () => ({ ...REPLY_NOT_STARTED });

export type DoneReply = Extract<Reply, { ok: true }>;

/** What the caller's room supplies: where the reply goes, and how it is kept and announced. */
export interface SettleHost<R extends StreamedRecord> {
  rules: ReplyRules;
  request: ReplyRequest;
  record: R;
  /** false once the work was retired (cancelled, superseded): from then on nothing is written or announced */
  current(): boolean;
  /** keeps the record in the room's storage */
  save(): void;
  /** an attempt started; `voided` when it throws away text already shown */
  announceStart(attempt: number, voided: boolean): void;
  announceDelta(text: string): void;
  /** a transient failure is about to be retried (reply.ts `onRetry`) */
  onRetry?: ReplyHooks["onRetry"];
  /** waited for once the reply ended, before anything is recorded (e.g. the row the reply's row refers to) */
  ready?: Promise<void>;
  /** fields only this kind of record keeps, from a reply that succeeded */
  recordDone?(reply: DoneReply): void;
  /** keeps the settled record: storage and D1, in the order this room needs */
  keep(reply: Reply): void | Promise<void>;
  /** the call's log line, less what the reply says */
  log: Pick<CallLog, "run" | "step" | "model">;
  /** announces the end, once the record is kept */
  announceEnd(reply: Reply): void;
}

/** Streams one reply into `host.record` and settles it; nothing is written once the work is no longer current. */
export async function streamAndSettle<R extends StreamedRecord>(host: SettleHost<R>): Promise<void> {
  const s = host.record;
  const reply = await streamReply(host.rules, host.request, {
    onAttempt: (attempt) => {
      if (!host.current()) return;
      const voided = s.text !== "";
      Object.assign(s, { status: "streaming", text: "", truncated: false, error: null });
      if (s.attempts !== undefined) Object.assign(s, { attempts: s.attempts + 1, errorKind: null });
      host.save();
      host.announceStart(attempt, voided);
    },
    onDelta: (text) => {
      if (!host.current()) return;
      s.text += text;
      host.announceDelta(text);
    },
    onRetry: host.onRetry,
  });
  await host.ready;
  if (!host.current()) return;
  if (reply.ok) {
    const gen = reply.generation;
    Object.assign(s, {
      status: "done",
      text: gen.text,
      latencyMs: reply.latencyMs,
      tokensIn: gen.tokensIn,
      tokensOut: gen.tokensOut,
      costUsd: reply.costUsd,
      truncated: gen.truncated,
      error: null,
    });
    host.recordDone?.(reply);
  } else {
    // A stream that broke for good keeps what arrived, marked truncated, so the person can still read it.
    Object.assign(s, {
      status: "failed",
      error: reply.error,
      latencyMs: reply.latencyMs,
      truncated: s.text.trim() !== "",
    });
    if (s.attempts !== undefined) s.errorKind = reply.kind;
  }
  await host.keep(reply);
  logCall(host.rules.env, {
    ...host.log,
    status: reply.ok ? "done" : "failed",
    latencyMs: s.latencyMs,
    attempts: s.attempts ?? reply.attempts,
    error: reply.ok ? undefined : reply.error,
  });
  host.announceEnd(reply);
}
