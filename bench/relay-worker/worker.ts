/**
 * A diagnostic Worker of the bench's own: the floor that `wrangler dev` itself puts under what Quorum does.
 * No D1, no SDK, no rate limits; only /room touches a Durable Object.
 * - /relay (WebSocket): fetches one streamed completion from the stub and relays every chunk it reads
 *   (live-latency).
 * - /round: an arena round of the same shape as Quorum's — POST /round → 201 {id}; GET /round/:id/ws
 *   (WebSocket) streams both sides from the stub at once, one message per chunk read, then "ready";
 *   POST /round/:id/votes → 201 (comparison-round).
 * - /room: the same round with what one Durable Object per comparison costs the runtime, and nothing of
 *   Quorum's: a RoundRoom (SQLite storage) per round stores the round before the POST's 201, streams both
 *   sides from the stub itself to hibernatable sockets, stores each side's text as it ends, and stores the
 *   vote before its 201 (comparison-round).
 */
import { DurableObject } from "cloudflare:workers";

interface Ctx {
  waitUntil(promise: Promise<unknown>): void;
}
type ServerSocket = WebSocket & { accept(): void };
declare const WebSocketPair: { new (): { 0: WebSocket; 1: ServerSocket } };

/** Reads one streamed completion from `target`, handing each chunk read to `onChunk`. */
async function stream(target: string, model: string, onChunk: (text: string) => void): Promise<void> {
  const res = await fetch(target, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-bench-openai" },
    body: JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "hi" }] }),
  });
  if (!res.ok || !res.body) throw new Error(`the stub answered ${res.status} for ${model}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    onChunk(decoder.decode(value, { stream: true }));
  }
}

/** Accepts a WebSocket, runs `work` on its server end after the 101, and returns the 101. */
function socket(ctx: Ctx, work: (server: ServerSocket) => Promise<void>): Response {
  const pair = new WebSocketPair();
  const [client, server] = [pair[0], pair[1]];
  server.accept();
  ctx.waitUntil(work(server));
  return new Response(null, { status: 101, webSocket: client } as ResponseInit);
}

function relay(url: URL, ctx: Ctx): Response {
  const target = url.searchParams.get("target")!;
  const model = url.searchParams.get("model")!;
  return socket(ctx, async (server) => {
    try {
      await stream(target, model, (text) => server.send(JSON.stringify({ type: "relay.delta", seq: 0, text })));
    } catch (err) {
      server.close(1011, String(err).slice(0, 120));
      return;
    }
    server.send(JSON.stringify({ type: "relay.done", seq: 0 }));
    server.close(1000, "done");
  });
}

/** Both sides at once (`model` given once per side), then one status event as Quorum's comparison sends. */
function roundSocket(url: URL, ctx: Ctx): Response {
  const target = url.searchParams.get("target")!;
  const models = url.searchParams.getAll("model");
  return socket(ctx, async (server) => {
    let seq = 0;
    try {
      await Promise.all(
        models.map((model, side) =>
          stream(target, model, (text) => server.send(JSON.stringify({ type: "side.delta", seq: ++seq, side, text }))),
        ),
      );
      server.send(JSON.stringify({ type: "comparison.status", seq: ++seq, status: "ready" }));
    } catch (err) {
      server.send(JSON.stringify({ type: "comparison.status", seq: ++seq, status: "failed", error: String(err) }));
    }
    server.close(1000, "done");
  });
}

interface RoomEnv {
  ROUND_ROOM: DurableObjectNamespace<RoundRoom>;
}

interface RoomStart {
  prompt: string;
  target: string;
  models: string[];
}

/** One round's Durable Object: durable at the start, at each side's end and at the vote, as a comparison room is. */
export class RoundRoom extends DurableObject<RoomEnv> {
  private ready = false;

  async start(round: RoomStart): Promise<void> {
    this.ctx.storage.kv.put("round", round);
    let seq = 0;
    const send = (event: object) => {
      const message = JSON.stringify({ ...event, seq: ++seq });
      for (const ws of this.ctx.getWebSockets()) ws.send(message);
    };
    const sides = round.models.map(async (model, side) => {
      let text = "";
      await stream(round.target, model, (chunk) => {
        text += chunk;
        send({ type: "side.delta", side, text: chunk });
      });
      this.ctx.storage.kv.put(`side:${side}`, text);
      send({ type: "side.completed", side });
    });
    void Promise.all(sides).then(
      () => {
        this.ready = true;
        send({ type: "comparison.status", status: "ready" });
      },
      (err: unknown) => send({ type: "comparison.status", status: "failed", error: String(err) }),
    );
  }

  async fetch(): Promise<Response> {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    if (this.ready) pair[1].send(JSON.stringify({ type: "comparison.status", seq: 0, status: "ready" }));
    return new Response(null, { status: 101, webSocket: pair[0] } as ResponseInit);
  }

  async vote(choice: string): Promise<string> {
    const voteId = crypto.randomUUID();
    this.ctx.storage.kv.put(`vote:${voteId}`, choice);
    return voteId;
  }
}

const roomOf = (env: RoomEnv, id: string) => env.ROUND_ROOM.get(env.ROUND_ROOM.idFromName(id));

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export default {
  async fetch(request: Request, env: RoomEnv, ctx: Ctx): Promise<Response> {
    const url = new URL(request.url);
    const upgrade = request.headers.get("Upgrade") === "websocket";
    if (url.pathname === "/health") return new Response("ok");
    if (url.pathname === "/relay" && upgrade) return relay(url, ctx);
    if (url.pathname === "/round" && request.method === "POST") {
      await request.json();
      return json({ id: crypto.randomUUID() }, 201);
    }
    if (/^\/round\/[^/]+\/ws$/.test(url.pathname) && upgrade) return roundSocket(url, ctx);
    if (/^\/round\/[^/]+\/votes$/.test(url.pathname) && request.method === "POST") {
      await request.json();
      return json({ voteId: crypto.randomUUID() }, 201);
    }
    if (url.pathname === "/room" && request.method === "POST") {
      const body = (await request.json()) as { prompt: string; target: string; models: string[] };
      const id = crypto.randomUUID();
      await roomOf(env, id).start(body);
      return json({ id }, 201);
    }
    const room = /^\/room\/([^/]+)\/(ws|votes)$/.exec(url.pathname);
    if (room && room[2] === "ws" && upgrade) return roomOf(env, room[1]).fetch(request);
    if (room && room[2] === "votes" && request.method === "POST") {
      const { choice } = (await request.json()) as { choice: string };
      return json({ voteId: await roomOf(env, room[1]).vote(choice) }, 201);
    }
    return new Response("not found", { status: 404 });
  },
};
