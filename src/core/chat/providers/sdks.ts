/**
 * The provider SDKs, loaded when a chat first creates a client for an endpoint, not when fdref activates: together
 * they are most of the extension's code. The build puts each in a file of its own beside the extension bundle
 * (`dist/vendor/*.js`, see esbuild.js). `require` rather than `import()`: every runner (the bundle, tsx, mocha)
 * then holds one instance of each SDK, so `instanceof` on the SDK's error classes holds.
 */
export type AnthropicSdk = typeof import('@anthropic-ai/sdk');
export type OpenAiSdk = typeof import('openai');

export function anthropicSdk(): AnthropicSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@anthropic-ai/sdk') as AnthropicSdk;
}

export function openAiSdk(): OpenAiSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('openai') as OpenAiSdk;
}
