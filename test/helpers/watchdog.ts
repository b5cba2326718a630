/** Drives a room's watchdog without waiting out a real deadline: move the deadline into the past, then fire the alarm. */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { STEP_WATCH_KEY, type StepWatch } from "../../worker/rooms/room";
import { poll } from "./stub-client";

/** Makes the step under way overdue, as if its whole allowance had passed; returns the deadline it had. */
export async function passDeadline(room: DurableObjectStub): Promise<StepWatch> {
  return runInDurableObject(room, (_instance, state) => {
    const watch = state.storage.kv.get<StepWatch>(STEP_WATCH_KEY);
    if (!watch) throw new Error("the room has no step under way");
    state.storage.kv.put(STEP_WATCH_KEY, { ...watch, deadline: Date.now() - 1 });
    return watch;
  });
}

/**
 * Fires the room's alarm now. An alarm that resumes a step goes on watching it until it ends, so the
 * returned promise settles only then: start it, wait for what it should cause, and await it at the end.
 */
export function fireAlarm(room: DurableObjectStub): Promise<boolean> {
  return runDurableObjectAlarm(room);
}

/** Waits until the room drives no step: the one under way ended, done or failed. */
export async function waitForStepEnd(room: DurableObjectStub, timeoutMs = 15_000): Promise<void> {
  const driving = () =>
    runInDurableObject(room, (instance) => (instance as unknown as { running: unknown }).running !== null);
  await poll(driving, (busy) => !busy, timeoutMs, "the room's step to end");
}
