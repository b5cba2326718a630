/** Which providers are configured, and the adapter for each. */
import { describeModel, vendorCatalog } from "./catalog";
import { pricedModel } from "./pricing";
import { createAnthropicProvider } from "./anthropic";
import { createDemoProvider, DEMO_MODELS } from "./demo";
import { createGoogleProvider } from "./google";
import { createOpenAIProvider } from "./openai";
import { createOpenAICompatibleProvider } from "./openai-compatible";
import { PROVIDER_IDS, type ModelInfo, type Provider, type ProviderId, type ProviderVars } from "./types";
import { cached } from "../shared/memo";
import { type ConfigVars, settings } from "../shared/config";

/** The provider variables, and the settings an adapter or a listing reads (the demo's pace, prices). */
type Vars = ProviderVars & ConfigVars;

export const PROVIDER_NAMES: Record<ProviderId, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  google: "Google",
  "openai-compatible": "OpenAI-compatible",
  demo: "Demo (offline)",
};

export function isProviderId(value: string): value is ProviderId {
  return (PROVIDER_IDS as readonly string[]).includes(value);
}

/** Splits `provider:name` at the first colon; names may contain `:` and `/`. */
export function parseModelId(id: string): { provider: ProviderId; name: string } | null {
  const at = id.indexOf(":");
  if (at <= 0) return null;
  const provider = id.slice(0, at);
  const name = id.slice(at + 1);
  if (!isProviderId(provider) || name.trim() === "") return null;
  return { provider, name };
}

const clean = (v: string | undefined) => (v && v.trim() !== "" ? v.trim() : undefined);

function googleKey(vars: ProviderVars) {
  return clean(vars.GOOGLE_API_KEY) ?? clean(vars.GEMINI_API_KEY);
}

