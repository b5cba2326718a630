import { createSignal } from "solid-js";
import { messageOf } from "./api";

/**
 * One action at a time against the API: `busy` names the one running, `error` holds the message of the last
 * that failed. `act` runs one and resolves to its result, or to undefined when it threw.
 */
export function createActions() {
  const [busy, setBusy] = createSignal<string | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const act = async <T>(name: string, work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(name);
    setError(null);
    try {
      return await work();
    } catch (err) {
      setError(messageOf(err));
      return undefined;
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, setError, act };
}
