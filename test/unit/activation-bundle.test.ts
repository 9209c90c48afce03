import assert from 'node:assert/strict';
import * as path from 'node:path';

interface ActivationBundle {
  bytes: number;
  parts: [string, number][];
  lazy: { from: string; path: string; kind: string }[];
  vendorPackages: string[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const build = require(path.resolve(__dirname, '../../esbuild.js')) as {
  ACTIVATION_BUNDLE_LIMIT: number;
  measureActivationBundle(): Promise<ActivationBundle>;
};

describe('activation bundle', () => {
  let bundle: ActivationBundle;
  before(async function () {
    this.timeout(60_000);
    bundle = await build.measureActivationBundle();
  });

  it(`stays under ${build.ACTIVATION_BUNDLE_LIMIT} bytes minified, what VS Code loads before anyone opens a chat`, () => {
    const largest = bundle.parts
      .slice(0, 5)
      .map(([part, bytes]) => `${part} ${bytes}`)
      .join(', ');
    assert.ok(bundle.bytes < build.ACTIVATION_BUNDLE_LIMIT, `${bundle.bytes} bytes; the largest parts: ${largest}`);
  });

  it('holds no provider SDK nor jsonc-parser: each is in dist/vendor/ and loaded with require when first used', () => {
    const sdkParts = bundle.parts.map(([part]) => part).filter((part) => bundle.vendorPackages.includes(part));
    assert.deepEqual(sdkParts, []);
    // Only sdks.ts loads them, with `require` inside a function; an `import` of an SDK would load it at activation.
    const sdks = 'src/core/chat/providers/sdks.ts';
    assert.deepEqual(bundle.lazy, [
      { from: sdks, path: './vendor/anthropic.js', kind: 'require-call' },
      { from: sdks, path: './vendor/openai.js', kind: 'require-call' },
      { from: 'src/core/agents/jsonc.ts', path: './vendor/jsonc-parser.js', kind: 'require-call' },
    ]);
  });
});
