/** The short code sketch the thorough demo model adds when a question mentions a language. */
import { cap } from "./text";

export function codeExample(language: string, keyword: string): string {
  const words = keyword.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const camel =
    words
      .map((w, i) => (i === 0 ? w : cap(w)))
      .join("")
      .replace(/^[0-9]+/, "") || "handle";
  const snake = words.join("_").replace(/^[0-9_]+/, "") || "handle";
  const code: Record<string, string> = {
    python: `def ${snake}(rows):
    """Sketch: validate, transform, return."""
    if not rows:
        raise ValueError("empty input")
    return [row for row in rows if row]`,
    sql: `-- sketch: filter, then aggregate
SELECT category, COUNT(*) AS ${snake}_count
FROM items
WHERE created_at >= :since
GROUP BY category;`,
    bash: `#!/usr/bin/env bash
set -euo pipefail
# sketch: ${keyword}
for f in "$@"; do
  echo "processing $f"
done`,
    js: `function ${camel}(items) {
  // sketch: validate, transform, return
  if (!items.length) throw new Error("empty input");
  return items.filter(Boolean);
}`,
    ts: `function ${camel}(items: string[]): string[] {
  // sketch: validate, transform, return
  if (items.length === 0) throw new Error("empty input");
  return items.filter((item) => item.trim() !== "");
}`,
  };
  return `\`\`\`${language}\n${code[language] ?? code.ts}\n\`\`\``;
}
