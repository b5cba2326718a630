/**
 * docs/api.md, rendered from the OpenAPI document the Worker serves at GET /api/openapi.json. Pure (no Node,
 * no Worker imports), so test/integration/openapi.test.ts renders the real Worker's document with it and fails
 * when docs/api.md differs; `npm run docs:api` runs that test with --update, which writes the file.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  description?: string;
};

type Parameter = { in: string; name: string; required?: boolean; description?: string; schema?: Schema };
type Media = Record<string, { schema?: Schema }>;
type Response = { $ref?: string; description?: string; content?: Media };
type Operation = {
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content: Media };
  responses?: Record<string, Response>;
};

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Response> };
}

const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);
const anchor = (name: string) => `#${name.toLowerCase()}`;
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** An object among others (a union's member) by its fields, a constant one with its value: `{ status: "ready", models }`. */
function shapeOf(s: Schema): string {
  const required = new Set(s.required ?? []);
  const fields = Object.entries(s.properties ?? {}).map(([name, p]) =>
    p.const !== undefined || p.$ref ? `${name}: ${typeOf(p)}` : `${name}${required.has(name) ? "" : "?"}`,
  );
  return `{ ${fields.join(", ")} }`;
}

/** A schema's type in a few characters: `string`, `number \| null`, `"a" \| "b"`, `RunDetail[]`. */
function typeOf(s: Schema | undefined): string {
  if (!s) return "any";
  if (s.$ref) return `[${refName(s.$ref)}](${anchor(refName(s.$ref))})`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const union = s.anyOf ?? s.oneOf;
  if (union) {
    const objects = union.filter((m) => m.properties).length;
    return union.map((m) => (objects > 1 && m.properties ? shapeOf(m) : typeOf(m))).join(" | ");
  }
  if (s.allOf) return s.allOf.map(typeOf).join(" & ");
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (!types.length) return "any";
  return types
    .map((t) => {
      if (t !== "array") return t;
      const item = typeOf(s.items);
      return item.includes(" | ") ? `(${item})[]` : `${item}[]`;
    })
    .join(" | ");
}

/** Limits and the default, as a short note: `1–100, default 20`. */
function notesOf(s: Schema | undefined): string {
  if (!s) return "";
  const notes: string[] = [];
  const range = (min: number | undefined, max: number | undefined, unit: string) => {
    if (min !== undefined && max !== undefined) notes.push(`${min}–${max}${unit}`);
    else if (min !== undefined) notes.push(`at least ${min}${unit}`);
    else if (max !== undefined) notes.push(`at most ${max}${unit}`);
  };
  range(s.minimum, s.maximum, "");
  range(s.minLength, s.maxLength, " characters");
  range(s.minItems, s.maxItems, " items");
  if (s.pattern) notes.push(`matches \`${s.pattern}\``);
  if (s.default !== undefined) notes.push(`default \`${JSON.stringify(s.default)}\``);
  if (s.description) notes.push(s.description);
  return notes.join("; ");
}

/** The object a schema describes, a nullable object's too; undefined for anything else. */
function objectOf(s: Schema | undefined): Schema | undefined {
  if (!s) return undefined;
  if (s.properties) return s;
  const members = s.anyOf ?? s.oneOf ?? [];
  const nullable = members.length === 2 && members.some((m) => m.type === "null");
  return nullable ? members.find((m) => m.properties) : undefined;
}

/** An object's fields, nested objects' fields flattened into `a.b` and `list[].b` rows. */
function fieldRows(schema: Schema, prefix = "", depth = 0): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, p]) => {
    const field = `${prefix}${name}`;
    const row = `| \`${field}\` | ${cell(typeOf(p))} | ${required.has(name) ? "yes" : "no"} | ${cell(notesOf(p))} |`;
    const inner = depth < 2 ? (objectOf(p.items) ?? objectOf(p)) : undefined;
    return inner ? [row, ...fieldRows(inner, p.items ? `${field}[].` : `${field}.`, depth + 1)] : [row];
  });
}

function fieldTable(schema: Schema): string[] {
  if (!schema.properties || !Object.keys(schema.properties).length) return [`${typeOf(schema)}`, ""];
  return ["| field | type | required | notes |", "| --- | --- | --- | --- |", ...fieldRows(schema), ""];
}

