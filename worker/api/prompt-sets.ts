/**
 * /api/prompt-sets: named lists of prompts an evaluation runs over — created from a JSON body, an uploaded JSON
 * Lines or CSV file, or prompts picked in History; listed, read a page at a time, exported, edited, deleted. A set
 * an evaluation used never changes: an edit then makes a new version, and it can't be deleted.
 */
import { type Context, Hono } from "hono";
import { describeRoute } from "hono-openapi";
import {
  comparisonPrompts,
  deleteUnusedPromptSet,
  getPromptSet,
  insertPromptSet,
  listPromptSets,
  nextVersionOf,
  type PromptSetRow,
  promptSetItemsPage,
  replacePromptSetItems,
  runQuestions,
} from "../db/prompt-set-queries";
import { openDb } from "../db/queries";
import { EXPORT_TYPES, exportHead, exportLines } from "../prompt-sets/export";
import { MAX_PROMPT_SET_UPLOAD_BYTES } from "../shared/constants";
import { autoItemId, type PromptSetItem } from "../shared/prompt-set";
import {
  createPromptSetInput,
  editPromptSetInput,
  listPromptSetsQuery,
  type PromptSetItemInput,
  promptSetExportQuery,
  promptSetFromHistoryInput,
  promptSetItemsQuery,
  promptSetReplaceQuery,
  promptSetUploadQuery,
} from "../shared/requests";
import {
  promptSetCsv,
  promptSetDeleted,
  promptSetDetail,
  promptSetEdited,
  promptSetFromHistory,
  promptSetJsonl,
  promptSetLine,
  promptSetList,
  promptSetSummary,
} from "../shared/responses";
import { ApiError, notFound } from "./errors";
import { errorResponses, jsonResponse, mediaContent, mediaResponse, pathParam } from "./openapi-describe";
import { parseCursor } from "./paging";
import { readUpload, uploadFormat, uploadTooLarge } from "./prompt-set-upload";
import { validate } from "./validate";

/** A set's id: random, as nothing else (no room, no signature) is addressed by it. */
const newSetId = () => crypto.randomUUID();

/** A set as the API shows it. */
const summaryOf = (row: PromptSetRow) => ({
  id: row.id,
  name: row.name,
  version: row.version,
  previousId: row.previousId,
  items: row.items,
  createdAt: row.createdAt,
  usedAt: row.usedAt,
});

/** What an item saved from History has besides its prompt and category: nothing. */
const PROMPT_ONLY = { reference: null, turns: null, goal: null, persona: null, marker: null } as const;

/** Validated items as stored: an item given no id gets its position's. */
const itemsOf = (items: PromptSetItemInput[]): PromptSetItem[] =>
  items.map((item, k) => ({
    id: item.id ?? autoItemId(k + 1),
    prompt: item.prompt,
    category: item.category ?? null,
    reference: item.reference ?? null,
    turns: item.turns ?? null,
    goal: item.goal ?? null,
    persona: item.persona ?? null,
    marker: item.marker ?? null,
  }));

async function createSet(c: Context<{ Bindings: Env }>, name: string, items: PromptSetItem[]) {
  const set = { id: newSetId(), name, version: 1, previousId: null, createdAt: Date.now() };
  await insertPromptSet(openDb(c.env.DB), set, items);
  return { ...set, items: items.length, usedAt: null };
}

async function existingSet(c: Context<{ Bindings: Env }>): Promise<PromptSetRow> {
  const set = await getPromptSet(openDb(c.env.DB), c.req.param("id") ?? "");
  if (!set) throw notFound("Prompt set");
  return set;
}

/**
 * Gives a set new items (and name): in place while no evaluation used it, else as its next version. Each write is
 * guarded in its own transaction, so an evaluation marking the set used meanwhile turns the edit into a new version,
 * and two edits of one used set make one new version (the other is refused).
 */
