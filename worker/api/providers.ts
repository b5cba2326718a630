/**
 * GET /api/providers — each provider's status and why, with the `.dev.vars` lines it lacks;
 * POST /api/providers/:provider/test — proves a key and base URL work with the smallest call the vendor offers.
 */
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { createProvider, isProviderId, PROVIDER_NAMES, unavailableReason } from "../providers/registry";
import { listProviderSetups } from "../providers/setup";
import { PROVIDER_IDS } from "../providers/types";
import { providersResponse, providerTestResponse } from "../shared/responses";
import { ApiError } from "./errors";
import { errorResponses, jsonResponse, pathParam } from "./openapi-describe";

const describedList = describeRoute({
  tags: ["Service"],
  summary: "Each provider's status and why, the .dev.vars lines it lacks, and an OpenAI-compatible server's models",
  responses: { 200: jsonResponse(providersResponse, "Every provider, configured or not; never a key.") },
});

const describedTest = describeRoute({
  tags: ["Service"],
  summary: "Check a provider's key and base URL with the smallest call it offers",
  parameters: [pathParam("provider", "openai, anthropic, google, openai-compatible or demo.")],
  responses: {
    200: jsonResponse(providerTestResponse, "Whether the provider answered (ok false with why when not)."),
    ...errorResponses(404),
  },
});

const TEST_TIMEOUT_MS = 15_000;

export const providersApi = new Hono<{ Bindings: Env }>()
  .get("/", describedList, async (c) => c.json({ providers: await listProviderSetups(c.env) }))
  .post("/:provider/test", describedTest, async (c) => {
    const provider = c.req.param("provider");
    if (!isProviderId(provider))
      throw new ApiError(404, "not_found", `Unknown provider "${provider}". Known: ${PROVIDER_IDS.join(", ")}.`);
    const reason = unavailableReason(provider, c.env);
    if (reason)
      return c.json({
        ok: false,
        provider,
        message: `${PROVIDER_NAMES[provider]} is not configured: ${reason}.`,
        latencyMs: null,
      });
    const started = Date.now();
    try {
      await createProvider(provider, c.env).test(AbortSignal.timeout(TEST_TIMEOUT_MS));
      const latencyMs = Date.now() - started;
      return c.json({ ok: true, provider, message: `${PROVIDER_NAMES[provider]} answered.`, latencyMs });
    } catch (err) {
      const message = err instanceof Error ? err.message : "the call failed";
      return c.json({ ok: false, provider, message, latencyMs: Date.now() - started });
    }
  });
