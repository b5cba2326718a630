/** The WebSocket routes' shared steps: refuse a plain request, then hand the upgrade to the item's room. */
import type { Context } from "hono";
import { ApiError } from "./errors";

export function requireUpgrade(c: Context): void {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket")
    throw new ApiError(426, "upgrade_required", "This address speaks WebSocket only: connect with a WebSocket client.");
}

/**
 * The room's answer to `request`, for a room whose id the route has checked (item-ids.ts). A room that holds
 * no run or comparison answers 404 itself, and that becomes `missing`, the API's own error for the route.
 */
export async function connectRoom(
  room: { fetch(request: Request): Promise<Response> },
  request: Request,
  missing: () => ApiError,
): Promise<Response> {
  const response = await room.fetch(request);
  if (response.status === 404) throw missing();
  return response;
}
