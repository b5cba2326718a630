/**
 * Quorum's own rules, for what secretlint's preset doesn't look for: secrets pasted into prose and chat
 * rather than committed to files (a password written out, an `Authorization:` header, a JWT, a Google
 * OAuth token or API key, `key=…` values, email addresses), and looser key shapes than the preset's exact
 * ones (an OpenAI key without its marker, a PEM block pasted without its end).
 */
import type { RedactionKind } from "../shared/redact";
import type { Finding } from "./finding";

/** Shannon entropy in bits per character: random tokens score high, words and identifiers low. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
}

/** A value that looks machine-made: long, letters and digits mixed, and random enough. */
const looksRandom = (s: string, minLength: number) =>
  s.length >= minLength && /[A-Za-z]/.test(s) && /\d/.test(s) && entropy(s) >= 3.2;

/** A written-out password that is a placeholder or a word of prose ("required", "too short"), not a password. */
function isPasswordLike(value: string, quoted: boolean): boolean {
  if (/^(?:\*+|\.+|x+)$/i.test(value) || /^[<{[$%]/.test(value)) return false; // ***, <your password>, ${PASSWORD}
  if (/^(?:process\.env|os\.environ|env\.|getenv|settings\.|config\.)/i.test(value) || /[()[\]]/.test(value))
    return false;
  // Code assigning a variable: `password = form.password`, `password = userInput`.
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) || /^[a-z]+(?:[A-Z][a-z]+)+$/.test(value)) return false;
  // A bare lowercase or Capitalised word is prose; a quoted one was meant literally.
  return quoted ? value.length >= 3 : value.length >= 4 && !/^[A-Za-z][a-z]*$/.test(value);
}

interface Rule {
  kind: RedactionKind;
  /** global, with indices (`dg`); the `secret` group is what is masked, else the whole match */
  pattern: RegExp;
  accept?: (secret: string, groups: Record<string, string | undefined>) => boolean;
}

const KEY_SHAPES = [
  /\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/, // OpenAI, Anthropic
  /\bAIza[0-9A-Za-z_-]{35}/, // Google API key
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}/, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{30,}/,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/, // Slack
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, // AWS access key id
];

/** Built on first use: the patterns compile once per isolate. */
let built: Rule[] | null = null;
const rules = (): Rule[] =>
  (built ??= [
    {
      kind: "private key",
      // A block pasted without its end is masked to the end of the text: the rest of it is the key.
      pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$(?![\s\S]))/dg,
    },
    {
      kind: "bearer token",
      pattern: /\bBearer\s+(?<secret>[A-Za-z0-9\-._~+/]+=*)/dgi,
      accept: (token) => token.length >= 16 && /\d/.test(token) && /[A-Za-z]/.test(token),
    },
    {
      kind: "password",
      // `Authorization: Basic <base64 of user:password>`
      pattern: /\bBasic\s+(?<secret>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/dg,
      accept: (value) => /\d/.test(value) || (/[A-Z]/.test(value) && /[a-z]/.test(value)),
    },
    {
      kind: "api key",
      pattern: new RegExp(KEY_SHAPES.map((r) => r.source).join("|"), "dg"),
      // Real keys carry digits; `sk-this-is-a-long-kebab-name` does not.
      accept: (key) => /\d/.test(key),
    },
    {
      kind: "token",
      // A JWT: base64url header and payload (each starts `eyJ`, the encoding of `{"`), then a signature.
      pattern: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{8,}/dg,
    },
    {
      kind: "token",
      // Google OAuth 2.0 access token
      pattern: /\bya29\.[A-Za-z0-9_-]{20,}/dg,
    },
    {
      kind: "password",
      // Credentials in any URL (redis://, amqp://, smtp://…); secretlint's rules cover https, ftp and databases.
      pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^:/\s@]{1,100}:(?<secret>[^@/\s]{1,200})@[^\s/]/dgi,
      accept: (value) => isPasswordLike(value, true),
    },
    {
      kind: "password",
      // A password written out: `password: …`, `DB_PASSWORD=…`, `my pw is …`, `the passphrase for prod is "…"`.
      pattern:
        /(?<![A-Za-z0-9])(?:[A-Za-z0-9]{1,30}[_-]){0,4}(?:password|passwd|passphrase|passcode|pwd|pw)(?![A-Za-z0-9])(?:\s+(?:for|of|to|on)(?:\s+[\w.@-]{1,40}){1,3})?["']?(?:\s*(?:[:=]|=>|->)\s*|\s+(?:is|was|=)\s*[:=]?\s*)(?:"(?<dq>[^"\n]{1,200})"|'(?<sq>[^'\n]{1,200})'|`(?<bq>[^`\n]{1,200})`|(?<bare>[^\s"'`]{1,200}?))(?=[.,;:)]*(?:\s|$))/dgi,
      accept: (value, g) => isPasswordLike(value, g.bare === undefined),
    },
    {
      kind: "credential",
      // key=…, token: "…", client_secret=… (also inside URLs and JSON): only a value that looks random is masked.
      pattern:
        /\b[A-Za-z0-9_.-]{0,40}(?:api[_-]?key|apikey|token|secret|access[_-]?key)[A-Za-z0-9_-]{0,40}["']?\s{0,8}[:=]\s{0,8}["']?(?<secret>[A-Za-z0-9_\-+/=.~]{1,4096})(?=$|[\s"'&,;)}\]<>])/dgi,
      accept: (value) => looksRandom(value, 16),
    },
    {
      kind: "email",
      // Not the `user:password@host` of a URL (a password rule's), and never stopping short of the domain's end.
      pattern:
        /(?<![\w.%+-])(?<!\/\/[^\s/@]{0,100}:)[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b(?![:@/]|\.[A-Za-z0-9])/dg,
      // `icon@2x.png` and `lodash@4.17.21` are files and versions, not addresses.
      accept: (m) => /@[A-Za-z]/.test(m) && !/\.(?:png|jpe?g|gif|svg|webp|js|ts|css)$/i.test(m),
    },
  ]);

/** Every secret Quorum's own rules find in `text`. */
export function ownFindings(text: string): Finding[] {
  const findings: Finding[] = [];
  for (const rule of rules()) {
    for (const m of text.matchAll(rule.pattern)) {
      const groups = m.groups ?? {};
      const name = ["secret", "dq", "sq", "bq", "bare"].find((g) => groups[g] !== undefined);
      const [start, end] = name ? m.indices!.groups![name]! : m.indices![0]!;
      if (rule.accept && !rule.accept(text.slice(start, end), groups)) continue;
      findings.push({ start, end, kind: rule.kind });
    }
  }
  return findings;
}
