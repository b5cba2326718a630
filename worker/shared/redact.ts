/**
 * Redact mode (QUORUM_REDACT, seed 001 §14): secrets pasted into a question or prompt are masked before
 * it is stored or sent to any provider. Only what was masked is kept, as counts per kind, never the secret.
 * Pure functions: the Worker masks, the web app only describes the counts.
 */

export const REDACTION_KINDS = ["private key", "bearer token", "api key", "credential", "email"] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];
/** How many of each kind were masked; kinds with none are left out. */
export type Redactions = Partial<Record<RedactionKind, number>>;

export const marker = (kind: RedactionKind) => `[redacted: ${kind}]`;

/** Shannon entropy in bits per character: random tokens score high, words and identifiers low. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
}

/** A value that looks machine-made: long, letters and digits mixed, and random enough. */
const looksRandom = (s: string, minLength: number) => s.length >= minLength && /[A-Za-z]/.test(s) && /\d/.test(s) && entropy(s) >= 3.2;

interface Rule {
  kind: RedactionKind;
  pattern: RegExp;
  /** the part of the match to mask (default: all of it), or null to leave this match alone */
  mask?: (match: string, groups: string[]) => { keep: string; secret: string } | null;
}

const KEY_SHAPES = [
  /\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/, // OpenAI, Anthropic
  /\bAIza[0-9A-Za-z_-]{35}/, // Google
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}/, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{30,}/,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/, // Slack
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, // AWS access key id
];

/** Built on first use, so importing this module (the web app does, for the kinds) runs nothing. */
let built: Rule[] | null = null;
function rules(): Rule[] {
  return (built ??= [
    {
      kind: "private key",
      // A block pasted without its end is masked to the end of the text: the rest of it is the key.
      pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$(?![\s\S]))/g,
    },
    {
      kind: "bearer token",
      pattern: /\b(Bearer\s+)([A-Za-z0-9\-._~+/]+=*)/gi,
      mask: (_m, [prefix, token]) => (token.length >= 16 && /\d/.test(token) && /[A-Za-z]/.test(token) ? { keep: prefix, secret: token } : null),
    },
    {
      kind: "api key",
      pattern: new RegExp(KEY_SHAPES.map((r) => r.source).join("|"), "g"),
      // Real keys carry digits; `sk-this-is-a-long-kebab-name` does not.
      mask: (m) => (/\d/.test(m) ? { keep: "", secret: m } : null),
    },
    {
      kind: "credential",
      // key=…, token: "…", client_secret=… (also inside URLs and JSON): only a value that looks random is masked.
      pattern: /\b([A-Za-z0-9_.-]{0,40}(?:api[_-]?key|apikey|token|secret|passw(?:or)?d|access[_-]?key)[A-Za-z0-9_-]{0,40}["']?\s{0,8}[:=]\s{0,8}["']?)([A-Za-z0-9_\-+/=.~]{1,4096})(?=$|[\s"'&,;)}\]<>])/gi,
      mask: (_m, [prefix, value]) => (looksRandom(value, 16) ? { keep: prefix, secret: value } : null),
    },
    {
      kind: "email",
      pattern: /(?<![\w.%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b(?![:@/])/g,
      // `icon@2x.png` and `lodash@4.17.21` are files and versions, not addresses.
      mask: (m) => (/@[A-Za-z]/.test(m) && !/\.(?:png|jpe?g|gif|svg|webp|js|ts|css)$/i.test(m) ? { keep: "", secret: m } : null),
    },
  ]);
}

export interface Redacted {
  text: string;
  redactions: Redactions;
}

/** Masks every secret in `text` with a marker such as `[redacted: api key]` and counts them per kind. */
export function redact(text: string): Redacted {
  const redactions: Redactions = {};
  let out = text;
  for (const rule of rules()) {
    out = out.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      // replace() passes the groups, then the offset (the first number), the whole text and named groups
      const groups = rest.slice(0, rest.findIndex((x) => typeof x === "number")).map((g) => (typeof g === "string" ? g : ""));
      const cut = rule.mask ? rule.mask(match, groups) : { keep: "", secret: match };
      if (!cut) return match;
      redactions[rule.kind] = (redactions[rule.kind] ?? 0) + 1;
      return `${cut.keep}${marker(rule.kind)}${match.slice(cut.keep.length + cut.secret.length)}`;
    });
  }
  return { text: out, redactions };
}

/** Both tallies added up. */
export function addRedactions(a: Redactions, b: Redactions): Redactions {
  const sum: Redactions = { ...a };
  for (const kind of REDACTION_KINDS) if (b[kind]) sum[kind] = (sum[kind] ?? 0) + b[kind];
  return sum;
}

export const redactionCount = (r: Redactions | undefined) => REDACTION_KINDS.reduce((n, kind) => n + (r?.[kind] ?? 0), 0);

const NAMES: Record<RedactionKind, [string, string]> = {
  "private key": ["private key", "private keys"],
  "bearer token": ["bearer token", "bearer tokens"],
  "api key": ["API key", "API keys"],
  credential: ["credential", "credentials"],
  email: ["email address", "email addresses"],
};

/** "2 secrets were masked before sending: 1 API key, 1 email address", or null when nothing was. */
export function describeRedactions(r: Redactions | undefined): string | null {
  const total = redactionCount(r);
  if (!total) return null;
  const parts = REDACTION_KINDS.filter((kind) => r?.[kind]).map((kind) => `${r![kind]} ${NAMES[kind][r![kind] === 1 ? 0 : 1]}`);
  return `${total} secret${total === 1 ? " was" : "s were"} masked before sending: ${parts.join(", ")}`;
}
