import type { RoomResult } from "../rooms/room-result";
import { ApiError } from "./errors";

/** A room's refusal as the API's error (its status and code as the room gave them); a success as it is, less `ok`. */
export function unwrap<R extends RoomResult<object>>(result: R): Omit<Extract<R, { ok: true }>, "ok"> {
  if (!result.ok) throw new ApiError(result.status, result.code, result.message);
  const { ok: _ok, ...rest } = result as Extract<R, { ok: true }>;
  return rest;
}