function compatModels(vars: ProviderVars): string[] {
  return (vars.OPENAI_COMPATIBLE_MODELS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Why a provider can't be used, or null when it is configured. Never mentions key values. */
export function unavailableReason(provider: ProviderId, vars: ProviderVars): string | null {
  switch (provider) {
    case "openai":
      return clean(vars.OPENAI_API_KEY) ? null : "no OPENAI_API_KEY";
    case "anthropic":
      return clean(vars.ANTHROPIC_API_KEY) ? null : "no ANTHROPIC_API_KEY";
    case "google":
      return googleKey(vars) ? null : "no GOOGLE_API_KEY (or GEMINI_API_KEY)";
    case "openai-compatible":
      return clean(vars.OPENAI_COMPATIBLE_BASE_URL) ? null : "no OPENAI_COMPATIBLE_BASE_URL";
    case "demo":
      return null;
  }
}

/** Whether any provider besides the offline demo is configured: then the demo models are no longer all there is. */
export function realProviderConfigured(vars: ProviderVars): boolean {
  return PROVIDER_IDS.some((p) => p !== "demo" && unavailableReason(p, vars) === null);
}

export class ProviderUnavailableError extends Error {
  constructor(
    readonly provider: ProviderId,
    readonly reason: string,
  ) {
    super(
      `${PROVIDER_NAMES[provider]} is not configured: ${reason}. Add it to .dev.vars (or as a Worker secret) and restart.`,
    );
    this.name = "ProviderUnavailableError";
  }
}

/** Built adapters (each holds an SDK client) per environment object — one per room instance or isolate — and configuration. */
const built = new WeakMap<Vars, Map<string, Provider>>();

/**
 * The adapter for `provider`, built once per environment and configuration rather than once per call:
 * an SDK client holds no connection or request state, and building one (the OpenAI client alone sets up
 * dozens of resource objects) sat on every call's path. A changed key or base URL builds a new one.
 */
export function createProvider(provider: ProviderId, vars: Vars): Provider {
  const reason = unavailableReason(provider, vars);
  if (reason) throw new ProviderUnavailableError(provider, reason);
  const adapters = cached(built, vars, () => new Map<string, Provider>());
  return cached(adapters, configKey(provider, vars), () => buildProvider(provider, vars));
}

/** Every variable the adapter is built from, so a cached one is reused only for the same configuration. */
function configKey(provider: ProviderId, vars: Vars): string {
  switch (provider) {
    case "openai":
      return JSON.stringify([provider, vars.OPENAI_API_KEY, vars.OPENAI_BASE_URL]);
    case "anthropic":
      return JSON.stringify([provider, vars.ANTHROPIC_API_KEY, vars.ANTHROPIC_BASE_URL]);
    case "google":
      return JSON.stringify([provider, googleKey(vars), vars.GOOGLE_BASE_URL]);
    case "openai-compatible":
      return JSON.stringify([
        provider,
        vars.OPENAI_COMPATIBLE_BASE_URL,
        vars.OPENAI_COMPATIBLE_API_KEY,
        vars.OPENAI_COMPATIBLE_MODELS,
      ]);
    case "demo":
      return JSON.stringify([provider, settings(vars).demoDelayMs]);
  }
}

function buildProvider(provider: ProviderId, vars: Vars): Provider {
  switch (provider) {
    case "openai":
      return createOpenAIProvider({ apiKey: clean(vars.OPENAI_API_KEY)!, baseURL: clean(vars.OPENAI_BASE_URL) });
    case "anthropic":
      return createAnthropicProvider({
        apiKey: clean(vars.ANTHROPIC_API_KEY)!,
        baseURL: clean(vars.ANTHROPIC_BASE_URL),
      });
    case "google":
      return createGoogleProvider({ apiKey: googleKey(vars)!, baseURL: clean(vars.GOOGLE_BASE_URL) });
    case "openai-compatible":
      return createOpenAICompatibleProvider({
        baseURL: clean(vars.OPENAI_COMPATIBLE_BASE_URL)!,
        apiKey: clean(vars.OPENAI_COMPATIBLE_API_KEY),
        models: compatModels(vars),
      });
    case "demo":
      return createDemoProvider({ delayMs: settings(vars).demoDelayMs });
  }
}

/** Catalog facts for any model id (display name, prices); unknown names get a plain entry. */
export function modelInfo(id: string): ModelInfo | null {
  const parsed = parseModelId(id);
  if (!parsed) return null;
  return describeModel(id, parsed.provider, parsed.name, DEMO_MODELS);
}

/** A model's name for people: the catalog's, else its id as given. */
export function displayName(modelId: string): string {
  return modelInfo(modelId)?.displayName ?? modelId;
}

export interface ModelGroup {
  id: ProviderId;
  displayName: string;
  available: boolean;
  reason: string | null;
  models: (ModelInfo & { available: boolean; reason: string | null; demo: boolean })[];
}

/** Every provider with its suggested models; unconfigured ones are listed with the reason, not hidden. */
export async function listModelGroups(vars: Vars): Promise<ModelGroup[]> {
  return Promise.all(
    PROVIDER_IDS.map(async (provider) => {
      const reason = unavailableReason(provider, vars);
      let models: ModelInfo[];
      if (provider === "demo") models = DEMO_MODELS;
      else if (provider === "openai-compatible") models = reason ? [] : await discoverCompat(vars);
      else models = vendorCatalog(provider);
      return {
        id: provider,
        displayName: PROVIDER_NAMES[provider],
        available: reason === null,
        reason,
        models: models.map((m) => ({
          ...pricedModel(vars, m),
          available: reason === null,
          reason,
          demo: m.demo ?? false,
        })),
      };
    }),
  );
}

async function discoverCompat(vars: Vars): Promise<ModelInfo[]> {
  try {
    return await createProvider("openai-compatible", vars).listModels();
  } catch {
    // An unreachable local server leaves the group empty; typing a model id still works.
    return [];
  }
}
