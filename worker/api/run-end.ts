/**
 * Waiting for a council run to end, from the Worker, as the page does: through the run room's live events (a
 * snapshot, then each event), so the wait ends the moment the room announces the end, and D1 holds the whole run
 * by then (the room announces it only after its writes). A socket the room closes (a restart) is opened again.
 */
import { isTerminal } from "../rooms/record";
import { type RunStatus, runStatus } from "../shared/run";
import { ApiError, notFound } from "./errors";
import { runRoom } from "./start-run";

/** How many times a closed socket is opened again before the wait gives up. */
const RECONNECTS = 5;

interface Seen {
  type?: unknown;
  status?: unknown;
  state?: { run?: { status?: unknown } };
}

const isRunStatus = (s: unknown): s is RunStatus => runStatus.safeParse(s).success;

const END_EVENTS = new Set(["run.completed", "run.failed", "run.cancelled"]);

/** Listens once: true when the run ended, false when the socket closed first. */
async function listen(env: Env, id: string, onStatus: (status: RunStatus) => void): Promise<boolean> {
  const res = await runRoom(env, id).fetch(new Request("https://room/ws", { headers: { Upgrade: "websocket" } }));
  if (res.status === 404) throw notFound("Run");
  const ws = res.webSocket;
  if (!ws) throw new ApiError(502, "run_unreachable", `The council run ${id} could not be followed.`);
  ws.accept();
  return new Promise<boolean>((resolve) => {
    const end = (ended: boolean) => {
      resolve(ended);
      if (ended) ws.close(1000, "the run ended");
    };
    ws.addEventListener("message", (m) => {
      if (typeof m.data !== "string") return;
      const seen = JSON.parse(m.data) as Seen;
      const status =
        seen.type === "snapshot" ? seen.state?.run?.status : seen.type === "run.status" ? seen.status : null;
      if (isRunStatus(status)) onStatus(status);
      if ((typeof seen.type === "string" && END_EVENTS.has(seen.type)) || (isRunStatus(status) && isTerminal(status)))
        end(true);
    });
    ws.addEventListener("close", () => end(false));
    ws.addEventListener("error", () => end(false));
  });
}

/** Resolves once run `id` has ended (done, partial, failed or cancelled); `onStatus` hears each status on the way. */
export async function runEnded(env: Env, id: string, onStatus: (status: RunStatus) => void = () => {}): Promise<void> {
  for (let attempt = 0; attempt <= RECONNECTS; attempt++) if (await listen(env, id, onStatus)) return;
  throw new ApiError(502, "run_unreachable", `The council run ${id} stopped answering before it ended.`);
}
