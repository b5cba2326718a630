/**
 * secretlint's recommended rule preset (@secretlint/secretlint-rule-preset-recommend), run on a string.
 * The preset's rules are plain functions that report ranges through a context; this is that context, small
 * enough that secretlint's file-oriented engine (profiler, config loading, comment directives) isn't needed.
 */
import { rules as presetRules } from "@secretlint/secretlint-rule-preset-recommend";
import type {
  SecretLintRuleContext,
  SecretLintRuleCreator,
  SecretLintSourceCode,
  SecretLintSourceNodePosition,
} from "@secretlint/types";
import type { RedactionKind } from "../shared/redact";
import type { Finding } from "./finding";

/** What a rule found, by rule id; every other rule of the preset finds API keys and tokens. */
const KIND_OF_RULE: Record<string, RedactionKind> = {
  "@secretlint/secretlint-rule-privatekey": "private key",
  "@secretlint/secretlint-rule-basicauth": "password",
  "@secretlint/secretlint-rule-database-connection-string": "password",
};

/** Options per rule: AWS access key ids are off by default in secretlint (noisy in code), wanted here. */
const OPTIONS: Record<string, object> = { "@secretlint/secretlint-rule-aws": { enableIDScanRule: true } };

// Filters (the `secretlint-disable` comment directive) are left out: a pasted comment must not switch masking off.
const scanners = (presetRules as SecretLintRuleCreator<object>[]).filter((rule) => rule.meta.type === "scanner");

function sourceOf(content: string): SecretLintSourceCode {
  const lineStarts = [0];
  for (let i = content.indexOf("\n"); i !== -1; i = content.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const indexToPosition = (index: number): SecretLintSourceNodePosition => {
    let line = lineStarts.length - 1;
    while (lineStarts[line]! > index) line--;
    return { line: line + 1, column: index - lineStarts[line]! };
  };
  const positionToIndex = (pos: SecretLintSourceNodePosition) =>
    (lineStarts[pos.line - 1] ?? content.length) + pos.column;
  return {
    hasBOM: false,
    content,
    filePath: undefined,
    physicalFilePath: undefined,
    contentType: "text",
    ext: "",
    getFilePath: () => undefined,
    getPhysicalFilePath: () => undefined,
    indexToPosition,
    positionToIndex,
    locationToRange: (loc) => [positionToIndex(loc.start), positionToIndex(loc.end)],
    rangeToLocation: ([start, end]) => ({ start: indexToPosition(start), end: indexToPosition(end) }),
  };
}

/** URL credentials (`scheme://user:password@host`) are reported whole: only the password needs masking. */
function narrowToPassword(text: string, start: number, end: number): [number, number] {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^:/\s@]+:([^@/\s]+)@/i.exec(text.slice(start, end));
  if (!m) return [start, end];
  const at = start + m[0].length - 1 - m[1]!.length;
  return [at, at + m[1]!.length];
}

/** Every secret the preset's scanners find in `text`. */
export async function secretlintFindings(text: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  const source = sourceOf(text);
  for (const rule of scanners) {
    const kind = KIND_OF_RULE[rule.meta.id] ?? "api key";
    const context: SecretLintRuleContext = {
      sharedOptions: {},
      // The rules' messages quote the secret: only the message id is kept, so no secret reaches a message.
      createTranslator: () => (messageId) => ({
        message: String(messageId),
        messageId: String(messageId),
        data: undefined,
      }),
      report: ({ range: [start, end] }) => {
        const [s, e] = kind === "password" ? narrowToPassword(text, start, end) : [start, end];
        findings.push({ start: s, end: e, kind });
      },
      ignore: () => {},
    };
    await rule.create(context, OPTIONS[rule.meta.id] ?? {}).file?.(source);
  }
  return findings;
}
