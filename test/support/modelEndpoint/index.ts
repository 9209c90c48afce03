/** The model endpoint: a local HTTP server that speaks Anthropic's and OpenAI's streaming protocols, for tests and `scripts/model-endpoint.ts`. */
export { startModelEndpoint } from './endpoint';
export type { ModelEndpoint, ModelEndpointOptions, RecordedRequest } from './endpoint';
export { ANTHROPIC_MODELS } from './anthropicProtocol';
export { OPENAI_MODELS } from './openaiProtocol';
export {
  BIG_CHUNK_COUNT,
  BIG_PART_COUNT,
  bigAnswer,
  DEFAULT_ANSWER,
  DROP_TEXT,
  END_OF_SCRIPT,
  ENTITIES_ANSWER,
  MALFORMED_TEXT,
  QUOTED_RESULT_CHARS,
  quoteResults,
  REFS_ANSWER,
  REFUSAL_TEXT,
  SLOW_CHUNK_COUNT,
  SLOW_CHUNK_DELAY_MS,
  SLOW_CHUNKS,
  writeAnswer,
  XSS_ANSWER,
} from './scenarios';
export type { ReceivedToolResult, ScriptedFailure } from './scenarios';
export { GEMINI_MODELS } from './geminiProtocol';
