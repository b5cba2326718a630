/**
 * The server's signatures: the tags in run and comparison ids (a room is touched only for an id this server
 * made) and vote receipts (only the page that voted may withdraw). The key is QUORUM_SECRET when set, else a
 * random secret made once and kept in D1 (`server_secrets`). Neither leaves this module: no response, log or
 * export carries it.
 */
import { openDb } from "../db/queries";
import { keptSecret } from "../db/secret-queries";
import { cached } from "../shared/memo";
import { settings } from "../shared/config";

/** What a signature vouches for; each purpose signs its own domain, so one can't stand in for another. */
export type SignedPurpose = "run" | "comparison" | "evaluation" | "goal-battle" | "thread" | "vote-receipt";

/** 128 bits of HMAC-SHA256, in hex: past guessing, short enough for an address bar. */
const TAG_BYTES = 16;
export const TAG_HEX_LENGTH = TAG_BYTES * 2;

const encoder = new TextEncoder();

/** Per isolate: one key per configured secret, and the one kept in D1. */
const configuredKeys = new Map<string, Promise<CryptoKey>>();
let keptKey: Promise<CryptoKey> | null = null;

const importKey = (secret: string) =>
  crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);

function randomSecret(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");
}

function signingKey(env: Env): Promise<CryptoKey> {
  const configured = settings(env).secret;
  if (configured) {
    return cached(configuredKeys, configured, importKey);
  }
  if (!keptKey) {
    keptKey = keptSecret(openDb(env.DB), "signing", randomSecret()).then(importKey);
    // A failed D1 read is not remembered: the next request asks again.
    keptKey.catch(() => (keptKey = null));
  }
  return keptKey;
}

/** The tag of `text` for `purpose`: lowercase hex, TAG_HEX_LENGTH characters. */
export async function sign(env: Env, purpose: SignedPurpose, text: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await signingKey(env), encoder.encode(`${purpose}\n${text}`));
  return Array.from(new Uint8Array(mac, 0, TAG_BYTES), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether `tag` is the tag of `text` for `purpose`; compared in constant time, so timing says nothing of how close a guess is. */
export async function verify(env: Env, purpose: SignedPurpose, text: string, tag: string): Promise<boolean> {
  const expected = await sign(env, purpose, text);
  const given = tag.toLowerCase();
  if (given.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return diff === 0;
}
