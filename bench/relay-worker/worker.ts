/**
 * A diagnostic for the live-latency benchmark, a Worker of the bench's own bound to nothing: it fetches a
 * streamed completion from the stub and relays every chunk it reads to a WebSocket, with no Durable Object,
 * no storage and no SDK — the floor that `wrangler dev` itself puts under any live event.
 */

interface Ctx {
  waitUntil(promise: Promise<unknown>): void;
}
declare const WebSocketPair: { new (): { 0: WebSocket; 1: WebSocket & { accept(): void } } };

export default {
  async fetch(request: Request, _env: unknown, ctx: Ctx): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/health") return new Response("ok");
    if (url.pathname !== "/relay" || request.headers.get("Upgrade") !== "websocket") return new Response("not found", { status: 404 });
    const target = url.searchParams.get("target")!;
    const model = url.searchParams.get("model")!;
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    server.accept();
    ctx.waitUntil(
      (async () => {
        const res = await fetch(target, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer sk-bench-openai" },
          body: JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "hi" }] }),
        });
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          server.send(JSON.stringify({ type: "relay.delta", seq: 0, text: decoder.decode(value, { stream: true }) }));
        }
        server.send(JSON.stringify({ type: "relay.done", seq: 0 }));
        server.close(1000, "done");
      })(),
    );
    return new Response(null, { status: 101, webSocket: client } as ResponseInit);
  },
};
