/** GET /api/leaderboard — wins, appearances and win rate (seed 000), online Elo and Bradley–Terry with intervals. */
import { Hono, type TypedResponse } from "hono";
import { openDb } from "../db/queries";
import { computeStandings, type Standings } from "../arena/standings";
import { withStyleControl } from "../arena/style-standings";
import { settings } from "../shared/config";
import { leaderboardQuery } from "../shared/requests";
import { ApiError } from "./errors";
import { validate } from "./validate";
import { cached } from "../shared/memo";
import { describeRoute } from "hono-openapi";
import { leaderboardResponse } from "../shared/responses";
import { errorResponses, jsonResponse } from "./openapi-describe";

const described = describeRoute({
  tags: ["Arena"],
  summary: "The leaderboard: wins, win rate, Elo, TrueSkill and Bradley–Terry with intervals",
  description:
    "anchor and anchorRating pin one model's rating, as Chatbot Arena does; style=true adds the style-controlled fit.",
  responses: { 200: jsonResponse(leaderboardResponse, "The standings."), ...errorResponses(400) },
});

export const leaderboardApi = new Hono<{ Bindings: Env }>().get(
  "/",
  described,
  validate("query", leaderboardQuery),
  async (c) => {
    const q = c.req.valid("query");
    if ((q.anchor === undefined) !== (q.anchorRating === undefined))
      throw new ApiError(
        400,
        "invalid_request",
        "anchor and anchorRating go together, e.g. anchor=mixtral-8x7b-instruct-v0.1&anchorRating=1114 as Chatbot Arena pins it.",
      );
    const db = openDb(c.env.DB);
    const { standings } = await computeStandings(c.env, db, q, settings(c.env).arena.leaderboardStaleMs);
    if (q.anchor !== undefined && !standings.anchor)
      throw new ApiError(
        400,
        "unknown_anchor",
        `"${q.anchor}" has no counted battles in this view, so it can't anchor the ratings. Pick a model from the table.`,
      );
    if (q.style) return c.json(await withStyleControl(c.env, db, q, standings));
    // Standings come from computeStandings' cache until the data changes: serialise each of them once too.
    const body = cached(bodies, standings, () => JSON.stringify({ ...standings, style: null }));
    // Typed as the c.json it stands for, so the page's client still knows the shape.
    return c.body(body, 200, { "Content-Type": "application/json" }) as unknown as Response &
      TypedResponse<Standings & { style: null }, 200, "json">;
  },
);

const bodies = new WeakMap<object, string>();
