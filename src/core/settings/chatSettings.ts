/** The `fdref.chat.*` settings, after validation. */
import * as z from 'zod';
import { CHAT_OWN_TOOL_NAMES } from '../chat/toolNames';
import { quoteInput } from '../quoteInput';
import { DEFAULT_BASE_URLS } from '../chat/providers/clientConfig';
import {
  booleanSetting,
  isHttpUrl,
  settingsGroup,
  textSetting,
  wholeNumberSetting,
  withoutTrailingSlash,
  type Setting,
} from './settingsReader';

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
  /** Run the model's `run_command` without asking (never in Restricted Mode). */
  readonly autoApproveCommands: boolean;
  /** Tools of other extensions (`vscode.lm.tools` names) the chat offers the model. */
  readonly tools: readonly string[];
  /** Of those, the ones that run without asking (never in Restricted Mode). */
  readonly autoApproveTools: readonly string[];
  readonly maxToolOutputChars: number;
  readonly maxInputChars: number;
  readonly systemPrompt: string;
  readonly requestTimeoutSeconds: number;
}

const httpUrl = z
  .string()
  .refine((value) => isHttpUrl(value, { credentials: true }), 'must be an http:// or https:// URL');

const endpoint = z.strictObject({
  name: z.string().trim().min(1, 'needs a name').max(80),
  protocol: z.enum(['anthropic', 'openai'], { message: 'must be "anthropic" or "openai"' }),
  baseUrl: httpUrl.optional(),
  model: z.string().trim().min(1, 'needs a model name'),
  models: z.array(z.string().trim().min(1)).optional(),
  demo: z.boolean().optional(),
});

/** `fdref.chat.endpoints`: a bad endpoint is left out (and said why), the rest kept in order. */
const endpointsSetting: Setting<readonly EndpointSettings[]> = {
  key: 'endpoints',
  defaultValue: [],
  read(value, problem, name) {
    if (!Array.isArray(value)) {
      problem(`${name} must be a list of endpoints; no endpoint is used`);
      return [];
    }
    const endpoints: EndpointSettings[] = [];
    value.forEach((item: unknown, i) => {
      const parsed = endpoint.safeParse(item);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue && issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
        problem(`${name}[${i}]${where} ${issue?.message ?? 'is invalid'}; that endpoint is ignored`);
        return;
      }
      const e = parsed.data;
      if (endpoints.some((other) => other.name === e.name)) {
        problem(`${name}[${i}]: the name "${e.name}" is used twice; the second is ignored`);
        return;
      }
      endpoints.push({
        name: e.name,
        protocol: e.protocol,
        baseUrl: withoutTrailingSlash(e.baseUrl ?? DEFAULT_BASE_URLS[e.protocol]),
        model: e.model,
        models: [...new Set([e.model, ...(e.models ?? [])])],
        demo: e.demo ?? false,
      });
    });
    return endpoints;
  },
};

/**
 * A list of tool names (`fdref.chat.tools`, `fdref.chat.autoApproveTools`): anything but text is left out, a name
 * repeated is kept once, and a name of one of fdref's own chat tools is refused (another extension's tool cannot
 * take its place), each said.
 */
function toolNamesSetting(key: string): Setting<readonly string[]> {
  return {
    key,
    defaultValue: [],
    read(value, problem, name) {
      if (!Array.isArray(value)) {
        problem(`${name} must be a list of tool names (got ${quoteInput(value)}); no tool is used`);
        return [];
      }
      const names: string[] = [];
      value.forEach((item: unknown, i) => {
        if (typeof item !== 'string' || item.trim() === '') {
          problem(`${name}[${i}] must be a tool name (got ${quoteInput(item)}); it is ignored`);
          return;
        }
        const tool = item.trim();
        if (CHAT_OWN_TOOL_NAMES.has(tool)) {
          problem(`${name}[${i}]: "${tool}" is the name of one of FD Refs' own chat tools; it is ignored`);
          return;
        }
        if (!names.includes(tool)) names.push(tool);
      });
      return names;
    },
  };
}

/** The `fdref.chat.*` settings, their defaults and checks. */
export const CHAT_SETTINGS = settingsGroup<ChatSettings>('fdref.chat', {
  endpoints: endpointsSetting,
  maxTokens: wholeNumberSetting('maxTokens', 8192, 1, 1_000_000),
  autoApproveWrites: booleanSetting('autoApproveWrites', false),
  autoApproveCommands: booleanSetting('autoApproveCommands', false),
  tools: toolNamesSetting('tools'),
  autoApproveTools: toolNamesSetting('autoApproveTools'),
  maxToolOutputChars: wholeNumberSetting('maxToolOutputChars', 8000, 100, 10_000_000),
  maxInputChars: wholeNumberSetting('maxInputChars', 8000, 100, 10_000_000),
  systemPrompt: textSetting('systemPrompt', ''),
  requestTimeoutSeconds: wholeNumberSetting(
    'requestTimeoutSeconds',
    600,
    5,
    3600,
    'a whole number of seconds from 5 to 3600',
  ),
});

export const DEFAULT_CHAT_SETTINGS: ChatSettings = CHAT_SETTINGS.defaults;

export type RawChatSettings = Partial<Record<keyof ChatSettings, unknown>>;

/**
 * Validates the settings: a bad endpoint is left out and a bad value replaced by its default, each
 * described in `problems` (e.g. `fdref.chat.endpoints[1].baseUrl must be an http:// or https:// URL; that endpoint is ignored`).
 */
export function validateChatSettings(raw: RawChatSettings): { settings: ChatSettings; problems: string[] } {
  return CHAT_SETTINGS.validate(raw);
}
