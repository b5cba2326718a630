/** The default review: a valid instance of whatever review schema the request carries, built from its label enum. */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  $ref?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
};

interface Ctx {
  root: Schema;
  labels: string[];
  label?: string;
}

/**
 * Ranking = the labels in the enum's order, every score 7, confidence 0.8 and a short critique per label.
 * Works for any schema shape: per-label items are recognised by a property whose enum is the label enum.
 */
export function defaultReview(schema: unknown): unknown {
  const root = (schema ?? {}) as Schema;
  return instance(root, "", { root, labels: findLabels(root) });
}

/** Finds a JSON Schema written into a prompt (JSON mode carries no schema of its own). */
export function findEmbeddedSchema(texts: string[]): unknown {
  for (const text of texts) {
    const end = text.lastIndexOf("}");
    for (let start = text.indexOf("{"); start >= 0 && start < end; start = text.indexOf("{", start + 1)) {
      try {
        const parsed = JSON.parse(text.slice(start, end + 1)) as Schema;
        if (parsed && typeof parsed === "object" && parsed.properties) return parsed;
      } catch {
        // not JSON from here; try the next brace
      }
    }
  }
  return null;
}

function findLabels(schema: Schema, seen = new Set<Schema>()): string[] {
  if (!schema || typeof schema !== "object" || seen.has(schema)) return [];
  seen.add(schema);
  if (schema.items?.enum) return schema.items.enum.map(String);
  for (const child of Object.values(schema)) {
    const children = Array.isArray(child) ? child : [child];
    for (const c of children) {
      const found = findLabels(c as Schema, seen);
      if (found.length) return found;
    }
  }
  return [];
}

function resolve(schema: Schema, ctx: Ctx): Schema {
  if (schema.$ref?.startsWith("#/")) {
    const target = schema.$ref
      .slice(2)
      .split("/")
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], ctx.root);
    return resolve((target ?? {}) as Schema, ctx);
  }
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice) return resolve(choice.find((s) => typeOf(s) !== "null") ?? choice[0], ctx);
  return schema;
}

const typeOf = (s: Schema) => {
  const t = Array.isArray(s.type) ? s.type.find((x) => x.toLowerCase() !== "null") : s.type;
  return t?.toLowerCase() ?? (s.properties ? "object" : s.items ? "array" : undefined);
};

const isLabelEnum = (values: unknown[] | undefined, ctx: Ctx) =>
  !!values && values.length === ctx.labels.length && values.every((v, i) => v === ctx.labels[i]);

function instance(raw: Schema, name: string, ctx: Ctx): unknown {
  const schema = resolve(raw, ctx);
  if (schema.enum) return ctx.label && isLabelEnum(schema.enum, ctx) ? ctx.label : schema.enum[0];
  switch (typeOf(schema)) {
    case "object":
      return objectInstance(schema, ctx);
    case "array":
      return arrayInstance(schema, name, ctx);
    case "number":
    case "integer":
      return numberInstance(schema, name);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return /critique|comment|feedback|reason|explanation|summary/i.test(name)
        ? `Answer ${ctx.label ?? ctx.labels.join(", ")} is clear and mostly correct; one more example would help.`
        : "ok";
  }
}

function objectInstance(schema: Schema, ctx: Ctx): Record<string, unknown> {
  if (schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties).map(([key, prop]) => [key, instance(prop, key, ctx)]));
  }
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
    const each = schema.additionalProperties;
    return Object.fromEntries(ctx.labels.map((label) => [label, instance(each, label, { ...ctx, label })]));
  }
  return {};
}

function arrayInstance(schema: Schema, name: string, ctx: Ctx): unknown[] {
  const items = resolve(schema.items ?? {}, ctx);
  if (items.enum) return [...items.enum];
  const perLabel = Object.values(items.properties ?? {}).some((p) => isLabelEnum(resolve(p, ctx).enum, ctx));
  if (perLabel) return ctx.labels.map((label) => instance(items, name, { ...ctx, label }));
  return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => instance(items, name, ctx));
}

function numberInstance(schema: Schema, name: string): number {
  let value = /confidence/i.test(name) ? 0.8 : 7;
  if (schema.maximum !== undefined && value > schema.maximum) value = schema.maximum;
  if (schema.minimum !== undefined && value < schema.minimum) value = schema.minimum;
  return typeOf(schema) === "integer" ? Math.round(value) : value;
}