async function editSet(c: Context<{ Bindings: Env }>, set: PromptSetRow, name: string, items: PromptSetItem[]) {
  const db = openDb(c.env.DB);
  if (set.usedAt === null && (await replacePromptSetItems(db, set.id, name, items)))
    return { ...summaryOf({ ...set, name, items: items.length }), edit: "replaced" as "replaced" | "new_version" };
  // Deleted meanwhile: there is nothing to make a version of.
  if (set.usedAt === null && !(await getPromptSet(db, set.id))) throw notFound("Prompt set");
  const next = { id: newSetId(), name, version: set.version + 1, previousId: set.id, createdAt: Date.now() };
  if (!(await insertPromptSet(db, next, items))) {
    const newer = await nextVersionOf(db, set.id);
    throw new ApiError(
      409,
      "prompt_set_superseded",
      `An evaluation used this set, and it was already edited into version ${newer?.version} (${newer?.id}): edit that one instead.`,
      { nextId: newer?.id ?? null },
    );
  }
  return { ...next, items: items.length, usedAt: null, edit: "new_version" as "replaced" | "new_version" };
}

const usedOn = (usedAt: number) => new Date(usedAt).toISOString().slice(0, 16).replace("T", " ");

/** A file name's part from a set's name: letters, digits and hyphens only, so the header can't be broken. */
const fileStem = (row: PromptSetRow) =>
  `quorum-prompts-${
    row.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60) || "set"
  }-v${row.version}`;

/** Export pages: big enough to be few D1 reads, small enough to stream. */
const EXPORT_PAGE = 500;

const setId = pathParam("id", "The prompt set's id, as creating it returned it.");
const MIB = MAX_PROMPT_SET_UPLOAD_BYTES / 1024 / 1024;

