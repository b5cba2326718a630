/** The stub's memory: scripted steps and recorded calls per model, and calls held until released. */
import type { RecordedCall, Step } from "./types";

export class StubState {
  private readonly steps = new Map<string, Step[]>();
  private readonly calls = new Map<string, RecordedCall[]>();
  private readonly holds = new Map<string, Set<() => void>>();

  script(model: string, steps: Step[]) {
    this.steps.set(model, [...(this.steps.get(model) ?? []), ...steps]);
  }

  /** The next scripted step for this model, or the default (an empty step). */
  nextStep(model: string): Step {
    return this.steps.get(model)?.shift() ?? {};
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
