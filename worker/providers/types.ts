/** The one interface every vendor adapter implements; rooms only ever talk to this. */

export const PROVIDER_IDS = ["openai", "anthropic", "google", "openai-compatible", "demo"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** Configuration read from `.dev.vars` locally and from Worker secrets when deployed. */
export interface ProviderVars {
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  GOOGLE_API_KEY?: string;
  GEMINI_API_KEY?: string;
  GOOGLE_BASE_URL?: string;
  OPENAI_COMPATIBLE_BASE_URL?: string;
  OPENAI_COMPATIBLE_API_KEY?: string;
  OPENAI_COMPATIBLE_MODELS?: string;
}

export interface ModelInfo {
  id: string;
  provider: ProviderId;
  name: string;
  displayName: string;
  /** US dollars per million tokens, when known */
  priceIn: number | null;
  priceOut: number | null;
  contextTokens: number | null;
  demo?: boolean;
}

export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

export interface GenerateRequest {
  /** the model name without the provider prefix */
  model: string;
  messages: ChatMessage[];
  system?: string;
  temperature?: number;
  maxTokens?: number;
  signal: AbortSignal;
}

export interface Generation {
  text: string;
  tokensIn: number | null;
  tokensOut: number | null;
  finishReason: string | null;
  /** the model stopped because it hit maxTokens */
  truncated: boolean;
}

export interface ReviewRequest {
  model: string;
  system: string;
  prompt: string;
  /** JSON Schema of the review object (see council/review-schema.ts) */
  schema: Record<string, unknown>;
  temperature?: number;
  maxTokens?: number;
  signal: AbortSignal;
}

export interface ReviewOutput {
  /** the text or tool input exactly as the model produced it */
  raw: string;
  tokensIn: number | null;
  tokensOut: number | null;
}

export interface Provider {
  readonly id: ProviderId;
  /** models this provider offers right now (catalog, configuration or discovery) */
  listModels(): Promise<ModelInfo[]>;
  generate(req: GenerateRequest, onDelta: (text: string) => void): Promise<Generation>;
  review(req: ReviewRequest): Promise<ReviewOutput>;
  /** the smallest call that proves the key and base URL work */
  test(signal: AbortSignal): Promise<void>;
}

/** Why a call failed, in terms the room can act on. Messages never contain keys. */
export type ProviderErrorKind =
  | "rate_limit"
  | "server"
  | "network"
  | "timeout"
  | "auth"
  | "not_found"
  | "bad_request"
  | "unsupported_param"
  | "aborted"
  /** the call succeeded but the reply had no text (decided by the room, never retried) */
  | "empty";

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | null;
  readonly retryAfterMs: number | null;
  /** for unsupported_param: the request field to drop before asking again */
  readonly param: "temperature" | "maxTokens" | null;

  constructor(
    kind: ProviderErrorKind,
    message: string,
    opts: { status?: number | null; retryAfterMs?: number | null; param?: "temperature" | "maxTokens" | null } = {},
  ) {
    super(message);
    this.name = "ProviderError";
    this.kind = kind;
    this.status = opts.status ?? null;
    this.retryAfterMs = opts.retryAfterMs ?? null;
    this.param = opts.param ?? null;
  }

  get retryable(): boolean {
    return this.kind === "rate_limit" || this.kind === "server" || this.kind === "network";
  }
}
