/**
 * The call store's counts kept in memory: calls per kind and status, per contestant, per provider still to make,
 * the spend so far and the most the open items may still cost. Progress is read on every call's end and on every
 * client's poll, and counting the calls' rows each time made every read as slow as the evaluation is large; so the
 * counts are read from storage once (when the room loads, and after a change to many calls at once) and moved
 * call by call after that. Their size is the contestants' and providers', never the calls'.
 */
import type { CallStatus } from "./call-store";

/** What the counts need to know of a call. */
export interface TalliedCall {
  kind: string;
  model: string;
  provider: string;
  first: string | null;
  second: string | null;
}

/** Every count read from storage at once (CallStore.reload). */
export interface TallySource {
  /** every contestant that answers (a council review counts for each whose answer it ranks) */
  contestants: string[];
  counts: { kind: string; status: CallStatus; n: number }[];
  perContestant: { contestant: string; kind: string; status: CallStatus; n: number }[];
  pendingPerProvider: { provider: string; n: number }[];
  spend: { usd: number; unknown: number };
  openItemsUsd: number;
}

const key = (...parts: string[]) => parts.join("\u0000");

export class CallTally {
  private readonly byStatus = new Map<string, { kind: string; status: CallStatus; n: number }>();
  private readonly byContestant = new Map<
    string,
    { contestant: string; kind: string; status: CallStatus; n: number }
  >();
  private readonly pending = new Map<string, number>();
  private readonly contestants: string[];
  spend = { usd: 0, unknown: 0 };
  openItemsUsd = 0;

  constructor(source: TallySource) {
    this.contestants = source.contestants;
    for (const c of source.counts) this.byStatus.set(key(c.kind, c.status), { ...c });
    for (const c of source.perContestant) this.byContestant.set(key(c.contestant, c.kind, c.status), { ...c });
    for (const p of source.pendingPerProvider) this.pending.set(p.provider, p.n);
    this.spend = { ...source.spend };
    this.openItemsUsd = source.openItemsUsd;
  }

  /** `call` went from one status to another. */
  move(call: TalliedCall, from: CallStatus, to: CallStatus): void {
    this.add(call, from, -1);
    this.add(call, to, 1);
  }

  /** What a finished call paid, counted as the store's spend query counts it. */
  paid(costUsd: number | null, tokensIn: number | null, tokensOut: number | null): void {
    this.spend.usd += costUsd ?? 0;
    if (costUsd === null && (tokensIn ?? 0) + (tokensOut ?? 0) > 0) this.spend.unknown++;
  }

  counts() {
    return [...this.byStatus.values()].filter((c) => c.n > 0);
  }

  perContestant() {
    return [...this.byContestant.values()].filter((c) => c.n > 0);
  }

  pendingProviders(): string[] {
    return [...this.pending]
      .filter(([, n]) => n > 0)
      .map(([p]) => p)
      .sort();
  }

  /**
   * Whom a call counts for: an answer its contestant, a judge call both contestants it compares, a council review
   * every contestant whose answer it ranks (all but the reviewer's own), as CallStore.reload counts them.
   */
  private contestantsOf(call: TalliedCall): string[] {
    if (call.kind === "answer") return [call.model];
    if (call.kind === "review") return this.contestants.filter((c) => c !== call.model);
    return [call.first ?? "", call.second ?? ""];
  }

  private add(call: TalliedCall, status: CallStatus, d: number) {
    const s = this.byStatus.get(key(call.kind, status));
    if (s) s.n += d;
    else this.byStatus.set(key(call.kind, status), { kind: call.kind, status, n: d });
    for (const contestant of this.contestantsOf(call)) {
      const k = key(contestant, call.kind, status);
      const c = this.byContestant.get(k);
      if (c) c.n += d;
      else this.byContestant.set(k, { contestant, kind: call.kind, status, n: d });
    }
    if (status === "pending") this.pending.set(call.provider, (this.pending.get(call.provider) ?? 0) + d);
  }
}
