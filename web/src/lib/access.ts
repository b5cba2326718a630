/**
 * The access token (the server's APP_TOKEN), kept in localStorage once the person gives it. Every API call
 * sends it as a Bearer header and every socket offers it as a subprotocol. Without a token nothing is sent,
 * as on this machine's own Quorum, which needs none.
 */
import { createSignal } from "solid-js";
import { SOCKET_PROTOCOL, tokenProtocol } from "../../../worker/shared/socket-protocol";

const TOKEN_KEY = "quorum.token";

function readToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY) || null;
  } catch {
    return null;
  }
}

const [token, setToken] = createSignal<string | null>(readToken());
/** Bumped on every save or forget: the page starts over, loading what it shows with the new token. */
const [tokenVersion, setTokenVersion] = createSignal(0);
/** The server's word on why it refused a call for want of a (right) token; null while all is well. */
const [accessProblem, setAccessProblem] = createSignal<string | null>(null);

export { accessProblem, token, tokenVersion };

/** Codes the server refuses with when the token is missing or wrong. */
export const isAccessRefusal = (status: number, code: string) =>
  (status === 401 && code === "unauthorized") || (status === 403 && code === "app_token_required");

export function reportAccessProblem(message: string): void {
  setAccessProblem(message);
}

function change(next: string | null): void {
  try {
    if (next) localStorage.setItem(TOKEN_KEY, next);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage disabled: the token lasts as long as the tab.
  }
  setToken(next);
  setAccessProblem(null);
  setTokenVersion((v) => v + 1);
}

export const saveToken = (value: string) => change(value.trim() || null);
export const forgetToken = () => change(null);

/** Headers for a call: the Bearer token when there is one. */
export function authHeaders(): Record<string, string> {
  const t = token();
  return t ? { Authorization: `Bearer ${t}` } : {};
}

/** Subprotocols for a socket: `quorum` and the token's own, or none without a token (as before tokens existed). */
export function socketProtocols(): string[] | undefined {
  const t = token();
  return t ? [SOCKET_PROTOCOL, tokenProtocol(t)] : undefined;
}
