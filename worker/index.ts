import { Hono } from "hono";
import { DurableObject } from "cloudflare:workers";

export class RunRoom extends DurableObject<Env> {}

const app = new Hono<{ Bindings: Env }>();
app.get("/api/health", (c) => c.json({ ok: true }));

export default app satisfies ExportedHandler<Env>;
