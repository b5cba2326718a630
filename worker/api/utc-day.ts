/** The UTC day the spend caps count by. */
export const DAY_MS = 86_400_000;

/** 00:00 UTC of the day `now` falls in, and of the next. */
export function utcDay(now = Date.now()) {
  const start = Math.floor(now / DAY_MS) * DAY_MS;
  return { day: new Date(start).toISOString().slice(0, 10), start, resetsAt: start + DAY_MS };
}
