import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DescriptorTable } from '../../../src/core/descriptors/descriptorTable';
import { storeForReply } from '../../../src/core/tools/descriptorPreview';
import { tableToolSession } from '../../../src/core/tools/tableToolSession';
import { pageSizeFor } from '../../../src/lmTools/lmToolRunner';
import { awkwardText } from '../support/arbitraries';
import { parseXml } from '../support/xml';

describe('a result stored to fit a size (storeForReply)', () => {
  it('stores the text once and answers within any limit from 1,000 characters, as XML that parses', async () => {
    const table = new DescriptorTable();
    const session = tableToolSession(table);
    // Escaping makes this text grow: CDATA sections around `<`, `&#13;` for each carriage return.
    const text = Array.from({ length: 3000 }, (_, i) => `line ${i}\r<a & b> ]]> ${'y'.repeat(40)}`).join('\n');
    const stored = await storeForReply(session, { kind: 'tool_output', toolName: 'search_fd' }, text, 4000);
    assert.equal(table.fdDescriptors().length, 1);
    assert.equal(await stored.descriptor.content.slice(0, text.length), text, 'kept whole');
    for (const limit of [1000, 1200, 2000, 3000, 5000, 8000, 8192]) {
      const reply = stored.reply(limit);
      assert.ok(reply.length <= limit, `${limit}: ${reply.length}`);
      // The preview is at most the first page (4,000 characters before escaping).
      assert.ok(reply.length > Math.min(limit, 4000) * 0.8, `${limit}: the preview uses the room (${reply.length})`);
      const root = parseXml(reply);
      assert.equal(root.name, 'fd_result');
      assert.equal(root.attributes['fd'], stored.descriptor.id);
    }
    assert.equal(table.fdDescriptors().length, 1, 'replies store nothing more');
  });

  it('gives the reply without a preview when even that does not fit', async () => {
    const stored = await storeForReply(
      tableToolSession(new DescriptorTable()),
      { kind: 'tool_output', toolName: 'list_refs' },
      'x'.repeat(50_000),
      pageSizeFor(1000),
    );
    const reply = stored.reply(10);
    assert.doesNotMatch(reply, /<preview>/);
    assert.match(reply, /Read it with read_fd\(fd="fd:1", start=1\) to start=\d+/);
  });

  it('keeps every reply within the limit for any text', async () => {
    await fc.assert(
      fc.asyncProperty(awkwardText, fc.integer({ min: 1000, max: 8192 }), async (text, limit) => {
        const stored = await storeForReply(
          tableToolSession(new DescriptorTable()),
          { kind: 'tool_output', toolName: 'read_fd' },
          text,
          pageSizeFor(limit),
        );
        assert.ok(stored.reply(limit).length <= limit);
      }),
      { numRuns: 200 },
    );
  });
});
