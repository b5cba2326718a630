// Secrets and optional settings that `wrangler types` cannot see (they live in .dev.vars or Worker secrets).
import type { ProviderVars } from "./providers/types";

interface QuorumVars extends ProviderVars {
  /** first backoff step in ms for transient provider errors (default 500) */
  QUORUM_RETRY_BASE_MS?: string;
  /** attempts per provider call for transient errors, the first included (default 4) */
  QUORUM_MAX_ATTEMPTS?: string;
  /** "off" silences the one log line per provider call */
  QUORUM_LOG?: string;
}

declare global {
  interface Env extends QuorumVars {}
  namespace Cloudflare {
    interface Env extends QuorumVars {}
  }
}