/** The routes below as the OpenAPI document (openapi.ts) describes them. */
const described = {
  create: describeRoute({
    tags: ["Prompt sets"],
    summary: "Create a prompt set from a JSON body",
    description:
      "Up to 10,000 items in one body under the 1 MiB cap of JSON bodies; for larger sets, upload a file (POST /api/prompt-sets/upload). An item without an id gets `item-<position>` (1-based).",
    responses: { 201: jsonResponse(promptSetSummary, "The set, stored."), ...errorResponses(400) },
  }),
  upload: describeRoute({
    tags: ["Prompt sets"],
    summary: "Create a prompt set from a JSON Lines or CSV file",
    description: `The body is the file itself, read as it streams, up to ${MIB} MiB and 10,000 items. Its format is \`format\` when given, else its Content-Type (text/csv; application/x-ndjson or application/jsonl), else what it starts with ({ is JSON Lines). JSON Lines: one object a line, \`{"prompt": "…", "id"?, "category"?, "reference"?, "turns"?, "goal"?, "persona"?, "marker"?}\` (goal, persona and marker are a goal evaluation's). CSV: a header naming the columns (prompt, and optionally id, category, reference, turns, goal, persona, marker), then one item a row; a field holding a comma, quote or line break is quoted ("" for a quote); an empty cell leaves the field out; turns is a JSON array of { role, content }, the earlier turns of a multi-turn item (user first, ending with the assistant's reply). Every line is checked before anything is stored: one bad line and the answer is a 422 naming each (line numbers are the file's, a CSV's header is line 1). \`curl --data-binary @prompts.csv -H 'Content-Type: text/csv' 'http://localhost:8787/api/prompt-sets/upload?name=My+prompts'\``,
    requestBody: {
      required: true,
      content: mediaContent({ "application/x-ndjson": promptSetLine, "text/csv": promptSetCsv }),
    },
    responses: { 201: jsonResponse(promptSetSummary, "The set, stored."), ...errorResponses(400, 413, 422) },
  }),
  fromHistory: describeRoute({
    tags: ["Prompt sets"],
    summary: "Save prompts from History as a new prompt set",
    description:
      "The runs' questions, then the comparisons' first prompts (with their categories), each in the order given; a prompt repeating an earlier one is left out and counted in `duplicates`. An id this server doesn't hold (deleted, archived or never made) is a 404 naming it.",
    responses: { 201: jsonResponse(promptSetFromHistory, "The set, stored."), ...errorResponses(400, 404) },
  }),
  list: describeRoute({
    tags: ["Prompt sets"],
    summary: "List prompt sets, newest first",
    responses: { 200: jsonResponse(promptSetList, "A page of sets."), ...errorResponses(400) },
  }),
  get: describeRoute({
    tags: ["Prompt sets"],
    summary: "A prompt set and a page of its items, in order",
    parameters: [setId],
    responses: { 200: jsonResponse(promptSetDetail, "The set and its items."), ...errorResponses(400, 404) },
  }),
  export: describeRoute({
    tags: ["Prompt sets"],
    summary: "Download a prompt set as JSON Lines or CSV, as the upload reads it back",
    parameters: [setId],
    responses: {
      200: mediaResponse("The set, as an attachment.", {
        "application/x-ndjson": promptSetJsonl,
        "text/csv": promptSetCsv,
      }),
      ...errorResponses(400, 404),
    },
  }),
  edit: describeRoute({
    tags: ["Prompt sets"],
    summary: "Replace a prompt set's items (and name): in place, or as a new version once an evaluation used it",
    description:
      "A set no evaluation used is changed in place (200, edit `replaced`). A used set never changes: a new set is made with previousId this one and version + 1 (201, edit `new_version`). A used set already edited is a 409 naming its newer version, which is the one to edit.",
    parameters: [setId],
    responses: {
      200: jsonResponse(promptSetEdited, "The set, its items replaced."),
      201: jsonResponse(promptSetEdited, "The new version."),
      ...errorResponses(400, 404, 409),
    },
  }),
  editUpload: describeRoute({
    tags: ["Prompt sets"],
    summary: "Replace a prompt set's items with an uploaded JSON Lines or CSV file",
    description: `The upload's body and checks (POST /api/prompt-sets/upload: up to ${MIB} MiB, every line checked, nothing changed when one is bad) with the edit's rule (PUT /api/prompt-sets/{id}): in place while no evaluation used the set, else as its next version. The name stays unless \`name\` is given.`,
    parameters: [setId],
    requestBody: {
      required: true,
      content: mediaContent({ "application/x-ndjson": promptSetLine, "text/csv": promptSetCsv }),
    },
    responses: {
      200: jsonResponse(promptSetEdited, "The set, its items replaced."),
      201: jsonResponse(promptSetEdited, "The new version."),
      ...errorResponses(400, 404, 409, 413, 422),
    },
  }),
  delete: describeRoute({
    tags: ["Prompt sets"],
    summary: "Delete a prompt set no evaluation used",
    parameters: [setId],
    responses: { 200: jsonResponse(promptSetDeleted, "Deleted."), ...errorResponses(404, 409) },
  }),
};

