/** POST /api/providers/:provider/test — proves a key and base URL work with the smallest call the vendor offers. */
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { createProvider, isProviderId, PROVIDER_NAMES, unavailableReason } from "../providers/registry";
import { PROVIDER_IDS, ProviderError } from "../providers/types";
import { providerTestResponse } from "../shared/responses";
import { ApiError } from "./errors";
import { errorResponses, jsonResponse, pathParam } from "./openapi-describe";

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

export const providersApi = new Hono<{ Bindings: Env }>().post("/:provider/test", describedTest, async (c) => {
  const provider = c.req.param("provider");
  if (!isProviderId(provider))
    throw new ApiError(404, "not_found", `Unknown provider "${provider}". Known: ${PROVIDER_IDS.join(", ")}.`);
  const reason = unavailableReason(provider, c.env);
  if (reason)
    return c.json({ ok: false, provider, message: `${PROVIDER_NAMES[provider]} is not configured: ${reason}.` });
  try {
    await createProvider(provider, c.env).test(AbortSignal.timeout(TEST_TIMEOUT_MS));
    return c.json({ ok: true, provider, message: `${PROVIDER_NAMES[provider]} answered.` });
  } catch (err) {
    const message = err instanceof ProviderError || err instanceof Error ? err.message : "the call failed";
    return c.json({ ok: false, provider, message });
  }
});
