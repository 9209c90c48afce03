/** The `fdref.chat.*` settings, after validation. */
import * as z from 'zod';
import { DEFAULT_BASE_URLS } from '../chat/providers/clientConfig';
import { quoteInput } from '../quoteInput';

/** A model endpoint the user configured: the Anthropic API or any OpenAI-compatible server. */
export interface EndpointSettings {
  /** Unique; names the endpoint in the picker and its API key in SecretStorage. */
  readonly name: string;
  readonly protocol: 'anthropic' | 'openai';
  readonly baseUrl: string;
  /** The model used when the picker has not chosen one of `models`. */
  readonly model: string;
  /** More models offered in the picker. */
  readonly models: readonly string[];
  /** A local scripted endpoint (labelled as such in the picker). */
  readonly demo: boolean;
}

export interface ChatSettings {
  readonly endpoints: readonly EndpointSettings[];
  readonly maxTokens: number;
  readonly autoApproveWrites: boolean;
  readonly maxToolOutputChars: number;
  readonly maxInputChars: number;
  readonly systemPrompt: string;
  readonly requestTimeoutSeconds: number;
}

export const DEFAULT_CHAT_SETTINGS: ChatSettings = {
  endpoints: [],
  maxTokens: 8192,
  autoApproveWrites: false,
  maxToolOutputChars: 8000,
  maxInputChars: 8000,
  systemPrompt: '',
  requestTimeoutSeconds: 600,
};

const httpUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}, 'must be an http:// or https:// URL');

const endpoint = z.strictObject({
  name: z.string().trim().min(1, 'needs a name').max(80),
  protocol: z.enum(['anthropic', 'openai'], { message: 'must be "anthropic" or "openai"' }),
  baseUrl: httpUrl.optional(),
  model: z.string().trim().min(1, 'needs a model name'),
  models: z.array(z.string().trim().min(1)).optional(),
  demo: z.boolean().optional(),
});

export type RawChatSettings = Partial<
  Record<'endpoints' | 'maxTokens' | 'autoApproveWrites' | 'maxToolOutputChars' | 'maxInputChars' | 'systemPrompt' | 'requestTimeoutSeconds', unknown>
>;

/**
 * Validates the settings: a bad endpoint is left out and a bad value replaced by its default, each
 * described in `problems` (e.g. `fdref.chat.endpoints[1].baseUrl must be an http:// or https:// URL; that endpoint is ignored`).
 */
export function validateChatSettings(raw: RawChatSettings): { settings: ChatSettings; problems: string[] } {
  const problems: string[] = [];
  const d = DEFAULT_CHAT_SETTINGS;
  const pick = <T>(key: keyof RawChatSettings, fallback: T, valid: (value: unknown) => value is T, rule: string): T => {
    const value = raw[key];
    if (value === undefined || value === null) return fallback;
    if (valid(value)) return value;
    problems.push(`fdref.chat.${key} must be ${rule} (got ${quoteInput(value)}); using ${JSON.stringify(fallback)}`);
    return fallback;
  };
  const wholeNumber = (min: number, max: number) => (value: unknown): value is number =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

  const endpoints: EndpointSettings[] = [];
  const rawEndpoints = raw.endpoints ?? [];
  if (!Array.isArray(rawEndpoints)) {
    problems.push('fdref.chat.endpoints must be a list of endpoints; no endpoint is used');
  } else {
    rawEndpoints.forEach((value: unknown, i) => {
      const parsed = endpoint.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue && issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
        problems.push(`fdref.chat.endpoints[${i}]${where} ${issue?.message ?? 'is invalid'}; that endpoint is ignored`);
        return;
      }
      const e = parsed.data;
      if (endpoints.some((other) => other.name === e.name)) {
        problems.push(`fdref.chat.endpoints[${i}]: the name "${e.name}" is used twice; the second is ignored`);
        return;
      }
      endpoints.push({
        name: e.name,
        protocol: e.protocol,
        baseUrl: (e.baseUrl ?? DEFAULT_BASE_URLS[e.protocol]).replace(/\/+$/, ''),
        model: e.model,
        models: [...new Set([e.model, ...(e.models ?? [])])],
        demo: e.demo ?? false,
      });
    });
  }
  return {
    settings: {
      endpoints,
      maxTokens: pick('maxTokens', d.maxTokens, wholeNumber(1, 1_000_000), 'a whole number from 1 to 1000000'),
      autoApproveWrites: pick('autoApproveWrites', d.autoApproveWrites, (v): v is boolean => typeof v === 'boolean', 'true or false'),
      maxToolOutputChars: pick('maxToolOutputChars', d.maxToolOutputChars, wholeNumber(100, 10_000_000), 'a whole number from 100 to 10000000'),
      maxInputChars: pick('maxInputChars', d.maxInputChars, wholeNumber(100, 10_000_000), 'a whole number from 100 to 10000000'),
      systemPrompt: pick('systemPrompt', d.systemPrompt, (v): v is string => typeof v === 'string', 'text'),
      requestTimeoutSeconds: pick('requestTimeoutSeconds', d.requestTimeoutSeconds, wholeNumber(5, 3600), 'a whole number of seconds from 5 to 3600'),
    },
    problems,
  };
}
