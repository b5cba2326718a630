/**
 * What several benchmarks share: one provider stub and one Quorum (`wrangler dev`, fresh state) pointed at it,
 * started on first use and stopped at the end of the run.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { describeProfile, profileWorker } from "./profile";
import { takeSnapshot, type Snapshot } from "./snapshot";
import { startBenchStub, type BenchStub } from "./stub";
import { migrate, startWrangler, tempDir, type Server } from "./wrangler";

export class BenchContext {
  private snapshotTaken: Promise<Snapshot> | null = null;
  private stubStarted: Promise<BenchStub> | null = null;
  private quorumStarted: Promise<Server> | null = null;
  private readonly cleanups: (() => Promise<void>)[] = [];

  /** The app frozen at the start of the run; every server runs it. */
  snapshot(): Promise<Snapshot> {
    this.snapshotTaken ??= takeSnapshot().then((snap) => {
      this.cleanups.push(() => rm(snap.dir, { recursive: true, force: true }));
      return snap;
    });
    return this.snapshotTaken;
  }

  stub(): Promise<BenchStub> {
    this.stubStarted ??= startBenchStub().then((stub) => {
      this.cleanups.push(() => stub.close());
      return stub;
    });
    return this.stubStarted;
  }

  /** Quorum on its own port and state folder, every vendor pointed at the stub, votes never `too_fast`. */
  quorum(): Promise<Server> {
    this.quorumStarted ??= (async () => {
      const [snap, stub] = [await this.snapshot(), await this.stub()];
      const persistTo = await tempDir("state");
      this.cleanups.push(() => rm(persistTo, { recursive: true, force: true }));
      await migrate(persistTo, snap.config);
      const server = await startWrangler({ config: snap.config, persistTo, vars: stubVars(stub.url) });
      this.cleanups.push(() => server.stop());
      return server;
    })();
    return this.quorumStarted;
  }

  /**
   * Runs `work` (an extra round, after the measured ones: sampling slows the Worker down a little) under the
   * devtools profiler of `server`'s Worker and describes where its JavaScript spent the time.
   */
  async profile(server: Server, work: () => Promise<unknown>): Promise<string[]> {
    const snap = await this.snapshot();
    const { summary, error } = await profileWorker(
      server.inspectorPort,
      work,
      path.join(snap.dir, "bundle/index.js.map"),
    );
    return describeProfile(summary, error).map((line) => `profile (an extra round, not measured): ${line}`);
  }

  /** Registers something to undo at the end (a temp folder, a server). */
  onClose(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.reverse())
      await cleanup().catch((err: unknown) => console.error(`cleanup failed: ${String(err)}`));
    this.cleanups.length = 0;
  }
}

export function stubVars(stubUrl: string): Record<string, string> {
  return {
    OPENAI_API_KEY: "sk-bench-openai",
    OPENAI_BASE_URL: `${stubUrl}/v1`,
    ANTHROPIC_API_KEY: "sk-ant-bench",
    ANTHROPIC_BASE_URL: stubUrl,
    GOOGLE_API_KEY: "bench-google",
    GOOGLE_BASE_URL: stubUrl,
    QUORUM_LOG: "off",
    QUORUM_MIN_VOTE_MS: "0",
    QUORUM_ARENA_TIMEOUT_MS: "60000",
    // The vote benchmark sends far more votes per comparison and client than a person would.
    QUORUM_VOTES_PER_CLIENT: "1000000",
    QUORUM_VOTES_PER_COMPARISON: "1000000",
    QUORUM_RATE_RUNS: "1000000",
    QUORUM_RATE_COMPARISONS: "1000000",
    QUORUM_RATE_VOTES: "1000000",
    QUORUM_RATE_COMPLETIONS: "1000000",
    // The benches play many voters from one machine, each its own X-Client-Id.
    QUORUM_TRUST_CLIENT_ID: "true",
  };
}
