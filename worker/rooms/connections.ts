/**
 * A room's WebSocket connections: accepting them (hibernatable, tagged by the share link they came through),
 * greeting each new one, sending every event to all of them, and closing them. The sockets live in the
 * runtime, not in this object, so a room woken from hibernation finds them all again through `getWebSockets`.
 */
import { SOCKET_PROTOCOL } from "../shared/socket-protocol";

/** Set by the Worker (api/shares.ts) on an upgrade that came through a share link: the link's id. */
export const SHARE_HEADER = "X-Quorum-Share";
const shareTag = (shareId: string) => `share:${shareId}`;

export class Connections {
  constructor(private readonly ctx: DurableObjectState) {
    // Clients only listen; their keep-alive "ping" is answered without waking the room.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /**
   * Accepts the upgrade in `request` and sends the new socket its first messages: `greeting` gets the
   * `?since=` the client asked to resume from (null when none) and returns what to send.
   */
  accept(request: Request, greeting: (since: number | null) => string[]): Response {
    const since = new URL(request.url).searchParams.get("since");
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    // A socket opened through a share link carries the link's id as a tag, so revoking the link can close it.
    const share = request.headers.get(SHARE_HEADER);
    this.ctx.acceptWebSocket(server, share ? [shareTag(share)] : []);
    for (const message of greeting(since === null ? null : Number(since))) server.send(message);
    // A client that offered Quorum's subprotocol (it carries the access token) must have it chosen back.
    const offered = (request.headers.get("Sec-WebSocket-Protocol") ?? "").split(",").map((p) => p.trim());
    const headers = offered.includes(SOCKET_PROTOCOL) ? { "Sec-WebSocket-Protocol": SOCKET_PROTOCOL } : undefined;
    return new Response(null, { status: 101, webSocket: client, headers });
  }

  broadcast(message: string): void {
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(message);
      } catch {
        // A socket that closed under us is cleaned up by the runtime.
      }
    }
  }

  /** Closes the sockets opened through a share link that was just revoked (their clients then find it gone). */
  closeShared(shareId: string): void {
    for (const ws of this.ctx.getWebSockets(shareTag(shareId))) ws.close(4404, "share link revoked");
  }

  closeAll(reason: string): void {
    for (const ws of this.ctx.getWebSockets()) ws.close(1000, reason);
  }

  /** The client closed its socket: close our end too, with its code (1005, "no code", can't be sent back). */
  closed(ws: WebSocket, code: number): void {
    ws.close(code === 1005 ? 1000 : code, "bye");
  }
}
