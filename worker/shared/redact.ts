/**
 * Redact mode (QUORUM_REDACT; docs/access-and-safety.md): what the Worker masked (worker/redaction/) is kept as counts
 * per kind, never the secret. The web app imports this file to describe the counts.
 */

export const REDACTION_KINDS = [
  "private key",
  "bearer token",
  "api key",
  "token",
  "password",
  "credential",
  "email",
] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];
/** How many of each kind were masked; kinds with none are left out. */
export type Redactions = Partial<Record<RedactionKind, number>>;

export const marker = (kind: RedactionKind) => `[redacted: ${kind}]`;

/** Both tallies added up. */
export function addRedactions(a: Redactions, b: Redactions): Redactions {
  const sum: Redactions = { ...a };
  for (const kind of REDACTION_KINDS) if (b[kind]) sum[kind] = (sum[kind] ?? 0) + b[kind];
  return sum;
}

export const redactionCount = (r: Redactions | undefined) =>
  REDACTION_KINDS.reduce((n, kind) => n + (r?.[kind] ?? 0), 0);

const NAMES: Record<RedactionKind, [string, string]> = {
  "private key": ["private key", "private keys"],
  "bearer token": ["bearer token", "bearer tokens"],
  "api key": ["API key", "API keys"],
  token: ["access token", "access tokens"],
  password: ["password", "passwords"],
  credential: ["credential", "credentials"],
  email: ["email address", "email addresses"],
};

/** "2 secrets were masked before sending: 1 API key, 1 email address", or null when nothing was. */
export function describeRedactions(r: Redactions | undefined): string | null {
  const total = redactionCount(r);
  if (!total) return null;
  const parts = REDACTION_KINDS.filter((kind) => r?.[kind]).map(
    (kind) => `${r![kind]} ${NAMES[kind][r![kind] === 1 ? 0 : 1]}`,
  );
  return `${total} secret${total === 1 ? " was" : "s were"} masked before sending: ${parts.join(", ")}`;
}
