/**
 * Nests a Markdown text under a heading of the export's own: every ATX heading (`#` … `######`) in it is pushed
 * down so the shallowest becomes `below + 1`, keeping the text's own hierarchy (an answer's `##` must not outrank
 * the model's `###`). Headings can go no deeper than `######`; those that would become bold lines instead. Fenced
 * code blocks are left alone. Setext headings (underlined with `===` or `---`) become ATX ones first.
 */
export function nestHeadings(text: string, below: number): string {
  const lines = text.split("\n");
  const headings: { index: number; level: number; title: string }[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (opener) {
      if (fence === null) fence = opener[1][0].repeat(opener[1].length);
      else if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, "") === "") fence = null;
      continue;
    }
    if (fence !== null) continue;
    const atx = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) {
      headings.push({ index: i, level: atx[1].length, title: atx[2] ?? "" });
      continue;
    }
    const underline = /^ {0,3}(=+|-+)[ \t]*$/.exec(line);
    const previous = lines[i - 1];
    if (underline && i > 0 && previous.trim() !== "" && !headings.some((h) => h.index === i - 1)) {
      // "text\n---" is a heading; "\n---" (a rule) isn't, and neither is a list item or a table row above it.
      if (/^ {0,3}([-*+]|\d+[.)])\s|^\s*\|/.test(previous)) continue;
      headings.push({ index: i - 1, level: underline[1][0] === "=" ? 1 : 2, title: previous.trim() });
      lines[i] = "\u0000";
    }
  }
  if (!headings.length) return text;
  const shift = below + 1 - Math.min(...headings.map((h) => h.level));
  for (const h of headings) {
    const level = h.level + Math.max(0, shift);
    lines[h.index] = level <= 6 ? `${"#".repeat(level)} ${h.title}`.trimEnd() : `**${h.title}**`;
  }
  return lines.filter((l) => l !== "\u0000").join("\n");
}
