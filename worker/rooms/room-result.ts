/** What a room's RPC method answers: its result, or a refusal the API turns into a 4xx as it is. */
export type Refusal = { ok: false; status: 404 | 409 | 429; code: string; message: string };
export type RoomResult<T extends object> = ({ ok: true } & T) | Refusal;

export const refuse = (code: string, message: string, status: Refusal["status"] = 409): Refusal => ({
  ok: false,
  status,
  code,
  message,
});
