/** What both provider clients are configured with, and the endpoint description their errors use. */

export type ProviderProtocol = 'anthropic' | 'openai';

/** What an error message says about where the request went. */
export interface EndpointContext {
  readonly protocol: ProviderProtocol;
  /** The name the user gave the endpoint, e.g. "Anthropic" or "Local Ollama". */
  readonly label: string;
  readonly baseUrl: string;
  /** The model asked for, when the request named one. */
  readonly model?: string;
  readonly timeoutMs: number;
  /** Only so it can be blanked out of anything a server echoes back; never shown. */
  readonly apiKey?: string;
}

export interface ProviderClientConfig {
  /** The endpoint's name in messages, e.g. "Anthropic", "OpenAI" or "Local Ollama". */
  readonly label: string;
  /** Anthropic: the server's address without `/v1`; OpenAI-compatible: up to and including `/v1`. Default: the provider's. */
  readonly baseUrl?: string;
  /** Local servers need none. */
  readonly apiKey?: string;
  /** How long the server may stay silent: before the response starts (per attempt) and between stream events. Default 10 minutes. */
  readonly timeoutMs?: number;
  /** Retries of 408, 409, 429, 5xx and connection failures, honouring Retry-After; default 2. */
  readonly maxRetries?: number;
}

/** Where each protocol's endpoint is when the settings name no base URL. */
export const DEFAULT_BASE_URLS = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
} as const satisfies Record<ProviderProtocol, string>;

export const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
export const DEFAULT_MAX_RETRIES = 2;

/** The config with its defaults filled in, and how the endpoint is described in errors for a given model. */
export function resolveClientConfig(protocol: ProviderProtocol, config: ProviderClientConfig, defaultBaseUrl: string) {
  const baseUrl = config.baseUrl === undefined || config.baseUrl === '' ? defaultBaseUrl : config.baseUrl;
  const apiKey = config.apiKey === undefined || config.apiKey === '' ? undefined : config.apiKey;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const endpointFor = (model: string): EndpointContext => ({
    protocol,
    label: config.label,
    baseUrl,
    model,
    timeoutMs,
    ...(apiKey === undefined ? {} : { apiKey }),
  });
  return { baseUrl, apiKey, timeoutMs, maxRetries: config.maxRetries ?? DEFAULT_MAX_RETRIES, endpointFor };
}
