/// <reference types="vite/client" />
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import inventoryDoc from "../../migrations/TRIGGERS.md?raw";

interface Documented {
  name: string;
  table: string;
  migration: string;
}

/** The table in migrations/TRIGGERS.md: one row per trigger, its table and the migration that defines it. */
function documented(): Documented[] {
  return [...inventoryDoc.matchAll(/^\| `(\w+)` \| `(\w+)` \| `([\w.]+)` \|/gm)].map(([, name, table, migration]) => ({
    name,
    table,
    migration,
  }));
}

const folded = (sql: string) => sql.replace(/\s+/g, " ").replace(/;\s*$/, "").trim();

/** The last CREATE TRIGGER for `name` across the migrations in the order they apply: file name and statement. */
function lastDefinition(name: string): { migration: string; sql: string } | null {
  let found: { migration: string; sql: string } | null = null;
  for (const migration of env.TEST_MIGRATIONS)
    for (const query of migration.queries) {
      const at = query.indexOf(`CREATE TRIGGER \`${name}\``);
      if (at >= 0) found = { migration: migration.name, sql: query.slice(at) };
    }
  return found;
}

describe("the D1 triggers", () => {
  it("are exactly the documented inventory, each as its documented migration defines it", async () => {
    const inventory = documented();
    expect(inventory.length).toBeGreaterThan(10);
    const live = await env.DB.prepare(
      "SELECT name, tbl_name AS tableName, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
    ).all<{ name: string; tableName: string; sql: string }>();
    expect(live.results.map((t) => [t.name, t.tableName])).toEqual(
      inventory.map((t) => [t.name, t.table]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    for (const trigger of live.results) {
      const definition = lastDefinition(trigger.name);
      expect(definition?.migration, trigger.name).toBe(inventory.find((t) => t.name === trigger.name)!.migration);
      expect(folded(definition!.sql), trigger.name).toBe(folded(trigger.sql));
    }
  });
});