export const promptSetsApi = new Hono<{ Bindings: Env }>()
  .post("/", described.create, validate("json", createPromptSetInput), async (c) => {
    const { name, items } = c.req.valid("json");
    return c.json(summaryOf(await createSet(c, name, itemsOf(items))), 201);
  })
  .post("/upload", described.upload, validate("query", promptSetUploadQuery), async (c) => {
    const { name, format } = c.req.valid("query");
    // A body declared too large is refused unread.
    if (Number(c.req.header("Content-Length") ?? 0) > MAX_PROMPT_SET_UPLOAD_BYTES) throw uploadTooLarge();
    const items = await readUpload(c.req.raw.body, uploadFormat(format, c.req.header("Content-Type")));
    return c.json(summaryOf(await createSet(c, name, items)), 201);
  })
  .post("/from-history", described.fromHistory, validate("json", promptSetFromHistoryInput), async (c) => {
    const { name, runs, comparisons } = c.req.valid("json");
    const db = openDb(c.env.DB);
    const [questions, prompts] = await Promise.all([runQuestions(db, runs), comparisonPrompts(db, comparisons)]);
    const missing = [
      ...runs.filter((id) => !questions.has(id)).map((id) => `run ${id}`),
      ...comparisons.filter((id) => !prompts.has(id)).map((id) => `comparison ${id}`),
    ];
    if (missing.length)
      throw new ApiError(
        404,
        "not_found",
        `${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ` and ${missing.length - 3} more` : ""} not found: deleted, archived or never made here. Nothing was stored.`,
        { missing },
      );
    const picked = [
      ...runs.map((id) => ({ prompt: questions.get(id)!.trim(), category: null })),
      ...comparisons.map((id) => ({ prompt: prompts.get(id)!.prompt.trim(), category: prompts.get(id)!.category })),
    ];
    const seen = new Set<string>();
    const unique = picked.filter((p) => !seen.has(p.prompt) && !!seen.add(p.prompt));
    const items = unique.map((p, k) => ({ id: autoItemId(k + 1), ...p, ...PROMPT_ONLY }));
    return c.json({ ...summaryOf(await createSet(c, name, items)), duplicates: picked.length - unique.length }, 201);
  })
  .get("/", described.list, validate("query", listPromptSetsQuery), async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const { rows, nextCursor } = await listPromptSets(openDb(c.env.DB), limit, parseCursor(cursor));
    return c.json({ items: rows.map(summaryOf), nextCursor });
  })
  .get("/:id", described.get, validate("query", promptSetItemsQuery), async (c) => {
    const set = await existingSet(c);
    const { cursor, limit } = c.req.valid("query");
    const page = await promptSetItemsPage(openDb(c.env.DB), set.id, Number(cursor ?? 0), limit);
    return c.json({ set: summaryOf(set), ...page });
  })
  .get("/:id/export", described.export, validate("query", promptSetExportQuery), async (c) => {
    const set = await existingSet(c);
    const { format } = c.req.valid("query");
    const db = openDb(c.env.DB);
    const encoder = new TextEncoder();
    let after: number | null = 0;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const head = exportHead(format);
        if (head) controller.enqueue(encoder.encode(head));
      },
      // Each pull enqueues or closes: a pull that did neither would not be called again.
      async pull(controller) {
        if (after === null) return controller.close();
        const page = await promptSetItemsPage(db, set.id, after, EXPORT_PAGE);
        after = page.nextCursor === null ? null : Number(page.nextCursor);
        if (page.items.length) controller.enqueue(encoder.encode(exportLines(format, page.items)));
        else controller.close();
      },
    });
    return c.body(stream, 200, {
      "Content-Type": EXPORT_TYPES[format],
      "Content-Disposition": `attachment; filename="${fileStem(set)}.${format}"`,
    });
  })
  .put("/:id", described.edit, validate("json", editPromptSetInput), async (c) => {
    const set = await existingSet(c);
    const input = c.req.valid("json");
    const edited = await editSet(c, set, input.name ?? set.name, itemsOf(input.items));
    return edited.edit === "replaced" ? c.json(edited, 200) : c.json(edited, 201);
  })
  .put("/:id/upload", described.editUpload, validate("query", promptSetReplaceQuery), async (c) => {
    const set = await existingSet(c);
    const { name, format } = c.req.valid("query");
    if (Number(c.req.header("Content-Length") ?? 0) > MAX_PROMPT_SET_UPLOAD_BYTES) throw uploadTooLarge();
    const items = await readUpload(c.req.raw.body, uploadFormat(format, c.req.header("Content-Type")));
    const edited = await editSet(c, set, name ?? set.name, items);
    return edited.edit === "replaced" ? c.json(edited, 200) : c.json(edited, 201);
  })
  .delete("/:id", described.delete, async (c) => {
    const set = await existingSet(c);
    if (set.usedAt === null && (await deleteUnusedPromptSet(openDb(c.env.DB), set.id)))
      return c.json({ deleted: true as const });
    const usedAt = set.usedAt ?? (await getPromptSet(openDb(c.env.DB), set.id))?.usedAt;
    if (!usedAt) throw notFound("Prompt set");
    throw new ApiError(
      409,
      "prompt_set_used",
      `This prompt set is kept: an evaluation used it (first on ${usedOn(usedAt)} UTC), and its results refer to these items. Edit it to make a new version instead.`,
      { usedAt },
    );
  });
