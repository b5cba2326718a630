import { describe, expect, it } from "vitest";
import { type Lease, SlotLeases } from "../../worker/rooms/slot-leases";

const NOW = 1_000_000;
const LEASE_MS = 30_000;
const lease = (holder: string, held: number, over: Partial<Lease> = {}): Lease => ({
  holder,
  instance: "i1",
  held,
  expiresAt: NOW + 10_000,
  ...over,
});
const at = (leases: Lease[], now = NOW) => new SlotLeases(leases, now, LEASE_MS);

describe("a provider's slot leases (rooms/slot-leases.ts)", () => {
  it("grants up to what is asked within the cap over every live lease, and nothing when it is full", () => {
    const leases = at([lease("room-a", 2)]);
    expect(leases.grant("room-b", "i1", 5, 3)).toBe(1);
    expect(leases.inUse()).toBe(3);
    expect(leases.grant("room-c", "i1", 1, 3)).toBe(0);
    // A holder's second ask adds to its lease.
    expect(leases.grant("room-a", "i1", 1, 4)).toBe(1);
    expect(leases.changes().put).toEqual([
      { holder: "room-b", instance: "i1", held: 1, expiresAt: NOW + LEASE_MS },
      { holder: "room-a", instance: "i1", held: 3, expiresAt: NOW + LEASE_MS },
    ]);
    expect(leases.changes().drop).toEqual(["room-c"]);
  });

  it("counts no lease past its end: its slots are free and storage is told to drop it", () => {
    const leases = at([lease("dead", 3, { expiresAt: NOW }), lease("alive", 1)]);
    expect(leases.inUse()).toBe(1);
    expect(leases.grant("room-b", "i1", 3, 3)).toBe(2);
    expect(leases.changes().drop).toEqual(["dead"]);
  });

  it("takes back what a holder gives, never more than it holds, and ends a lease that holds nothing", () => {
    const leases = at([lease("room-a", 2), lease("room-b", 1)]);
    leases.release("room-a", "i1", 1);
    expect(leases.inUse()).toBe(2);
    leases.release("room-b", "i1", 5);
    expect(leases.inUse()).toBe(1);
    expect(leases.changes()).toEqual({
      put: [{ holder: "room-a", instance: "i1", held: 1, expiresAt: NOW + LEASE_MS }],
      drop: ["room-b"],
    });
  });

  it("drops what a restarted room's predecessor held at the new instance's first ask", () => {
    const leases = at([lease("room-a", 3)]);
    expect(leases.grant("room-a", "i2", 2, 3)).toBe(2);
    expect(leases.inUse()).toBe(2);
    // The old instance's late words change nothing.
    leases.release("room-a", "i1", 2);
    leases.renew("room-a", "i1", 3);
    expect(leases.changes().put).toEqual([{ holder: "room-a", instance: "i2", held: 2, expiresAt: NOW + LEASE_MS }]);
  });

  it("renews a lease for another LEASE_MS, and takes one that ran out while its holder lived up again", () => {
    const leases = at([lease("room-a", 2), lease("late", 1, { expiresAt: NOW - 1 })]);
    leases.renew("room-a", "i1", 7);
    leases.renew("late", "i1", 1);
    expect(leases.inUse()).toBe(3);
    expect(leases.changes().put).toEqual([
      { holder: "late", instance: "i1", held: 1, expiresAt: NOW + LEASE_MS },
      { holder: "room-a", instance: "i1", held: 2, expiresAt: NOW + LEASE_MS },
    ]);
  });

  it("says when the first live lease ends, and nothing when none is held", () => {
    expect(at([lease("a", 1, { expiresAt: NOW + 5 }), lease("b", 1, { expiresAt: NOW + 2 })]).nextExpiry()).toBe(
      NOW + 2,
    );
    expect(at([lease("gone", 1, { expiresAt: NOW })]).nextExpiry()).toBeNull();
  });

  it("reads counts and caps as whole numbers of at least zero", () => {
    const leases = at([]);
    expect(leases.grant("room-a", "i1", 2.7, 10)).toBe(2);
    expect(leases.grant("room-a", "i1", -3, 10)).toBe(0);
    expect(leases.grant("room-b", "i1", Number.NaN, 10)).toBe(0);
  });
});
