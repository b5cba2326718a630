/**
 * History lists two kinds of item, each paged newest first by its own cursor. Shown together, an item may only
 * appear once nothing still unloaded in the other list could be newer: the merged list stops at the oldest item
 * of the list that has more to load (its "horizon"), and "Show older" loads whichever list sets that horizon.
 */

export interface Feed<T> {
  items: T[];
  /** the cursor of the next page; null once the list is complete */
  cursor: string | null;
}

type Dated = { createdAt: number };

/** The time no shown item may be older than: the newest last item among lists with more to load (−∞ when none). */
export function horizon(feeds: Feed<Dated>[]): number {
  let at = Number.NEGATIVE_INFINITY;
  for (const feed of feeds) {
    const last = feed.items.at(-1);
    if (feed.cursor !== null && last && last.createdAt > at) at = last.createdAt;
  }
  return at;
}

/** The items of every feed that can be shown in order now, newest first. */
export function mergedNewestFirst<T extends Dated>(feeds: Feed<T>[]): T[] {
  const from = horizon(feeds);
  return feeds
    .flatMap((feed) => feed.items)
    .filter((item) => item.createdAt >= from)
    .sort((a, b) => b.createdAt - a.createdAt);
}

/** Which feeds "Show older" should load next: those with more whose last item sets the horizon. */
export function feedsToExtend(feeds: Feed<Dated>[]): number[] {
  const from = horizon(feeds);
  return feeds.flatMap((feed, i) => (feed.cursor !== null && feed.items.at(-1)?.createdAt === from ? [i] : []));
}
