/** Each provider's setup as the Providers page shows it: its status in words, and the `.dev.vars` lines it lacks. */
import { createProvider, PROVIDER_NAMES, unavailableReason } from "./registry";
import { PROVIDER_IDS, type ProviderId, type ProviderVars } from "./types";
import type { ConfigVars } from "../shared/config";

export type ProviderStatus = "available" | "not_configured" | "error";

export interface ProviderSetup {
  id: ProviderId;
  displayName: string;
  status: ProviderStatus;
  /** why, in words; never a key's value */
  reason: string;
  /** the `.dev.vars` lines that would configure it, empty once it is */
  missingLines: string[];
  /** the models an OpenAI-compatible server offers (configured or discovered); empty for the others */
  models: string[];
}

/** The lines a person adds to `.dev.vars`: keys left blank to fill in, a server given Ollama's usual address. */
const SETUP_LINES: Record<ProviderId, string[]> = {
  openai: ["OPENAI_API_KEY="],
  anthropic: ["ANTHROPIC_API_KEY="],
  google: ["GOOGLE_API_KEY="],
  "openai-compatible": ["OPENAI_COMPATIBLE_BASE_URL=http://localhost:11434/v1"],
  demo: [],
};

const CONFIGURED_BY: Record<ProviderId, string> = {
  openai: "OPENAI_API_KEY is set.",
  anthropic: "ANTHROPIC_API_KEY is set.",
  google: "A Google key is set.",
  "openai-compatible": "OPENAI_COMPATIBLE_BASE_URL is set.",
  demo: "The offline demo needs no key.",
};

/** Every provider's setup; an OpenAI-compatible server is asked for its models (within the adapter's timeout). */
export function listProviderSetups(vars: ProviderVars & ConfigVars): Promise<ProviderSetup[]> {
  return Promise.all(PROVIDER_IDS.map((id) => providerSetup(id, vars)));
}

async function providerSetup(id: ProviderId, vars: ProviderVars & ConfigVars): Promise<ProviderSetup> {
  const base = { id, displayName: PROVIDER_NAMES[id] };
  const missing = unavailableReason(id, vars);
  if (missing)
    return {
      ...base,
      status: "not_configured",
      reason: `${missing[0].toUpperCase()}${missing.slice(1)} is set.`,
      missingLines: SETUP_LINES[id],
      models: [],
    };
  if (id !== "openai-compatible")
    return { ...base, status: "available", reason: CONFIGURED_BY[id], missingLines: [], models: [] };
  try {
    const models = (await createProvider(id, vars).listModels()).map((m) => m.name);
    const found = models.length === 1 ? "1 model" : `${models.length} models`;
    return { ...base, status: "available", reason: `The server offers ${found}.`, missingLines: [], models };
  } catch (err) {
    const why = err instanceof Error ? err.message : "the server did not answer";
    return { ...base, status: "error", reason: `Can't list the server's models: ${why}`, missingLines: [], models: [] };
  }
}
