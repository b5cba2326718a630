import type { D1Migration } from "cloudflare:test";
import type { ProviderVars } from "../worker/providers/types";

declare global {
  namespace Cloudflare {
    interface Env extends ProviderVars {
      TEST_MIGRATIONS: D1Migration[];
      QUORUM_RETRY_BASE_MS?: string;
    }
  }
}

declare module "vitest" {
  interface ProvidedContext {
    stubUrl: string;
  }
}
