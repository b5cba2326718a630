/** GET /api/leaderboard — wins, appearances and win rate (seed 000), online Elo and Bradley–Terry with intervals. */
import { Hono, type TypedResponse } from "hono";
import { openDb } from "../db/queries";
import { computeStandings, type Standings } from "../arena/standings";
import { withStyleControl } from "../arena/style-standings";
import { withPresetRows } from "../arena/preset-rows";
import { missingModels, winOdds } from "../arena/odds";
import { settings } from "../shared/config";
import { type LeaderboardQuery, leaderboardQuery, oddsQuery } from "../shared/requests";
import { ApiError } from "./errors";
import { validate } from "./validate";
import { cached } from "../shared/memo";
import { describeRoute } from "hono-openapi";
import { leaderboardResponse, oddsResponse } from "../shared/responses";
import { errorResponses, jsonResponse } from "./openapi-describe";
import { ODDS_TOP_MODELS } from "../shared/constants";

const described = describeRoute({
  tags: ["Arena"],
  summary: "The leaderboard: wins, win rate, Elo, TrueSkill and Bradley–Terry with intervals",
  description:
    "anchor and anchorRating pin one model's rating, as Chatbot Arena does; style=true adds the style-controlled fit; label=coding (or math, creative_writing, instruction_following, hard_prompt, multi_turn, long_query, lang:en…) keeps the battles of prompts with that label, with category or without.",
  responses: { 200: jsonResponse(leaderboardResponse, "The standings."), ...errorResponses(400) },
});

const describedOdds = describeRoute({
  tags: ["Arena"],
  summary: "Who beats whom: the chance each model beats each other one, from the view's Bradley–Terry fit",
  description: `The view's parameters are the leaderboard's, and the ratings the very ones its rows carry (the same cached fit; style=true uses the style-controlled one once ready). models=a,b,… lists 2–30 of the view's models; without it, the view's top ${ODDS_TOP_MODELS} by rating.`,
  responses: {
    200: jsonResponse(oddsResponse, "The odds, row model against column model."),
    ...errorResponses(400, 404),
  },
});

/** The view's standings exactly as GET /api/leaderboard computes them, with a refused anchor a 400. */
async function standingsOf(env: Env, q: LeaderboardQuery) {
  if (q.evaluation !== undefined && q.source !== "eval")
    throw new ApiError(
      400,
      "invalid_request",
      "evaluation=<id> goes with source=eval: an evaluation's battles are eval battles.",
    );
  if (q.evaluation !== undefined && (q.label !== undefined || q.style))
    throw new ApiError(
      400,
      "invalid_request",
      "An evaluation's view has no label filter or style control: its prompts come from its prompt set.",
    );
  if ((q.anchor === undefined) !== (q.anchorRating === undefined))
    throw new ApiError(
      400,
      "invalid_request",
      "anchor and anchorRating go together, e.g. anchor=mixtral-8x7b-instruct-v0.1&anchorRating=1114 as Chatbot Arena pins it.",
    );
  const db = openDb(env.DB);
  const { standings } = await computeStandings(env, db, q, settings(env).arena.leaderboardStaleMs);
  if (q.anchor !== undefined && !standings.anchor)
    throw new ApiError(
      400,
      "unknown_anchor",
      `"${q.anchor}" has no counted battles in this view, so it can't anchor the ratings. Pick a model from the table.`,
    );
  return { db, standings };
}

export const leaderboardApi = new Hono<{ Bindings: Env }>()
  .get("/", described, validate("query", leaderboardQuery), async (c) => {
    const q = c.req.valid("query");
    const { db, standings: plain } = await standingsOf(c.env, q);
    const standings = await withPresetRows(db, plain);
    if (q.style) return c.json(await withPresetRows(db, await withStyleControl(c.env, db, q, plain)));
    // Standings come from computeStandings' cache until the data changes: serialise each of them once too.
    const body = cached(bodies, standings, () => JSON.stringify({ ...standings, style: null }));
    // Typed as the c.json it stands for, so the page's client still knows the shape.
    return c.body(body, 200, { "Content-Type": "application/json" }) as unknown as Response &
      TypedResponse<Standings & { style: null }, 200, "json">;
  })
  .get("/odds", describedOdds, validate("query", oddsQuery), async (c) => {
    const { models, ...q } = c.req.valid("query");
    const { db, standings: plain } = await standingsOf(c.env, q);
    const standings = q.style ? await withStyleControl(c.env, db, q, plain) : { ...plain, style: null };
    const missing = models ? missingModels(standings.rows, models) : [];
    if (missing.length)
      throw new ApiError(
        404,
        "unknown_model",
        `${missing.map((id) => `"${id}"`).join(", ")} ${missing.length === 1 ? "is" : "are"} not in this view of the leaderboard (source ${q.source}${q.category ? `, category "${q.category}"` : ""}, at least ${q.minAppearances} appearances). List models from its rows.`,
        { models: missing },
      );
    const { source, category, includeFlagged, reweight, fit, style } = standings;
    return c.json({ ...winOdds(standings.rows, models), source, category, includeFlagged, reweight, fit, style }, 200);
  });

const bodies = new WeakMap<object, string>();
