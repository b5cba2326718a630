import { env } from "cloudflare:test";
import type { InferResponseType } from "hono/client";
import { describe, expect, it } from "vitest";
import { loadPromptSetItems, markPromptSetUsed } from "../../worker/db/prompt-set-queries";
import { openDb } from "../../worker/db/queries";
import { MAX_PROMPT_SET_ITEMS } from "../../worker/shared/constants";
import { createComparison, settled } from "../helpers/arena";
import { client, ok } from "../helpers/client";
import { api, createRun, finished } from "../helpers/runs";

type Summary = InferResponseType<(typeof client)["prompt-sets"]["$post"], 201>;
type Edited = InferResponseType<(typeof client)["prompt-sets"][":id"]["$put"], 201>;
type FromHistory = InferResponseType<(typeof client)["prompt-sets"]["from-history"]["$post"], 201>;
type ErrorBody = {
  error: { code: string; message: string; details?: { errors: { line: number; message: string }[] } };
};

const createSet = (name: string, items: { prompt: string; id?: string; category?: string }[]) =>
  ok(client["prompt-sets"].$post({ json: { name, items } }));

function upload(body: BodyInit, query: string, contentType?: string): Promise<Response> {
  return api(`/prompt-sets/upload?${query}`, {
    method: "POST",
    body,
    headers: contentType ? { "content-type": contentType } : {},
  });
}

