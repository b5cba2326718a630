/** The stub's memory: scripted steps and recorded calls per model, and calls held until released. */
import type { RecordedCall, Step } from "./types";

export class StubState {
  private readonly steps = new Map<string, Step[]>();
  private readonly calls = new Map<string, RecordedCall[]>();
  private readonly holds = new Map<string, Set<() => void>>();
  private readonly rules = new Map<string, { pattern: RegExp; step: Step; left: number }[]>();
  /** the place of the last arrival or close in the order of both (RecordedCall's `opened` and `closed`) */
  private moment = 0;
  /** models with a call open now, one entry per call */
  private readonly open: string[] = [];
  /** per model-name prefix asked about: the most calls open at once */
  private readonly peaks = new Map<string, number>();

  script(model: string, steps: Step[]) {
    this.steps.set(model, [...(this.steps.get(model) ?? []), ...steps]);
  }

  /**
   * A lasting rule: a call to `model` whose request body matches `pattern` takes `step` (when no scripted step is
   * left), for the next `times` such calls (for good when not given).
   */
  rule(model: string, pattern: string, step: Step, times = Number.POSITIVE_INFINITY) {
    this.rules.set(model, [...(this.rules.get(model) ?? []), { pattern: new RegExp(pattern), step, left: times }]);
  }

  /** The next scripted step for this model, else the first rule its request matches, else the default (an empty step). */
  nextStep(model: string, request = ""): Step {
    const scripted = this.steps.get(model)?.shift();
    if (scripted) return scripted;
    const rule = this.rules.get(model)?.find((r) => r.left > 0 && r.pattern.test(request));
    if (!rule) return {};
    rule.left--;
    return rule.step;
  }

  /** The next place in the order of arrivals and closes. */
  tick(): number {
    return ++this.moment;
  }

  record(model: string, call: RecordedCall) {
    this.calls.set(model, [...(this.calls.get(model) ?? []), call]);
  }

  /** A call to `model` arrived; returns what to call once it is over (its response closed). */
  began(model: string): () => void {
    this.open.push(model);
    for (const prefix of [...this.peaks.keys(), ...prefixesOf(model)]) {
      const now = this.open.filter((m) => m.startsWith(prefix)).length;
      this.peaks.set(prefix, Math.max(this.peaks.get(prefix) ?? 0, now));
    }
    return () => {
      const at = this.open.indexOf(model);
      if (at >= 0) this.open.splice(at, 1);
    };
  }

  /** The most calls open at once to models whose names start with `prefix`. */
  peak(prefix: string): number {
    return this.peaks.get(prefix) ?? 0;
  }

  callsFor(model: string): RecordedCall[] {
    return this.calls.get(model) ?? [];
  }

  /** Resolves true on release, false when `gone` settles first (the client went away). */
  hold(key: string, gone: Promise<void>): Promise<boolean> {
    const waiters = this.holds.get(key) ?? new Set<() => void>();
    this.holds.set(key, waiters);
    return new Promise((resolve) => {
      const release = () => resolve(true);
      waiters.add(release);
      void gone.then(() => {
        waiters.delete(release);
        resolve(false);
      });
    });
  }

  heldCount(key: string): number {
    return this.holds.get(key)?.size ?? 0;
  }

  /** Lets every call held on `key` go on; returns how many there were. */
  release(key: string): number {
    const waiters = [...(this.holds.get(key) ?? [])];
    this.holds.delete(key);
    for (const release of waiters) release();
    return waiters.length;
  }
}

/** Every prefix of a model name ending at a hyphen, and the name itself: what `peak` may be asked about. */
function prefixesOf(model: string): string[] {
  const out = [model];
  for (let i = model.indexOf("-"); i >= 0; i = model.indexOf("-", i + 1)) out.push(model.slice(0, i + 1));
  return out;
}
