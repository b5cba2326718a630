/**
 * The live socket of one room (a council run or an arena comparison: both speak the same protocol).
 * It always resumes after the last `seq` it handed out, so a dropped connection (or a reload, with
 * the seq kept in sessionStorage by `createLiveDoc`) loses no event and repeats none. No polling:
 * it reconnects only when the socket closes.
 *
 * Events are typed by the Worker's own unions (`RunEvent`, `ComparisonEvent`). The page does not
 * ship zod to re-check them (7 KB gzip, an eighth of the budget, to distrust a server built from
 * the same commit); the browser tests validate every frame the page receives against the unions instead.
 */

import { socketProtocols } from "./access";
import { spendMayHaveChanged } from "./spend-signal";

export type LiveStatus = "connecting" | "live" | "reconnecting" | "closed";

/** How each status reads in a page's header. */
export const LIVE_STATUS_TEXT: Record<LiveStatus, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  closed: "Offline",
};

/** What every event of every room has. */
export interface LiveEvent {
  seq: number;
  type: string;
}

export interface LiveOptions<E extends LiveEvent> {
  /** the socket's address, resuming after `since` when given */
  url: (since: number | undefined) => string;
  /** the last seq already applied, if any: the server replays what came after it */
  since: () => number | undefined;
  onEvent: (event: E) => void;
  onStatus: (status: LiveStatus) => void;
  /** a socket closed before it delivered anything (the room may be gone): worth asking the API why */
  onUnreachable: () => void;
}

const HEARTBEAT_MS = 25_000;
const MAX_BACKOFF_MS = 8_000;

export function connectLive<E extends LiveEvent>(opts: LiveOptions<E>): { close: () => void } {
  let socket: WebSocket | null = null;
  let stopped = false;
  let failures = 0;
  let retryTimer = 0;
  let heartbeat = 0;

  const open = () => {
    clearTimeout(retryTimer);
    if (stopped) return;
    opts.onStatus(failures ? "reconnecting" : "connecting");
    const ws = new WebSocket(opts.url(opts.since()), socketProtocols());
    socket = ws;
    let heard = false;
    ws.onopen = () => {
      opts.onStatus("live");
      heartbeat = window.setInterval(() => ws.readyState === WebSocket.OPEN && ws.send("ping"), HEARTBEAT_MS);
    };
    ws.onmessage = (msg) => {
      if (typeof msg.data !== "string" || msg.data === "pong") return;
      let event: E;
      try {
        event = JSON.parse(msg.data) as E;
      } catch {
        return;
      }
      if (typeof event?.seq !== "number" || typeof event.type !== "string") return;
      heard = true;
      failures = 0;
      const last = opts.since();
      if (event.type !== "snapshot" && last !== undefined) {
        if (event.seq <= last) return; // already applied
        if (event.seq > last + 1) {
          // A gap on one socket should not happen; ask again from where we are rather than guess.
          ws.close(4000, "gap");
          return;
        }
      }
      opts.onEvent(event);
      spendMayHaveChanged(event.type);
    };
    ws.onclose = () => {
      clearInterval(heartbeat);
      if (socket !== ws) return;
      socket = null;
      if (stopped) return;
      // A socket that closes before telling us anything counts as a failure and backs off.
      if (!heard) failures++;
      if (failures === 1 || failures % 4 === 0) opts.onUnreachable();
      opts.onStatus("reconnecting");
      const delay = failures ? Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(failures, 5)) : 100;
      retryTimer = window.setTimeout(open, delay);
    };
  };

  const onOnline = () => {
    if (!socket) open();
  };
  window.addEventListener("online", onOnline);
  open();

  return {
    close() {
      stopped = true;
      clearTimeout(retryTimer);
      clearInterval(heartbeat);
      window.removeEventListener("online", onOnline);
      socket?.close(1000, "page closed");
      socket = null;
      opts.onStatus("closed");
    },
  };
}
