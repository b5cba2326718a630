/**
 * What every room shares: its numbered event log and WebSocket fan-out (snapshot first, or a replay
 * after `?since=`), a generation counter that retires superseded work, and work driven by the
 * alarm one step at a time, so an evicted or restarted room picks up where it stopped.
 */
import { DurableObject } from "cloudflare:workers";
import { SOCKET_PROTOCOL } from "../shared/socket-protocol";
import { EventLog } from "./event-log";
import type { RetryPolicy } from "./limits";

export abstract class Room<Body extends { type: string }> extends DurableObject<Env> {
  protected readonly log: EventLog<Body>;
  /** bumped whenever work in flight must stop writing (cancel, retry, delete) */
  private generation = 0;
  private cancelController = new AbortController();
  /** the step this instance is driving, if any */
  private running: Promise<void> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.log = new EventLog<Body>(ctx.storage.sql);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** True once the room holds a run or comparison. */
  protected abstract exists(): boolean;
  /** The whole state a new client starts from. */
  protected abstract snapshot(): unknown;
  /** True while there is work for the alarm to do. */
  protected abstract hasWork(): boolean;
  /** One step of work; it checks `current(generation)` after every await before writing. */
  protected abstract step(generation: number): Promise<void>;

  async fetch(request: Request): Promise<Response> {
    if (!this.exists()) return new Response("not found", { status: 404 });
    const since = new URL(request.url).searchParams.get("since");
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server);
    const replay = since === null ? null : this.log.after(Number(since));
    if (replay) for (const message of replay) server.send(message);
    else server.send(JSON.stringify({ type: "snapshot", seq: this.log.lastSeq, state: this.snapshot() }));
    // A client that offered Quorum's subprotocol (it carries the access token) must have it chosen back.
    const offered = (request.headers.get("Sec-WebSocket-Protocol") ?? "").split(",").map((p) => p.trim());
    const headers = offered.includes(SOCKET_PROTOCOL) ? { "Sec-WebSocket-Protocol": SOCKET_PROTOCOL } : undefined;
    return new Response(null, { status: 101, webSocket: client, headers });
  }

  async webSocketMessage(): Promise<void> {
    // Clients only listen; "ping" is answered by the auto-response without waking the room.
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    ws.close(code === 1005 ? 1000 : code, "bye");
  }

  async alarm(): Promise<void> {
    // A step cancelled or superseded a moment ago may still be unwinding: let it, then carry on.
    while (this.running) await this.running.catch(() => {});
    if (!this.hasWork()) return;
    this.running = this.step(this.generation);
    try {
      await this.running;
    } finally {
      this.running = null;
    }
  }

  protected emit(event: Body): void {
    const message = this.log.append(event);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(message);
      } catch {
        // A socket that closed under us is cleaned up by the runtime.
      }
    }
  }

  protected current(generation: number): boolean {
    return generation === this.generation && this.exists();
  }

  /** Retires the work in flight: its calls are aborted and its writes refused. */
  protected newGeneration(): void {
    this.generation++;
    this.cancelController.abort(new Error("cancelled"));
    this.cancelController = new AbortController();
  }

  protected get cancelSignal(): AbortSignal {
    return this.cancelController.signal;
  }

  /** Closes every socket, stops the alarm and forgets the room's storage. */
  protected async wipe(reason: string): Promise<void> {
    this.newGeneration();
    for (const ws of this.ctx.getWebSockets()) ws.close(1000, reason);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  protected retryPolicy(): RetryPolicy {
    return {
      maxAttempts: Number(this.env.QUORUM_MAX_ATTEMPTS ?? 4) || 4,
      baseMs: Number(this.env.QUORUM_RETRY_BASE_MS ?? 500) || 500,
      maxDelayMs: 30_000,
    };
  }
}
