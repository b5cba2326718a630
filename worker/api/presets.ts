/**
 * /api/presets: a model with its own system prompt and parameters, named, versioned and used wherever a model id is
 * (`preset:<slug>@<version>`). A version nothing used yet is edited in place; a used one never changes again, so an
 * edit of it is saved as the next version.
 */
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import {
  deletePreset,
  editPreset,
  insertPreset,
  latestPresets,
  type PresetFields,
  type PresetRow,
  presetVersions,
} from "../db/preset-queries";
import { openDb } from "../db/queries";
import { isPresetId, parsePresetId, presetId } from "../shared/contestant";
import { slugFromName } from "../shared/preset-names";
import { createPresetInput, type EditPresetInput, editPresetInput } from "../shared/requests";
import { presetDeleted, presetDetail, presetEdited, presetList, presetView } from "../shared/responses";
import { checkModels } from "./check-models";
import { ApiError, notFound } from "./errors";
import { errorResponses, jsonResponse, pathParam } from "./openapi-describe";
import { validate } from "./validate";

/** A preset runs on a model, configured here: never on another preset (whose prompt would then be hidden in it). */
function checkPresetModel(env: Env, modelId: string) {
  if (isPresetId(modelId))
    throw new ApiError(
      400,
      "preset_on_preset",
      `"${modelId}" is a preset; a preset runs on a model id such as demo:concise. Use that preset's model instead.`,
    );
  checkModels(env, [modelId]);
}

const view = (row: PresetRow) => ({
  id: presetId(row),
  slug: row.slug,
  version: row.version,
  name: row.name,
  modelId: row.modelId,
  systemPrompt: row.systemPrompt,
  temperature: row.temperature,
  maxTokens: row.maxTokens,
  createdAt: row.createdAt,
  usedAt: row.usedAt,
});

const edited = (current: PresetFields, edit: EditPresetInput): PresetFields => ({
  name: edit.name ?? current.name,
  modelId: edit.modelId ?? current.modelId,
  systemPrompt: edit.systemPrompt === undefined ? current.systemPrompt : edit.systemPrompt,
  temperature: edit.temperature === undefined ? current.temperature : edit.temperature,
  maxTokens: edit.maxTokens === undefined ? current.maxTokens : edit.maxTokens,
});

/** The route's slug, from a slug or a whole preset id (`preset:terse@2`, its version then picked). */
function refOf(param: string): { slug: string; version: number | null } {
  const ref = parsePresetId(param);
  if (ref) return ref;
  if (/^[a-z0-9-]{1,48}$/.test(param)) return { slug: param, version: null };
  throw notFound("Preset");
}

const slugParam = pathParam("slug", "The preset's slug (`terse`); GET also takes a whole id, `preset:terse@2`.");

const described = {
  create: describeRoute({
    tags: ["Presets"],
    summary: "Save a preset: a model with its own system prompt and parameters",
    description:
      "Its id is `preset:<slug>@1`, the slug made from the name unless given. It can be used wherever a model id can.",
    responses: { 201: jsonResponse(presetView, "The preset, version 1."), ...errorResponses(400, 409) },
  }),
  list: describeRoute({
    tags: ["Presets"],
    summary: "The presets: the newest version of each, with how many versions it has",
    responses: { 200: jsonResponse(presetList, "The presets.") },
  }),
  get: describeRoute({
    tags: ["Presets"],
    summary: "A preset: its newest version (or the one a whole id names), with every version, newest first",
    parameters: [slugParam],
    responses: { 200: jsonResponse(presetDetail, "The preset and its versions."), ...errorResponses(404) },
  }),
  edit: describeRoute({
    tags: ["Presets"],
    summary: "Edit a preset: in place while its newest version is unused, else saved as version n+1",
    parameters: [slugParam],
    responses: { 200: jsonResponse(presetEdited, "The version the edit is saved as."), ...errorResponses(400, 404) },
  }),
  delete: describeRoute({
    tags: ["Presets"],
    summary: "Delete a preset: it can't be used again; results that name it keep it",
    parameters: [slugParam],
    responses: { 200: jsonResponse(presetDeleted, "Deleted."), ...errorResponses(404) },
  }),
};

export const presetsApi = new Hono<{ Bindings: Env }>()
  .post("/", described.create, validate("json", createPresetInput), async (c) => {
    const input = c.req.valid("json");
    checkPresetModel(c.env, input.modelId);
    const slug = input.slug ?? slugFromName(input.name);
    if (!slug)
      throw new ApiError(
        400,
        "invalid_request",
        "name: it holds no letter or digit to make the preset's id from; add some, or give a slug.",
      );
    const row = await insertPreset(openDb(c.env.DB), slug, {
      name: input.name,
      modelId: input.modelId,
      systemPrompt: input.systemPrompt ?? null,
      temperature: input.temperature ?? null,
      maxTokens: input.maxTokens ?? null,
    });
    if (!row)
      throw new ApiError(
        409,
        "preset_exists",
        `A preset with the slug "${slug}" exists already (or existed: deleted slugs stay taken). Edit it with PATCH /api/presets/${slug}, or choose another name or slug.`,
        { slug },
      );
    return c.json(view(row), 201);
  })
  .get("/", described.list, async (c) => {
    const rows = await latestPresets(openDb(c.env.DB));
    return c.json({ presets: rows.map((r) => ({ ...view(r), versions: r.versions })) });
  })
  .get("/:slug", described.get, async (c) => {
    const ref = refOf(c.req.param("slug"));
    const rows = (await presetVersions(openDb(c.env.DB), ref.slug)).filter((r) => r.deletedAt === null);
    const named = ref.version === null ? rows[0] : rows.find((r) => r.version === ref.version);
    if (!named) throw notFound("Preset");
    return c.json({ ...view(named), versions: rows.map(view) });
  })
  .patch("/:slug", described.edit, validate("json", editPresetInput), async (c) => {
    const input = c.req.valid("json");
    if (input.modelId) checkPresetModel(c.env, input.modelId);
    const { slug, version } = refOf(c.req.param("slug"));
    if (version !== null)
      throw new ApiError(
        400,
        "invalid_request",
        `Edit a preset by its slug (PATCH /api/presets/${slug}), not a version.`,
      );
    const saved = await editPreset(openDb(c.env.DB), slug, (current) => edited(current, input));
    if (!saved) throw notFound("Preset");
    return c.json({ ...view(saved.row), saved: saved.inPlace ? ("in_place" as const) : ("new_version" as const) });
  })
  .delete("/:slug", described.delete, async (c) => {
    const { slug, version } = refOf(c.req.param("slug"));
    if (version !== null)
      throw new ApiError(400, "invalid_request", `Delete a preset by its slug (DELETE /api/presets/${slug}).`);
    if (!(await deletePreset(openDb(c.env.DB), slug, Date.now()))) throw notFound("Preset");
    return c.json({ deleted: true as const, slug });
  });
