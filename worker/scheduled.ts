/**
 * The crons of wrangler.toml's [triggers], each told apart by its schedule in one map (a test checks the map's
 * schedules against wrangler.toml's list, so neither can change alone).
 */
import { archivePass } from "./arena/archive-policy";
import { labelPass } from "./rooms/label-pass";
import { logError } from "./rooms/log";
import { sweepUnfinished } from "./rooms/sweep";
import { settings } from "./shared/config";

async function everyMinute(env: Env): Promise<unknown> {
  const [labels, archive] = await Promise.allSettled([labelPass(env), archivePass(env)]);
  for (const result of [labels, archive]) if (result.status === "rejected") logError("cron", result.reason);
  return { labels, archive };
}

/** Schedule → the job it runs. */
export const CRON_JOBS: Readonly<Record<string, (env: Env) => Promise<unknown>>> = {
  // Wakes any room whose work (a run, comparison, evaluation, goal battle or chat reply) is left unfinished, its
  // alarm lost, for 10 minutes or more.
  "*/10 * * * *": sweepUnfinished,
  // Labels the prompts queued by votes and imports; moves old battles and messages to the archive, when
  // QUORUM_ARCHIVE_AFTER_HOURS turns that on. Neither waits for the other.
  "* * * * *": everyMinute,
};

/** Runs the job of the cron that fired; a schedule with no job is an error in the log, never silently nothing. */
export const scheduled: ExportedHandlerScheduledHandler<Env> = (controller, env, ctx) => {
  // A setting that doesn't parse fails the cron here, naming it (ConfigInvalid), rather than running on defaults.
  settings(env);
  const job = CRON_JOBS[controller.cron];
  if (!job) {
    logError("scheduled", new Error(`no job for the cron "${controller.cron}" (worker/scheduled.ts)`));
    return;
  }
  ctx.waitUntil(job(env));
};
