/**
 * Scrolling boxes together, in proportion: a box scrolled halfway down brings the others halfway down theirs,
 * whatever their lengths. Setting a box's scrollTop fires a scroll event of its own; that echo is recognised and
 * ignored, or the two boxes would keep moving each other.
 */

/** What of an element the sync reads and sets (plain objects in tests). */
export interface ScrollBox {
  scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

/** Where `to` sits when it is as far through its scroll range as `from` is through its own. */
export function proportionalTop(from: ScrollBox, to: Omit<ScrollBox, "scrollTop">): number {
  const fromRange = from.scrollHeight - from.clientHeight;
  const toRange = to.scrollHeight - to.clientHeight;
  if (fromRange <= 0 || toRange <= 0) return 0;
  return Math.round((Math.min(from.scrollTop, fromRange) / fromRange) * toRange);
}

/** Browsers may land a set scrollTop on a fraction of a pixel away. */
const SAME_PX = 1;

export interface ScrollSync {
  /** follows `box` until the returned function is called */
  add(box: ScrollBox): () => void;
  /** called on each scroll event of a box; moves the others while `enabled()` */
  scrolled(box: ScrollBox): void;
  /** scrolls `box` to `top` on its own: the others stay where they are */
  jump(box: ScrollBox, top: number): void;
}

export function scrollSync(enabled: () => boolean): ScrollSync {
  const boxes = new Set<ScrollBox>();
  /** the top this code set on a box, whose scroll event is then its own echo */
  const echoes = new Map<ScrollBox, number>();
  const set = (box: ScrollBox, top: number) => {
    // Unchanged, it fires no event: no echo to wait for.
    if (Math.abs(box.scrollTop - top) <= SAME_PX) return;
    box.scrollTop = top;
    echoes.set(box, box.scrollTop);
  };
  return {
    add(box) {
      boxes.add(box);
      return () => {
        boxes.delete(box);
        echoes.delete(box);
      };
    },
    scrolled(from) {
      const echo = echoes.get(from);
      if (echo !== undefined) {
        echoes.delete(from);
        if (Math.abs(from.scrollTop - echo) <= SAME_PX) return;
      }
      if (!enabled()) return;
      for (const to of boxes) {
        if (to !== from) set(to, proportionalTop(from, to));
      }
    },
    jump: set,
  };
}
