import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DELTA_MARK_KEY, EventLog, KEPT_DELTAS } from "../../worker/rooms/event-log";
import { storedEvents } from "../helpers/sockets";

type Body = { type: string; n?: number };
const isDelta = (e: Body) => e.type.endsWith(".delta");

/** Runs `work` on the storage of a room no run ever uses, with a log made on it (and `reopen` for a restarted instance's). */
function withLog<T>(
  name: string,
  work: (log: EventLog<Body>, reopen: () => EventLog<Body>, storage: DurableObjectStorage) => T,
): Promise<T> {
  const room = env.RUN_ROOM.get(env.RUN_ROOM.idFromName(`event-log-${name}`));
  return runInDurableObject(room, (_instance, state) => {
    const reopen = () => new EventLog<Body>(state.storage, isDelta);
    return work(reopen(), reopen, state.storage);
  });
}

const seqs = (messages: string[] | null) => messages?.map((m) => (JSON.parse(m) as { seq: number }).seq) ?? null;
const storedTypes = (storage: DurableObjectStorage) => storedEvents(storage).map((e) => e.type);

describe("the event log", () => {
  it("numbers deltas with everything else, replays them from memory without a gap, and stores only the rest", async () => {
    const result = await withLog("replay", (log, _reopen, storage) => {
      for (const type of ["answer.started", "answer.delta", "answer.delta", "answer.delta", "answer.completed"])
        log.append({ type });
      const mark = storage.kv.get(DELTA_MARK_KEY);
      log.settle();
      return {
        all: seqs(log.after(0)),
        tail: seqs(log.after(2)),
        none: log.after(5),
        ahead: log.after(6),
        stored: storedTypes(storage),
        mark,
        settled: storage.kv.get(DELTA_MARK_KEY),
      };
    });
    expect(result.all).toEqual([1, 2, 3, 4, 5]);
    expect(result.tail).toEqual([3, 4, 5]);
    expect(result.none).toEqual([]);
    expect(result.ahead).toBeNull();
    expect(result.stored).toEqual(["answer.started", "answer.completed"]);
    // the first delta reserved a block; the stored event after it leaves the block for any delta still to come
    expect(result.mark).toBe(2 + 255);
    // settled once the last number is a stored event's
    expect(result.settled).toBeUndefined();
  });

  it("reserves a block when a step begins and settles it when the step ends, with no write of the mark between", async () => {
    const result = await withLog("step", (log, reopen, storage) => {
      log.append({ type: "run.status" });
      log.reserve();
      const reserved = storage.kv.get<number>(DELTA_MARK_KEY);
      const marks: (number | undefined)[] = [];
      // two streams: one ends (stored) while the other still sends chunks
      for (const type of [
        "answer.started",
        "answer.started",
        "answer.delta",
        "answer.delta",
        "answer.completed",
        "answer.delta",
        "answer.completed",
      ]) {
        log.append({ type });
        marks.push(storage.kv.get<number>(DELTA_MARK_KEY));
      }
      const restarted = reopen().lastSeq;
      log.append({ type: "answer.delta" });
      log.settle();
      const afterDelta = storage.kv.get<number>(DELTA_MARK_KEY);
      log.append({ type: "run.completed" });
      log.settle();
      return {
        reserved,
        marks,
        restarted,
        afterDelta,
        settled: storage.kv.get(DELTA_MARK_KEY),
        next: reopen().lastSeq,
        last: log.lastSeq,
      };
    });
    // the block starts after the last number handed out (1) and stands, untouched, while the streams run
    expect(result.reserved).toBe(2 + 255);
    expect(result.marks).toEqual(Array(7).fill(2 + 255));
    // an instance started meanwhile numbers above the block
    expect(result.restarted).toBe(2 + 255);
    // a step can't settle while the last number went to a delta: a new instance must not hand it out again
    expect(result.afterDelta).toBe(2 + 255);
    // after a stored event it can: the mark goes, and a new instance goes on from that event exactly
    expect(result.settled).toBeUndefined();
    expect(result.next).toBe(result.last);
  });

  it("starts a new instance above every delta the last one numbered, and refuses replays it can't make whole", async () => {
    const result = await withLog("restart", (log, reopen, storage) => {
      log.append({ type: "side.started" });
      for (let i = 0; i < 3; i++) log.append({ type: "side.delta", n: i });
      const mark = storage.kv.get<number>(DELTA_MARK_KEY);
      const next = reopen();
      const first = next.lastSeq;
      const fromStored = next.after(1);
      const fromDelta = next.after(3);
      const fromTop = next.after(first);
      next.append({ type: "side.completed" });
      const third = reopen();
      return {
        mark,
        first,
        fromStored,
        fromDelta,
        fromTop,
        after: third.lastSeq,
        replay: seqs(third.after(first)),
        stored: storedTypes(storage),
        left: storage.kv.get(DELTA_MARK_KEY),
      };
    });
    // deltas 2–4 were handed out; the mark reserved a block above them
    expect(result.mark).toBeGreaterThanOrEqual(4);
    expect(result.first).toBe(result.mark);
    expect(result.fromStored).toBeNull();
    expect(result.fromDelta).toBeNull();
    expect(result.fromTop).toEqual([]);
    // once a stored event follows, a third instance goes on from it exactly
    expect(result.after).toBe(result.first + 1);
    expect(result.replay).toEqual([result.first + 1]);
    expect(result.stored).toEqual(["side.started", "side.completed"]);
    expect(result.left).toBeUndefined();
  });

  it(`keeps the last deltas when more than ${KEPT_DELTAS} stream in, and sends a client that fell behind them to a snapshot`, async () => {
    const result = await withLog("trim", (log) => {
      log.append({ type: "answer.started" });
      for (let i = 0; i <= KEPT_DELTAS; i++) log.append({ type: "answer.delta", n: i });
      const last = log.lastSeq;
      return {
        last,
        early: log.after(1),
        late: seqs(log.after(last - 3)),
        kept: log.after(last - KEPT_DELTAS / 2)?.length,
      };
    });
    expect(result.last).toBe(KEPT_DELTAS + 2);
    expect(result.early).toBeNull();
    expect(result.late).toEqual([result.last - 2, result.last - 1, result.last]);
    expect(result.kept).toBe(KEPT_DELTAS / 2);
  });
});
