/**
 * Where two answers differ, word by word: the longest common subsequence of their words is what they share; every
 * other word is marked on its side. Whitespace stays with the text around it and is never marked on its own.
 * Past MAX_CELLS word pairs (two answers of a few thousand words each) the table would cost too much on a phone, so
 * the answers' common start and end are matched and the middle is marked whole.
 */

export interface Segment {
  text: string;
  changed: boolean;
}

const MAX_CELLS = 4_000_000;

const words = (text: string) => text.split(/(\s+)/).filter((t) => t !== "");
const isSpace = (t: string) => /^\s+$/.test(t);

export function wordDiff(left: string, right: string): { left: Segment[]; right: Segment[] } {
  const a = words(left);
  const b = words(right);
  const [keepA, keepB] = common(a, b);
  return { left: segments(a, keepA), right: segments(b, keepB) };
}

/** Which tokens of each side belong to the shared subsequence (whitespace always does). */
function common(a: string[], b: string[]): [boolean[], boolean[]] {
  const keepA = a.map(isSpace);
  const keepB = b.map(isSpace);
  const wa = a.flatMap((t, i) => (isSpace(t) ? [] : [i]));
  const wb = b.flatMap((t, i) => (isSpace(t) ? [] : [i]));
  let start = 0;
  while (start < wa.length && start < wb.length && a[wa[start]] === b[wb[start]]) start++;
  let end = 0;
  while (
    end < wa.length - start &&
    end < wb.length - start &&
    a[wa[wa.length - 1 - end]] === b[wb[wb.length - 1 - end]]
  )
    end++;
  for (let k = 0; k < start; k++) [keepA[wa[k]], keepB[wb[k]]] = [true, true];
  for (let k = 0; k < end; k++) [keepA[wa[wa.length - 1 - k]], keepB[wb[wb.length - 1 - k]]] = [true, true];
  const midA = wa.slice(start, wa.length - end);
  const midB = wb.slice(start, wb.length - end);
  const n = midA.length;
  const m = midB.length;
  if (!n || !m || n * m > MAX_CELLS) return [keepA, keepB];
  // lcs[i][j]: the longest common subsequence of midA[i..] and midB[j..], in one flat array
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * (m + 1) + j] =
        a[midA[i]] === b[midB[j]]
          ? lcs[(i + 1) * (m + 1) + j + 1] + 1
          : Math.max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
  let [i, j] = [0, 0];
  while (i < n && j < m) {
    if (a[midA[i]] === b[midB[j]]) {
      [keepA[midA[i]], keepB[midB[j]]] = [true, true];
      i++;
      j++;
    } else if (lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1]) i++;
    else j++;
  }
  return [keepA, keepB];
}

/** Runs of tokens with the same mark, joined; whitespace between two changed words joins their run. */
function segments(tokens: string[], keep: boolean[]): Segment[] {
  const out: Segment[] = [];
  tokens.forEach((text, k) => {
    let changed = !keep[k];
    if (isSpace(text)) {
      const next = keep.slice(k + 1).findIndex((_, d) => !isSpace(tokens[k + 1 + d]));
      const after = next < 0 ? true : keep[k + 1 + next];
      changed = out.length > 0 && out[out.length - 1].changed && !after;
    }
    const last = out[out.length - 1];
    if (last && last.changed === changed) last.text += text;
    else out.push({ text, changed });
  });
  return out;
}
