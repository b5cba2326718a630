import { ApiError } from "./errors";

/** Reads a `createdAt:id` cursor as the list routes hand it out. */
export function parseCursor(cursor: string | undefined) {
  if (!cursor) return undefined;
  const at = cursor.indexOf(":");
  const createdAt = Number(cursor.slice(0, at));
  if (at <= 0 || !Number.isFinite(createdAt))
    throw new ApiError(400, "invalid_cursor", "The cursor is not one this API gave out; start again without it.");
  return { createdAt, id: cursor.slice(at + 1) };
}
