/** The stub's memory: scripted steps and recorded calls per model, and calls held until released. */
import type { RecordedCall, Step } from "./types";

export class StubState {
  private readonly steps = new Map<string, Step[]>();
  private readonly calls = new Map<string, RecordedCall[]>();
  private readonly holds = new Map<string, Set<() => void>>();
  private readonly rules = new Map<string, { pattern: RegExp; step: Step }[]>();

  script(model: string, steps: Step[]) {
    this.steps.set(model, [...(this.steps.get(model) ?? []), ...steps]);
  }

  /** A lasting rule: a call to `model` whose request body matches `pattern` takes `step` (when no scripted step is left). */
  rule(model: string, pattern: string, step: Step) {
    this.rules.set(model, [...(this.rules.get(model) ?? []), { pattern: new RegExp(pattern), step }]);
  }

  /** The next scripted step for this model, else the first rule its request matches, else the default (an empty step). */
  nextStep(model: string, request = ""): Step {
    const scripted = this.steps.get(model)?.shift();
    if (scripted) return scripted;
    return this.rules.get(model)?.find((r) => r.pattern.test(request))?.step ?? {};
  }

  record(model: string, call: RecordedCall) {
    this.calls.set(model, [...(this.calls.get(model) ?? []), call]);
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
