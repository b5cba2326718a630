import { describe, expect, it } from "vitest";
import { proportionalTop, type ScrollBox, scrollSync } from "../../web/src/lib/scroll-sync";

/** A box as a browser keeps one: its scrollTop clamped to its range, and every change queued as a scroll event. */
function box(scrollHeight: number, clientHeight: number, events: ScrollBox[]): ScrollBox {
  let top = 0;
  const b = {
    scrollHeight,
    clientHeight,
    get scrollTop() {
      return top;
    },
    set scrollTop(v: number) {
      const next = Math.max(0, Math.min(v, scrollHeight - clientHeight));
      if (next !== top) events.push(b);
      top = next;
    },
  };
  return b;
}

/** Delivers queued scroll events until none is left (at most `limit`, so a feedback loop shows as a failure). */
function deliver(events: ScrollBox[], sync: { scrolled(b: ScrollBox): void }, limit = 20): number {
  let delivered = 0;
  while (events.length && delivered < limit) {
    sync.scrolled(events.shift()!);
    delivered++;
  }
  return delivered;
}

describe("proportionalTop", () => {
  it("puts the other box as far through its range as the scrolled one is through its own", () => {
    expect(
      proportionalTop(
        { scrollTop: 250, scrollHeight: 1_000, clientHeight: 500 },
        { scrollHeight: 2_500, clientHeight: 500 },
      ),
    ).toBe(1_000);
    expect(
      proportionalTop(
        { scrollTop: 500, scrollHeight: 1_000, clientHeight: 500 },
        { scrollHeight: 700, clientHeight: 400 },
      ),
    ).toBe(300);
  });

  it("keeps the top when either box has nothing to scroll", () => {
    expect(
      proportionalTop(
        { scrollTop: 0, scrollHeight: 400, clientHeight: 500 },
        { scrollHeight: 2_000, clientHeight: 500 },
      ),
    ).toBe(0);
    expect(
      proportionalTop(
        { scrollTop: 300, scrollHeight: 2_000, clientHeight: 500 },
        { scrollHeight: 400, clientHeight: 500 },
      ),
    ).toBe(0);
  });
});

describe("scrollSync", () => {
  it("moves the other box in proportion, and the echo of that move moves nothing back", () => {
    const events: ScrollBox[] = [];
    const sync = scrollSync(() => true);
    const [short, long] = [box(1_000, 500, events), box(3_000, 500, events)];
    sync.add(short);
    sync.add(long);

    short.scrollTop = 100;
    expect(deliver(events, sync)).toBe(2);
    expect([short.scrollTop, long.scrollTop]).toEqual([100, 500]);

    long.scrollTop = 2_500;
    expect(deliver(events, sync)).toBe(2);
    expect([short.scrollTop, long.scrollTop]).toEqual([500, 2_500]);
  });

  it("settles while the person keeps scrolling one box before the other's echo arrives", () => {
    const events: ScrollBox[] = [];
    const sync = scrollSync(() => true);
    const [a, b] = [box(2_000, 500, events), box(2_000, 500, events)];
    sync.add(a);
    sync.add(b);
    a.scrollTop = 100;
    sync.scrolled(events.shift()!);
    a.scrollTop = 200;
    expect(deliver(events, sync)).toBeLessThan(20);
    expect([a.scrollTop, b.scrollTop]).toEqual([200, 200]);
  });

  it("moves nothing while turned off, nor a box it no longer follows", () => {
    const events: ScrollBox[] = [];
    let on = false;
    const sync = scrollSync(() => on);
    const [a, b, c] = [box(2_000, 500, events), box(2_000, 500, events), box(2_000, 500, events)];
    sync.add(a);
    const stopB = sync.add(b);
    sync.add(c);
    a.scrollTop = 300;
    deliver(events, sync);
    expect([b.scrollTop, c.scrollTop]).toEqual([0, 0]);
    on = true;
    stopB();
    a.scrollTop = 600;
    deliver(events, sync);
    expect([b.scrollTop, c.scrollTop]).toEqual([0, 600]);
  });

  it("jumps one box to a place (a new turn's start) without moving the other", () => {
    const events: ScrollBox[] = [];
    const sync = scrollSync(() => true);
    const [a, b] = [box(3_000, 500, events), box(1_000, 500, events)];
    sync.add(a);
    sync.add(b);
    sync.jump(a, 2_000);
    sync.jump(b, 400);
    deliver(events, sync);
    expect([a.scrollTop, b.scrollTop]).toEqual([2_000, 400]);
  });
});
