import assert from 'node:assert/strict';
import * as path from 'node:path';

interface Bundle {
  bytes: number;
  parts: [string, number][];
  inputs: string[];
  lazy: { from: string; path: string; kind: string }[];
  vendorPackages: string[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const build = require(path.resolve(__dirname, '../../esbuild.js')) as {
  ACTIVATION_BUNDLE_LIMIT: number;
  measureActivationBundle(): Promise<Bundle>;
  measureWindowBundle(): Promise<Bundle>;
  measureChatBundle(): Promise<Bundle>;
};

/** The chat's own code: none of it may load at activation (each is reached only from src/chat/runtime/chatRuntime.ts). */
const CHAT_ONLY = [
  'src/chat/runtime/chatPanel.ts',
  'src/chat/runtime/modelResolver.ts',
  'src/chat/runtime/structsEntityTool.ts',
  'src/chat/runtime/links.ts',
  'src/core/chat/conversation.ts',
  'src/core/chat/toolCalls.ts',
  'src/core/chat/roundStream.ts',
  'src/core/chat/protocol.ts',
  'src/core/chat/views.ts',
  'src/core/chat/postQueue.ts',
  'src/core/chat/markdownExport.ts',
  'src/core/chat/modelMessages.ts',
  'src/core/chat/providers/anthropic.ts',
  'src/core/chat/providers/openaiCompatible.ts',
  'src/core/chat/providers/sdks.ts',
  'src/core/presentation/chatHtml.ts',
];

/**
 * What holds state for the whole window, made once when the window first uses fdref (dist/window.js): the chat's code
 * gets these objects through `ChatServices` and must not bundle a second copy of their modules (a second registry, a
 * second panel map...), nor may activation (it would load them).
 */
const WINDOW_ONLY = [
  /^src\/window\//,
  /^src\/sessions\//,
  /^src\/workspace\//,
  /^src\/tree\/(?!treeNodes\.ts$)/, // the view's id and node types are plain data
  /^src\/files\/(?!fdrefUri\.ts$)/, // the scheme and its URIs are plain functions
  /^src\/commands\//,
  /^src\/entities\/entityService\.ts$/,
  /^src\/chat\/(chatPanels|chatRuntimeLoader|registerChat|modelCatalog|apiKeys|chatConfiguration)\.ts$/,
  /^src\/core\/store\//,
];

/** What activation makes (the stand-ins, the output channel's messages) and hands to the window's objects. */
const ACTIVATION_ONLY = [/^src\/extension\.ts$/, /^src\/activation\//, /^src\/common\/userMessages\.ts$/];

describe('activation bundle', () => {
  let bundle: Bundle;
  let window: Bundle;
  let chat: Bundle;
  before(async function () {
    this.timeout(60_000);
    [bundle, window, chat] = await Promise.all([
      build.measureActivationBundle(),
      build.measureWindowBundle(),
      build.measureChatBundle(),
    ]);
  });

  it(`stays under ${build.ACTIVATION_BUNDLE_LIMIT} bytes minified, what VS Code loads before anyone opens a chat`, () => {
    const largest = bundle.parts
      .slice(0, 5)
      .map(([part, bytes]) => `${part} ${bytes}`)
      .join(', ');
    assert.ok(bundle.bytes < build.ACTIVATION_BUNDLE_LIMIT, `${bundle.bytes} bytes; the largest parts: ${largest}`);
  });

  it('holds no package (zod, the MCP SDK...): activation registers stand-ins and loads dist/window.js on first use', () => {
    assert.deepEqual(
      bundle.parts.map(([part]) => part).filter((part) => !part.startsWith('src/')),
      [],
    );
    assert.deepEqual(bundle.lazy, [
      { from: 'src/activation/windowLoader.ts', path: './window.js', kind: 'require-call' },
    ]);
    assert.deepEqual(
      bundle.inputs.filter((file) => WINDOW_ONLY.some((pattern) => pattern.test(file))),
      [],
    );
    assert.ok(window.inputs.includes('src/sessions/sessionRegistry.ts'), 'the window bundle holds the registry');
  });

  it('holds no provider SDK nor jsonc-parser: each is in dist/vendor/ and loaded with require when first used', () => {
    for (const measured of [bundle, window, chat]) {
      const sdkParts = measured.parts.map(([part]) => part).filter((part) => measured.vendorPackages.includes(part));
      assert.deepEqual(sdkParts, []);
    }
    // Only sdks.ts loads the SDKs, from dist/chat.js, with `require` inside a function; an `import` would load them
    // with the file.
    const sdks = 'src/core/chat/providers/sdks.ts';
    assert.deepEqual(chat.lazy, [
      { from: sdks, path: './vendor/anthropic.js', kind: 'require-call' },
      { from: sdks, path: './vendor/openai.js', kind: 'require-call' },
    ]);
  });

  it("loads the chat's code (dist/chat.js) only through chatRuntime(), with require when a chat is first shown", () => {
    assert.deepEqual(window.lazy, [
      { from: 'src/chat/chatRuntimeLoader.ts', path: './chat.js', kind: 'require-call' },
      { from: 'src/core/agents/jsonc.ts', path: './vendor/jsonc-parser.js', kind: 'require-call' },
    ]);
    assert.deepEqual(
      CHAT_ONLY.filter((file) => bundle.inputs.includes(file) || window.inputs.includes(file)),
      [],
    );
    // The list names files that exist in the chat's bundle (a renamed file would make the check above pass vacuously).
    assert.deepEqual(
      CHAT_ONLY.filter((file) => !chat.inputs.includes(file)),
      [],
    );
  });

  it("keeps what is stateful for the window out of the chat's code: it is handed over, never bundled twice", () => {
    assert.deepEqual(
      chat.inputs.filter((file) => [...WINDOW_ONLY, ...ACTIVATION_ONLY].some((pattern) => pattern.test(file))),
      [],
    );
    assert.deepEqual(
      window.inputs.filter((file) => ACTIVATION_ONLY.some((pattern) => pattern.test(file))),
      [],
    );
  });
});