function parameterTable(params: Parameter[]): string[] {
  if (!params.length) return [];
  return [
    "**Parameters**",
    "",
    "| name | in | type | required | notes |",
    "| --- | --- | --- | --- | --- |",
    ...params.map((p) => {
      const notes = [notesOf(p.schema), p.description ?? ""].filter(Boolean).join("; ");
      return `| \`${p.name}\` | ${p.in} | ${cell(typeOf(p.schema))} | ${p.required ? "yes" : "no"} | ${cell(notes)} |`;
    }),
    "",
  ];
}

/** A body in each of its media types: an inline object's fields as a table, anything else by its type. */
function bodyOf(title: string, media: Media | undefined): string[] {
  return Object.entries(media ?? {}).flatMap(([type, m]) => {
    const inline = m.schema && !m.schema.$ref && m.schema.properties;
    return inline
      ? [`${title} (\`${type}\`)`, "", ...fieldTable(m.schema!)]
      : [`${title} (\`${type}\`): ${typeOf(m.schema)}`, ""];
  });
}

/** Success responses with their bodies; errors by status only, each explained once under Errors. */
function responsesOf(responses: Record<string, Response>): string[] {
  const statuses = Object.keys(responses).sort();
  const errors = statuses.filter((s) => responses[s].$ref);
  return [
    ...statuses
      .filter((s) => !responses[s].$ref)
      .flatMap((status) => {
        const r = responses[status];
        const title = `**${status}** ${r.description ?? ""}`.trim();
        return r.content ? bodyOf(title, r.content) : [title, ""];
      }),
    ...(errors.length ? [`**Errors**: ${errors.join(", ")} ([Errors](#errors))`, ""] : []),
  ];
}

function operation(method: string, path: string, op: Operation): string[] {
  return [
    `### ${method.toUpperCase()} ${path}`,
    "",
    ...(op.summary ? [`${op.summary}.`, ""] : []),
    ...(op.description ? [op.description, ""] : []),
    ...parameterTable(op.parameters ?? []),
    ...bodyOf("**Body**", op.requestBody?.content),
    ...responsesOf(op.responses ?? {}),
  ];
}

function errorsSection(doc: OpenApiDocument): string[] {
  const byName = new Map(Object.entries(doc.components.responses));
  const statuses = new Map<string, string>();
  for (const ops of Object.values(doc.paths))
    for (const op of Object.values(ops))
      for (const [status, r] of Object.entries(op.responses ?? {}))
        if (r.$ref) statuses.set(status, byName.get(refName(r.$ref))?.description ?? "");
  return [
    "## Errors",
    "",
    "Every refusal and failure has one shape, [Error](#error): `{ error: { code, message, details? } }`.",
    "",
    "| status | when |",
    "| --- | --- |",
    ...[...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([status, why]) => `| ${status} | ${cell(why)} |`),
    "",
  ];
}

/** The document as one Markdown page: its routes by tag, in the document's order, then its named schemas. */
export function renderApiReference(doc: OpenApiDocument): string {
  const out = [
    `# ${doc.info.title} reference`,
    "",
    "<!-- Generated from GET /api/openapi.json by `npm run docs:api` (scripts/api-docs.ts): edit the routes' descriptions, not this file. -->",
    "",
    doc.info.description ?? "",
    "",
    `The same reference, machine-readable (OpenAPI ${doc.openapi}), is served at \`GET /api/openapi.json\`.`,
    "",
  ];
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method, path, op })),
  );
  const listed = new Set((doc.tags ?? []).map((t) => t.name));
  const untagged = { name: "Other", description: "" };
  for (const tag of [...(doc.tags ?? []), untagged]) {
    const tagged = operations.filter((o) =>
      tag === untagged ? !o.op.tags?.some((t) => listed.has(t)) : o.op.tags?.includes(tag.name),
    );
    if (!tagged.length) continue;
    out.push(`## ${tag.name}`, "", ...(tag.description ? [tag.description, ""] : []));
    for (const o of tagged) out.push(...operation(o.method, o.path, o.op));
  }
  out.push(...errorsSection(doc));
  out.push("## Schemas", "");
  for (const [name, schema] of Object.entries(doc.components.schemas).sort(([a], [b]) => a.localeCompare(b)))
    out.push(`### ${name}`, "", ...fieldTable(schema));
  return `${out.join("\n").trimEnd()}\n`;
}
