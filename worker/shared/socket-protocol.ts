/**
 * How a WebSocket carries the access token (browsers can't set headers on one): it offers two subprotocols,
 * `quorum` and `quorum-token.<base64url of the token>`; the server answers with `quorum`.
 */
export const SOCKET_PROTOCOL = "quorum";
export const TOKEN_PROTOCOL_PREFIX = "quorum-token.";

export function tokenProtocol(token: string): string {
  const bytes = new TextEncoder().encode(token);
  const base64 = btoa(String.fromCharCode(...bytes));
  return TOKEN_PROTOCOL_PREFIX + base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
