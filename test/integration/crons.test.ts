/// <reference types="vite/client" />
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../worker/index";
import { CRON_JOBS } from "../../worker/scheduled";
import wranglerToml from "../../wrangler.toml?raw";

/** The schedules of wrangler.toml's `[triggers] crons = [...]` (TOML's basic strings read as JSON's here). */
function configuredCrons(): string[] {
  const list = /^\[triggers\]\s*\ncrons\s*=\s*(\[[^\]]*\])/m.exec(wranglerToml);
  if (!list) throw new Error("wrangler.toml has no [triggers] crons list");
  return JSON.parse(list[1]) as string[];
}

async function fire(cron: string): Promise<void> {
  const ctx = createExecutionContext();
  worker.scheduled(createScheduledController({ cron }), env, ctx);
  await waitOnExecutionContext(ctx);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the crons", () => {
  it("have one job each, for exactly the schedules wrangler.toml lists", () => {
    const crons = configuredCrons();
    expect(crons.length).toBeGreaterThan(0);
    expect(Object.keys(CRON_JOBS).sort()).toEqual([...crons].sort());
  });

  it("run the job of the schedule that fired, and only that one", async () => {
    for (const cron of configuredCrons()) {
      // Spies that call through: the real job runs.
      const jobs = Object.keys(CRON_JOBS).map((schedule) => ({ schedule, spy: vi.spyOn(CRON_JOBS, schedule) }));
      await fire(cron);
      for (const { schedule, spy } of jobs)
        expect(spy, `${schedule} when ${cron} fired`).toHaveBeenCalledTimes(schedule === cron ? 1 : 0);
      expect(jobs.find((j) => j.schedule === cron)?.spy).toHaveBeenCalledWith(env);
      vi.restoreAllMocks();
    }
  });

  it("log a schedule with no job as an error and run nothing", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const jobs = Object.keys(CRON_JOBS).map((schedule) => vi.spyOn(CRON_JOBS, schedule));
    await fire("0 3 * * *");
    for (const spy of jobs) expect(spy).not.toHaveBeenCalled();
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0].join(" ")).toContain('no job for the cron "0 3 * * *"');
  });
});
