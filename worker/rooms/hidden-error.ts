/**
 * A provider's own error text often names the model or its maker, and its wording differs by vendor, so
 * while names are hidden a failed side or label says what happened in general terms, by kind; the real
 * reason shows once names are revealed. Reasons of our own that name no model (the watchdog's, a review
 * that twice missed the format) are shown as they are.
 */
import { formatMs } from "./limits";

export interface HiddenWording {
  /** "This side", "This answer" */
  subject: string;
  /** what the person can do next */
  retry: string;
}

export const SIDE_WORDING: HiddenWording = { subject: "This side", retry: "Retry it, or start a new round." };

/** Error kinds whose message Quorum wrote itself, naming no model. */
const OWN_WORDING = new Set(["watchdog", "invalid_output"]);

export function hiddenError(
  kind: string | null,
  timeoutMs: number,
  words: HiddenWording = SIDE_WORDING,
  own: string | null = null,
): string {
  const { subject, retry } = words;
  if (own !== null && kind !== null && OWN_WORDING.has(kind)) return own;
  switch (kind) {
    case "timeout":
      return `${subject} gave no complete answer within ${formatMs(timeoutMs)}. ${retry}`;
    case "rate_limit":
      return `${subject}'s provider is rate-limiting requests. Wait a moment, then retry it.`;
    case "auth":
      return `${subject}'s provider rejected its API key. Check the keys in .dev.vars (or the Worker's secrets), then retry.`;
    case "empty":
      return `${subject} returned no text. ${retry}`;
    case "server":
    case "network":
      return `${subject}'s provider failed with a server or network error. ${retry}`;
    default:
      return `${subject}'s provider refused the request. Its exact reason would name the model, so it stays hidden while blind: ${retry.charAt(0).toLowerCase()}${retry.slice(1)}`;
  }
}
