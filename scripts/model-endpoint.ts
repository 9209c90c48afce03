// Serves the model endpoint (test/support/modelEndpoint), a scripted stand-in for Anthropic, OpenAI and Gemini, for
// trying the chat by hand:
//   npx tsx scripts/model-endpoint.ts [--port 8787] [--host 127.0.0.1] [--api-key KEY] [--chunk-delay 0]
import { startModelEndpoint } from '../test/support/modelEndpoint';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return undefined;
  const value = process.argv[at + 1];
  if (value === undefined || value.startsWith('--')) {
    console.error(`--${name} needs a value`);
    process.exit(2);
  }
  return value;
}

function wholeNumber(name: string, fallback: number): number {
  const text = option(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} needs a whole number`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  const apiKey = option('api-key');
  const endpoint = await startModelEndpoint({
    port: wholeNumber('port', 8787),
    host: option('host') ?? '127.0.0.1',
    chunkDelayMs: wholeNumber('chunk-delay', 0),
    ...(apiKey === undefined ? {} : { apiKey }),
  });
  console.log(`Model endpoint on ${endpoint.url}${apiKey === undefined ? ' (any API key)' : ' (API key required)'}`);
  console.log(`  Anthropic base URL: ${endpoint.anthropicBaseUrl}`);
  console.log(`  OpenAI base URL:    ${endpoint.openaiBaseUrl}   (Chat Completions and Responses)`);
  console.log(`  Gemini base URL:    ${endpoint.geminiBaseUrl}`);
  console.log(`  request log:        ${endpoint.url}/__requests`);
  console.log(
    'Start a message with refs, call NAME {json}, shell COMMAND, write PATH, slow, error 429, context, drop, malformed, big, xss or entities',
  );
  console.log('(see test/support/modelEndpoint/README.md). Ctrl+C stops it.');
  const stop = (): void => {
    void endpoint.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