async function uploaded(body: BodyInit, query: string, contentType?: string): Promise<Summary> {
  const res = await upload(body, query, contentType);
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const detail = (id: string, query: { cursor?: string; limit?: string } = {}) =>
  ok(client["prompt-sets"][":id"].$get({ param: { id }, query }));

async function exported(id: string, format: "jsonl" | "csv"): Promise<Response> {
  const res = await api(`/prompt-sets/${id}/export?format=${format}`);
  expect(res.status).toBe(200);
  return res;
}

const storedItems = async (setId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM prompt_set_items WHERE set_id = ?")
    .bind(setId)
    .first<{ n: number }>())!.n;
const setsNamed = async (name: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM prompt_sets WHERE name = ?").bind(name).first<{ n: number }>())!.n;

/** Items whose fields hold what CSV and JSON must quote: commas, quotes, line breaks, a multi-turn conversation. */
const TRICKY = [
  { id: "q1", prompt: 'Say "hello", then stop.', category: "writing", reference: "hello" },
  { id: "q2", prompt: "Line one\nline two, with a comma\r\nand a CRLF", reference: 'He said: ""quoted""' },
  {
    id: "q3",
    prompt: "And what about Paris?",
    turns: [
      { role: "user" as const, content: "Capital of France, please." },
      { role: "assistant" as const, content: 'It is "Paris",\nof course.' },
    ],
  },
  { prompt: "No id, no category — gets item-4" },
];
/** What an item without a goal evaluation's fields holds in them. */
const NO_GOAL = { goal: null, persona: null, marker: null };
const TRICKY_STORED = TRICKY.map((t, k) => ({
  id: t.id ?? `item-${k + 1}`,
  prompt: t.prompt,
  category: t.category ?? null,
  reference: t.reference ?? null,
  turns: t.turns ?? null,
  ...NO_GOAL,
}));

describe("creating, reading and exporting prompt sets", () => {
  it("stores a JSON body's items in order, lists the set and shows its items a page at a time", async () => {
    const created = await createSet("capitals", [
      { prompt: "  Capital of Peru?  " },
      { prompt: "Capital of Chile?", id: "chile", category: "geo" },
      { prompt: "Capital of Cuba?" },
    ]);
    expect(created).toMatchObject({ name: "capitals", version: 1, previousId: null, items: 3, usedAt: null });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);

    const list = await ok(client["prompt-sets"].$get({ query: { limit: "100" } }));
    expect(list.items.find((s) => s.id === created.id)).toEqual(created);

    const first = await detail(created.id, { limit: "2" });
    expect(first.set).toEqual(created);
    expect(first.items).toEqual([
      { id: "item-1", prompt: "Capital of Peru?", category: null, reference: null, turns: null, ...NO_GOAL },
      { id: "chile", prompt: "Capital of Chile?", category: "geo", reference: null, turns: null, ...NO_GOAL },
    ]);
    expect(first.nextCursor).toBe("2");
    const second = await detail(created.id, { cursor: first.nextCursor!, limit: "2" });
    expect(second.items.map((i) => i.id)).toEqual(["item-3"]);
    expect(second.nextCursor).toBeNull();
  });

  it("round-trips quotes, commas, line breaks and turns through a JSON Lines export and upload", async () => {
    const created = await ok(client["prompt-sets"].$post({ json: { name: "tricky jsonl", items: TRICKY } }));
    const res = await exported(created.id, "jsonl");
    expect(res.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="quorum-prompts-tricky-jsonl-v1.jsonl"');
    const text = await res.text();
    expect(text.trimEnd().split("\n")).toHaveLength(4);
    expect(JSON.parse(text.split("\n")[3])).toEqual({ id: "item-4", prompt: TRICKY[3].prompt });

    const again = await uploaded(text, "name=tricky+again", "application/x-ndjson");
    expect(again.items).toBe(4);
    expect((await detail(again.id)).items).toEqual(TRICKY_STORED);
  });

  it("round-trips the same items through a CSV export and upload, its quoted fields intact", async () => {
    const created = await ok(client["prompt-sets"].$post({ json: { name: "tricky csv", items: TRICKY } }));
    const res = await exported(created.id, "csv");
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    const text = await res.text();
    expect(text.split("\n")[0]).toBe("id,prompt,category,reference,turns,goal,persona,marker");
    expect(text).toContain('q1,"Say ""hello"", then stop.",writing,hello,,,,\n');

    const again = await uploaded(text, "name=tricky+csv+again&format=csv");
    expect((await detail(again.id)).items).toEqual(TRICKY_STORED);
    // Told apart by what it starts with when neither the query nor the Content-Type says.
    const sniffed = await uploaded(text, "name=tricky+csv+sniffed", "application/octet-stream");
    expect((await detail(sniffed.id)).items).toEqual(TRICKY_STORED);
  });

  it("reads a CSV with only a prompt column, blank lines and a byte-order mark", async () => {
    const set = await uploaded('\ufeffprompt\r\nFirst?\r\n\r\n"Second, with a comma?"\r\n', "name=plain", "text/csv");
    expect((await detail(set.id)).items.map((i) => [i.id, i.prompt])).toEqual([
      ["item-1", "First?"],
      ["item-2", "Second, with a comma?"],
    ]);
  });
});

describe("uploads past the JSON cap", () => {
  it("takes a 10,000-item upload of more than 1 MiB, stores every item, and exports them all", async () => {
    const lines = Array.from({ length: MAX_PROMPT_SET_ITEMS }, (_, k) =>
      JSON.stringify({ id: `big-${k}`, prompt: `Question ${k}: ${"why ".repeat(40)}?` }),
    );
    const body = lines.join("\n");
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const set = await uploaded(body, "name=ten+thousand", "application/x-ndjson");
    expect(set.items).toBe(MAX_PROMPT_SET_ITEMS);
    expect(await storedItems(set.id)).toBe(MAX_PROMPT_SET_ITEMS);

    const items = await loadPromptSetItems(openDb(env.DB), set.id);
    expect(items.map((i) => i.id)).toEqual(lines.map((_, k) => `big-${k}`));
    const exportedLines = (await (await exported(set.id, "jsonl")).text()).trimEnd().split("\n");
    expect(exportedLines).toEqual(lines);
  });

  it("refuses item 10,001 with a 422, storing nothing", async () => {
    const body = Array.from({ length: MAX_PROMPT_SET_ITEMS + 1 }, (_, k) => `q${k}`).join("\n");
    const res = await upload(`prompt\n${body}`, "name=too+many", "text/csv");
    expect(res.status).toBe(422);
    const { error } = await res.json<ErrorBody>();
    expect(error.code).toBe("too_many_items");
    expect(error.message).toBe("line 10002: a prompt set holds at most 10,000 items; nothing was stored.");
    expect(await setsNamed("too many")).toBe(0);
  });

  it("refuses a body past its own cap with a 413 and takes a JSON body past 1 MiB nowhere else", async () => {
    const huge = "x".repeat(21 * 1024 * 1024);
    const res = await upload(huge, "name=huge", "text/csv");
    expect(res.status).toBe(413);
    expect((await res.json<ErrorBody>()).error.code).toBe("too_large");
    const json = await api("/prompt-sets", {
      method: "POST",
      json: { name: "big json", items: [{ prompt: "p".repeat(1_100_000) }] },
    });
    expect(json.status).toBe(413);
    expect(await setsNamed("huge")).toBe(0);
  });
});

describe("line errors", () => {
  it("names each bad JSON line by its number in the file, and stores nothing", async () => {
    const body = [
      JSON.stringify({ id: "a", prompt: "Fine" }),
      "",
      JSON.stringify({ id: "b", prompt: "   " }),
      "{not json",
      JSON.stringify({ id: "a", prompt: "Again a" }),
      JSON.stringify({ prompt: "x".repeat(50_001) }),
      JSON.stringify({ prompt: "Typo", categroy: "x" }),
      JSON.stringify({ prompt: "Bad turns", turns: [{ role: "assistant", content: "hi" }] }),
      "[1, 2]",
    ].join("\n");
    const res = await upload(body, "name=bad+lines", "application/x-ndjson");
    expect(res.status).toBe(422);
    const { error } = await res.json<ErrorBody>();
    expect(error.code).toBe("invalid_prompt_set");
    expect(error.message).toBe(
      "line 3: prompt is empty. 7 lines are wrong, so nothing was stored: fix the lines listed in details.errors and send the file again.",
    );
    expect(error.details!.errors.map((e) => e.line)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(error.details!.errors.slice(2).map((e) => e.message)).toEqual([
      'id "a" is already used on line 1',
      "prompt is longer than 50,000 characters",
      'unknown field "categroy" (an item has prompt, and optionally id, category, reference, turns, goal, persona and marker)',
      'turns must alternate user and assistant, starting with user: turn 1 is "assistant"',
      'each line is one JSON object, e.g. {"prompt": "…"}',
    ]);
    expect(error.details!.errors[1].message).toMatch(/^not valid JSON: /);
    expect(await setsNamed("bad lines")).toBe(0);
  });

  it("numbers CSV rows by the line they start on, a quoted line break counted", async () => {
    const body =
      'id,prompt,turns\nx,"two\nlines",\ny,,\nz,ok,not json\nw,fine\nv,"fine, quoted","[{""role"":""user"",""content"":""hi""}]"\n';
    const res = await upload(body, "name=bad+csv", "text/csv");
    expect(res.status).toBe(422);
    const { error } = await res.json<ErrorBody>();
    expect(error.details!.errors).toEqual([
      { line: 4, message: "prompt is empty" },
      { line: 5, message: expect.stringMatching(/^turns is not valid JSON: /) },
      {
        line: 6,
        message: "the row has 2 fields, the header 3 (a field holding a comma or a line break goes in double quotes)",
      },
      { line: 7, message: "turns must end with an assistant reply: the item's prompt is the user's next turn" },
    ]);
    expect(await setsNamed("bad csv")).toBe(0);
  });

  it("refuses a CSV without a prompt column, and broken quoting, at their line", async () => {
    const noPrompt = await upload("question\nWhy?\n", "name=no+prompt", "text/csv");
    expect(noPrompt.status).toBe(422);
    expect((await noPrompt.json<ErrorBody>()).error.message).toMatch(/^line 1: the header has no prompt column/);
    const broken = await upload('prompt\n"fine"\n"open\n', "name=broken", "text/csv");
    expect(broken.status).toBe(422);
    expect((await broken.json<ErrorBody>()).error.message).toMatch(/^line 3: the text ends inside a quoted field/);
  });

  it("refuses a JSON body with a repeated id, naming the item", async () => {
    const res = await api("/prompt-sets", {
      method: "POST",
      json: { name: "dupes", items: [{ prompt: "a", id: "item-2" }, { prompt: "b" }] },
    });
    expect(res.status).toBe(400);
    expect((await res.json<ErrorBody>()).error.message).toBe('items.1.id: id "item-2" is used twice (items 1 and 2)');
    expect(await setsNamed("dupes")).toBe(0);
  });

  it("refuses an upload with no items", async () => {
    const res = await upload("\n\n", "name=empty", "application/x-ndjson");
    expect(res.status).toBe(400);
    expect((await res.json<ErrorBody>()).error.code).toBe("empty_prompt_set");
  });
});

describe("editing and deleting", () => {
  it("replaces an unused set's items in place", async () => {
    const set = await createSet("draft", [{ prompt: "one" }, { prompt: "two" }]);
    const edited = await ok(
      client["prompt-sets"][":id"].$put({ param: { id: set.id }, json: { items: [{ prompt: "uno" }] } }),
    );
    expect(edited).toEqual({ ...set, items: 1, edit: "replaced" });
    expect((await detail(set.id)).items.map((i) => i.prompt)).toEqual(["uno"]);
  });

  it("makes a new version of a set an evaluation used, keeping the used one as it was", async () => {
    const set = await createSet("used once", [{ prompt: "one" }, { prompt: "two" }]);
    expect(await markPromptSetUsed(openDb(env.DB), set.id)).toBe(true);
    const res = await client["prompt-sets"][":id"].$put({
      param: { id: set.id },
      json: { name: "used once, revised", items: [{ prompt: "one" }, { prompt: "two" }, { prompt: "three" }] },
    });
    expect(res.status).toBe(201);
    const next = (await res.json()) as Edited;
    expect(next).toMatchObject({
      name: "used once, revised",
      version: 2,
      previousId: set.id,
      items: 3,
      edit: "new_version",
    });
    expect(next.id).not.toBe(set.id);
    expect((await loadPromptSetItems(openDb(env.DB), set.id)).map((i) => i.prompt)).toEqual(["one", "two"]);
    expect((await detail(set.id)).set.usedAt).toEqual(expect.any(Number));

    // The used set is edited through its newer version from now on.
    const again = await client["prompt-sets"][":id"].$put({
      param: { id: set.id },
      json: { items: [{ prompt: "x" }] },
    });
    expect(again.status).toBe(409);
    expect((await again.json()) as unknown as ErrorBody).toMatchObject({
      error: { code: "prompt_set_superseded", details: { nextId: next.id } },
    });
  });

  it("deletes an unused set with its items, and refuses a used one with a 409 that says why", async () => {
    const unused = await createSet("to delete", [{ prompt: "bye" }]);
    expect(await ok(client["prompt-sets"][":id"].$delete({ param: { id: unused.id } }))).toEqual({ deleted: true });
    expect(await storedItems(unused.id)).toBe(0);
    expect((await client["prompt-sets"][":id"].$get({ param: { id: unused.id }, query: {} })).status).toBe(404);

    const used = await createSet("kept", [{ prompt: "stay" }]);
    await markPromptSetUsed(openDb(env.DB), used.id);
    const res = await client["prompt-sets"][":id"].$delete({ param: { id: used.id } });
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as unknown as ErrorBody;
    expect(error.code).toBe("prompt_set_used");
    expect(error.message).toMatch(
      /^This prompt set is kept: an evaluation used it \(first on \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/,
    );
    expect(await storedItems(used.id)).toBe(1);
  });

  it("replaces items from an uploaded file: in place while unused, as the next version once used", async () => {
    const set = await createSet("by file", [{ prompt: "old" }]);
    const put = (id: string, body: string, query = "") =>
      api(`/prompt-sets/${id}/upload${query}`, { method: "PUT", body, headers: { "content-type": "text/csv" } });
    const replaced = await put(set.id, "id,prompt,category\na,first,x\nb,second,\n");
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toEqual({ ...set, items: 2, edit: "replaced" });
    expect((await detail(set.id)).items.map((i) => [i.id, i.prompt, i.category])).toEqual([
      ["a", "first", "x"],
      ["b", "second", null],
    ]);

    const bad = await put(set.id, 'prompt\n""\n');
    expect(bad.status).toBe(422);
    expect(await storedItems(set.id)).toBe(2);

    await markPromptSetUsed(openDb(env.DB), set.id);
    const versioned = await put(set.id, "prompt\nthird\n", "?name=by+file+v2");
    expect(versioned.status).toBe(201);
    expect(await versioned.json()).toMatchObject({ name: "by file v2", version: 2, previousId: set.id, items: 1 });
    expect(await storedItems(set.id)).toBe(2);
  });

  it("makes one new version of a used set edited twice at once, and refuses the other edit", async () => {
    const set = await createSet("raced", [{ prompt: "one" }]);
    await markPromptSetUsed(openDb(env.DB), set.id);
    const edit = (prompt: string) =>
      client["prompt-sets"][":id"].$put({ param: { id: set.id }, json: { items: [{ prompt }] } });
    const statuses = (await Promise.all([edit("a"), edit("b")])).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409]);
    const versions = await env.DB.prepare("SELECT count(*) AS n FROM prompt_sets WHERE previous_id = ?")
      .bind(set.id)
      .first<{ n: number }>();
    expect(versions!.n).toBe(1);
  });

  it("keeps the 1 MiB cap on a JSON edit whose id is the word upload", async () => {
    const res = await api("/prompt-sets/upload", {
      method: "PUT",
      json: { items: [{ prompt: "p".repeat(1_100_000) }] },
    });
    expect(res.status).toBe(413);
  });

  it("answers 404 for a set that isn't there", async () => {
    const res = await client["prompt-sets"][":id"].$put({ param: { id: "nope" }, json: { items: [{ prompt: "x" }] } });
    expect(res.status).toBe(404);
    expect(await markPromptSetUsed(openDb(env.DB), "nope")).toBe(false);
  });
});

describe("saving prompts from History", () => {
  it("stores the runs' questions then the comparisons' prompts, repeats left out", async () => {
    const run1 = await createRun({
      question: "History question one?",
      models: [{ id: "demo:concise" }],
      settings: { autoEvaluate: false },
    });
    const run2 = await createRun({
      question: "History question one?",
      models: [{ id: "demo:concise" }],
      settings: { autoEvaluate: false },
    });
    const comparison = await createComparison({
      prompt: "History arena prompt",
      models: ["demo:concise", "demo:thorough"],
      category: "coding",
    });
    await Promise.all([finished(run1), finished(run2), settled(comparison.id)]);

    const res = await client["prompt-sets"]["from-history"].$post({
      json: { name: "from history", runs: [run1, run2], comparisons: [comparison.id] },
    });
    expect(res.status).toBe(201);
    const set = (await res.json()) as FromHistory;
    expect(set).toMatchObject({ name: "from history", items: 2, duplicates: 1 });
    expect((await detail(set.id)).items).toEqual([
      { id: "item-1", prompt: "History question one?", category: null, reference: null, turns: null, ...NO_GOAL },
      { id: "item-2", prompt: "History arena prompt", category: "coding", reference: null, turns: null, ...NO_GOAL },
    ]);

    const missing = await client["prompt-sets"]["from-history"].$post({
      json: { name: "missing", runs: [run1, "not-a-run"] },
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as unknown as ErrorBody).error.message).toMatch(/^run not-a-run not found/);
    expect(await setsNamed("missing")).toBe(0);
  });
});
