/** A model id with a control or invisible character in it is a 400 wherever a model id is taken. */
import { describe, expect, it } from "vitest";
import { api } from "../helpers/runs";

const BAD = [
  "openai:gpt\u00004o",
  "openai:gpt\n4o",
  "openai:gpt-4o\u0007x",
  "openai:gpt\u007F",
  "openai:gpt\u200B4o",
  "anthropic:claude\u202Ex",
];

const routes: { what: string; path: string; body: (id: string) => unknown }[] = [
  { what: "a run's model", path: "/runs", body: (id) => ({ question: "q", models: [{ id }] }) },
  {
    what: "a run's synthesis model",
    path: "/runs",
    body: (id) => ({ question: "q", models: [{ id: "openai:gpt-4o-mini" }], settings: { synthesis: { modelId: id } } }),
  },
  {
    what: "a comparison's models",
    path: "/comparisons",
    body: (id) => ({ prompt: "p", models: [id, "openai:gpt-4o-mini"] }),
  },
  { what: "a comparison's judges", path: "/comparisons", body: (id) => ({ prompt: "p", judges: [id] }) },
  { what: "a judge request", path: `/comparisons/${crypto.randomUUID()}/judge`, body: (id) => ({ judges: [id] }) },
  {
    what: "a retry of a run's answers",
    path: `/runs/${crypto.randomUUID()}/answers`,
    body: (id) => ({ modelIds: [id] }),
  },
];

describe("model ids with control characters", () => {
  it.each(routes)("are refused in $what with a 400 that names the character", async ({ path, body }) => {
    for (const id of BAD) {
      const res = await api(path, { method: "POST", json: body(id) });
      expect(res.status, JSON.stringify(id)).toBe(400);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("invalid_request");
      expect(error.message).toMatch(
        /a model id holds a control or invisible character \(U\+[0-9A-F]{4}\); type it again without it/,
      );
    }
  });

  it("are refused as the leaderboard's anchor", async () => {
    const res = await api(`/leaderboard?anchor=${encodeURIComponent("openai:gpt\u00004o")}&anchorRating=1000`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      "anchor: the anchor model holds a control or invisible character (U+0000); type it again without it",
    );
  });
});
