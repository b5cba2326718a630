import {
  createExecutionContext,
  createScheduledController,
  env,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { ComparisonRoom } from "../../worker/rooms/comparison-room";
import { RunRoom } from "../../worker/rooms/run-room";
import { ConfigInvalid } from "../../worker/shared/config";

interface ConfigInvalidBody {
  error: { code: string; message: string; details: { problems: { variable: string; message: string }[] } };
}

/** The Worker with `vars` over the test configuration, as if they were in .dev.vars. */
async function withVars(vars: Record<string, string>, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`http://localhost${path}`, init), { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const BAD = { QUORUM_RATE_RUNS: "lots" };
const PROBLEM = 'QUORUM_RATE_RUNS is "lots", not a number above 0.';

const runCount = async () => (await env.DB.prepare("SELECT count(*) AS n FROM runs").first<{ n: number }>())!.n;

describe("a setting that doesn't parse", () => {
  it("is named by GET /api/health, which still answers", async () => {
    const res = await withVars(BAD, "/api/health");
    expect(res.status).toBe(503);
    const body = await res.json<{ config: { ok: boolean; errors: { variable: string; message: string }[] } }>();
    expect(body).toMatchObject({ ok: false, version: env.QUORUM_VERSION, db: "ok", config: { ok: false } });
    expect(body.config.errors).toHaveLength(1);
    expect(body.config.errors[0].variable).toBe("QUORUM_RATE_RUNS");
    expect(body.config.errors[0].message).toContain(PROBLEM);
    expect(body.config.errors[0].message).toContain("npx wrangler secret put QUORUM_RATE_RUNS");
  });

  it("stops every other API route with 503 config_invalid, naming the variable and where to fix it", async () => {
    const before = await runCount();
    const requests: [string, RequestInit?][] = [
      ["/api/models"],
      ["/api/runs"],
      ["/api/leaderboard"],
      ["/api/spend"],
      ["/api/shared/abc"],
      ["/api/no-such-route"],
      [
        "/api/runs",
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ question: "Q?", models: [{ id: "demo:quick" }] }),
        },
      ],
    ];
    for (const [path, init] of requests) {
      const res = await withVars(BAD, path, init);
      expect(res.status, path).toBe(503);
      const { error } = await res.json<ConfigInvalidBody>();
      expect(error.code).toBe("config_invalid");
      expect(error.message).toBe(
        `This Quorum's configuration is invalid: ${PROBLEM} Fix it in .dev.vars and restart \`npm start\`; deployed, in wrangler.toml [vars] or with \`npx wrangler secret put QUORUM_RATE_RUNS\`.`,
      );
      expect(error.details.problems.map((p) => p.variable)).toEqual(["QUORUM_RATE_RUNS"]);
    }
    expect(await runCount()).toBe(before);
  });

  it("names each bad variable at once", async () => {
    const res = await withVars({ QUORUM_PRICES: "openai:gpt-x=1:2,oops", QUORUM_LOG: "quiet" }, "/api/models");
    expect(res.status).toBe(503);
    const { error } = await res.json<ConfigInvalidBody>();
    expect(error.details.problems.map((p) => p.variable)).toEqual(["QUORUM_LOG", "QUORUM_PRICES"]);
    expect(error.message).toContain('QUORUM_PRICES has the entry "oops", not one like openai-compatible:llama3.2=0:0');
    expect(error.message).toContain('QUORUM_LOG is "quiet", not on or off.');
  });

  it("is told only to a caller the access check lets in", async () => {
    const token = "config-test-token";
    const stranger = await withVars({ ...BAD, APP_TOKEN: token }, "/api/health");
    expect(stranger.status).toBe(401);
    expect(JSON.stringify(await stranger.json())).not.toContain("QUORUM_RATE_RUNS");
    const owner = await withVars({ ...BAD, APP_TOKEN: token }, "/api/models", {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(owner.status).toBe(503);
  });

  it("stops a room's alarm before any step, in both kinds of room", async () => {
    const bad = { ...env, ...BAD };
    const runStub = env.RUN_ROOM.get(env.RUN_ROOM.idFromName("config-invalid-run"));
    await runInDurableObject(runStub, async (_, state) => {
      await expect(new RunRoom(state, bad).alarm()).rejects.toThrow(ConfigInvalid);
      await expect(new RunRoom(state, env).alarm()).resolves.toBeUndefined();
    });
    const comparisonStub = env.COMPARISON_ROOM.get(env.COMPARISON_ROOM.idFromName("config-invalid-comparison"));
    await runInDurableObject(comparisonStub, async (_, state) => {
      await expect(new ComparisonRoom(state, bad).alarm()).rejects.toThrow(ConfigInvalid);
      await expect(new ComparisonRoom(state, env).alarm()).resolves.toBeUndefined();
    });
  });

  it("fails the crons instead of sweeping or archiving on defaults", () => {
    for (const cron of ["*/10 * * * *", "* * * * *"]) {
      const ctx = createExecutionContext();
      expect(() => worker.scheduled(createScheduledController({ cron }), { ...env, ...BAD }, ctx)).toThrow(
        ConfigInvalid,
      );
    }
  });
});

describe("settings left unset or blank", () => {
  it("take their defaults: health reports the configuration fine and the routes answer", async () => {
    const blanks = {
      QUORUM_RATE_RUNS: "",
      QUORUM_ARENA_MAX_TURNS: " ",
      QUORUM_PRICES: "",
      QUORUM_LOG: "",
      QUORUM_ARCHIVE_AFTER_HOURS: "",
    };
    const health = await withVars(blanks, "/api/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true, version: env.QUORUM_VERSION, db: "ok", config: { ok: true } });
    expect((await withVars(blanks, "/api/models")).status).toBe(200);
  });
});
