// Chat benchmark, extension side: an answer of about 500 KB in 10,000 chunks through the conversation loop
// (the <ref> parser on the stream, refs registered as they close, the messages for the webview built,
// batched and serialised as postMessage would), and the same answer from the loopback endpoint through the
// real SDK clients. Run by `npm run bench` (tsx bench/chat.ts); the webview side is bench/webview.mjs.
import { performance } from 'node:perf_hooks';
import { Session, nodeFileSystem } from '../src/core';
import { Conversation } from '../src/core/chat/conversation';
import type { ChatModel, ConversationHost } from '../src/core/chat/conversationHost';
import type { ModelClient, ModelEvent } from '../src/core/chat/modelClient';
import { PostQueue } from '../src/core/chat/postQueue';
import { createAnthropicClient } from '../src/core/chat/providers/anthropic';
import { createOpenAiCompatibleClient } from '../src/core/chat/providers/openaiCompatible';
import { bigAnswer, startModelEndpoint } from '../test/support/modelEndpoint';

const CHUNKS = 10_000;
const TARGET_MS_PER_CHUNK = 0.05;

/** The answer cut into `count` chunks of about equal size, yielded as a provider would. */
function chunkedClient(text: string, count: number): ModelClient {
  const size = Math.ceil(text.length / count);
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return {
    async *stream(): AsyncIterable<ModelEvent> {
      for (const chunk of chunks) yield { type: 'text', text: chunk };
      yield { type: 'end', stopReason: 'end_turn' };
    },
  };
}

async function answerOnce(client: ModelClient): Promise<{ ms: number; posted: number; bytes: number; refs: number }> {
  let posted = 0;
  let bytes = 0;
  let refs = 0;
  const queue = new PostQueue((message) => {
    posted++;
    bytes += JSON.stringify(message).length; // what postMessage serialises
  });
  const model: ChatModel = { client, model: 'bench', label: 'bench', maxTokens: 1 };
  const host: ConversationHost = {
    chatName: () => 'bench',
    model: async () => model,
    workspace: () => ({ roots: [], fileSystem: nodeFileSystem, trusted: false }),
    confirm: async () => false,
    autoApproveCommands: () => false,
    streamOutput: () => {
      throw new Error('The bench runs no command.');
    },
    autoApproveWrites: () => false,
    limits: () => ({ maxToolOutputChars: 8000, maxInputChars: 8000 }),
    extraTools: () => [],
    systemPrompt: () => '',
    displayPath: (p) => p,
  };
  const conversation = new Conversation(new Session(), { messages: [] }, host, {
    post: (m) => queue.push(m),
    refsRegistered: (ids) => (refs += ids.length),
    descriptorsAdded: () => {},
    changed: () => {},
  });
  const start = performance.now();
  await conversation.send('bench');
  queue.flush();
  return { ms: performance.now() - start, posted, bytes, refs };
}

async function median(runs: number, fn: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await fn());
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

async function main(): Promise<void> {
  const text = bigAnswer();
  console.log(`\nChat, extension side (answer of ${(text.length / 1024).toFixed(0)} KB)`);
  for (let i = 0; i < 3; i++) await answerOnce(chunkedClient(text, CHUNKS)); // warm-up
  let last = { ms: 0, posted: 0, bytes: 0, refs: 0 };
  const ms = await median(7, async () => {
    last = await answerOnce(chunkedClient(text, CHUNKS));
    return last.ms;
  });
  const perChunk = ms / CHUNKS;
  const ok = perChunk <= TARGET_MS_PER_CHUNK;
  console.log(
    `${'conversation loop, 10,000 chunks'.padEnd(44)} ${ms.toFixed(1)} ms = ${(perChunk * 1000).toFixed(2)} µs/chunk  ` +
      `target ≤ ${TARGET_MS_PER_CHUNK * 1000} µs/chunk  ${ok ? 'ok' : 'MISSED'}  (${last.refs} refs registered, ${last.posted} messages posted after batching, ${(last.bytes / 1024).toFixed(0)} KB)`,
  );
  const big = text.repeat(10);
  await answerOnce(chunkedClient(big, CHUNKS * 10));
  const bigMs = await median(3, async () => (await answerOnce(chunkedClient(big, CHUNKS * 10))).ms);
  console.log(
    `${'  linearity: 10x text in 10x chunks'.padEnd(44)} ${bigMs.toFixed(1)} ms = ${(bigMs / ms).toFixed(1)}x  (linear: about 10x)`,
  );

  const endpoint = await startModelEndpoint();
  try {
    for (const protocol of ['anthropic', 'openai'] as const) {
      const client =
        protocol === 'anthropic'
          ? createAnthropicClient({ label: 'bench', baseUrl: endpoint.anthropicBaseUrl, maxRetries: 0 })
          : createOpenAiCompatibleClient({ label: 'bench', baseUrl: endpoint.openaiBaseUrl, maxRetries: 0 });
      const wire: ModelClient = {
        stream: (request, signal) => client.stream({ ...request, messages: [{ role: 'user', text: 'big' }] }, signal),
      };
      await answerOnce(wire);
      const e2e = await median(3, async () => (await answerOnce(wire)).ms);
      console.log(
        `${`  over loopback, ${protocol} SDK (informative)`.padEnd(44)} ${e2e.toFixed(1)} ms = ${((e2e / CHUNKS) * 1000).toFixed(2)} µs/chunk (SSE parsing included)`,
      );
    }
  } finally {
    await endpoint.close();
  }
  if (!ok) process.exitCode = 0; // targets are reported, not enforced by the exit code
}

void main();
