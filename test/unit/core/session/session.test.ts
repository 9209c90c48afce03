import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { nodeFileSystem, Session } from '../../../../src/core';
import { child, parseXml } from '../../support/xml';
import { memoryText } from '../../../support/descriptorText';
import { TOOLS, toolsOn } from '../../../../src/core/tools/toolTable';

const fixedNow = () => new Date('2026-01-02T03:04:05.000Z');

describe('Session', () => {
  describe('options', () => {
    it('rejects a page size below 1 or not whole', () => {
      for (const pageSize of [0, -1, 1.5, Number.NaN]) {
        assert.throws(() => new Session({ pageSize }), /pageSize must be a whole number of 1 or more/);
      }
      assert.doesNotThrow(() => new Session({ pageSize: 1 }));
    });

    it('rejects relative workspace roots', () => {
      assert.throws(() => new Session({ workspaceRoots: ['relative/dir'] }), /must be absolute/);
    });
  });

  describe('wrapToolOutput', () => {
    it('passes small output through unchanged', () => {
      const session = new Session({ maxDirectOutputChars: 10 });
      assert.equal(session.wrapToolOutput('shell', '0123456789'), '0123456789');
      assert.deepEqual(session.descriptors(), []);
    });

    it('stores large output as a descriptor and shows its start when that is all that fits', () => {
      const session = new Session({ maxDirectOutputChars: 10, pageSize: 8, now: fixedNow });
      const output = 'aaaa\nbbbb\ncccc\n<&>\n'.repeat(30);
      const result = parseXml(session.wrapToolOutput('shell', output));
      assert.equal(result.name, 'fd_result');
      assert.deepEqual(result.attributes, {
        fd: 'fd:1',
        pages: '120',
        truncated: 'true',
        chars: '570',
        total_lines: '120',
      });
      assert.equal(child(result, 'preview').text, 'aaaa\n');
      assert.match(
        child(result, 'message').text,
        /^fd:1 holds the whole output of shell: 570 characters \(120 lines\)/,
      );
      assert.match(child(result, 'message').text, /read_fd\(fd="fd:1", start=1\) to start=120/);
      const descriptor = session.getDescriptor('fd:1');
      assert.equal(memoryText(descriptor), output);
      assert.equal(descriptor?.source, 'tool_output');
      assert.equal(descriptor?.toolName, 'shell');
      assert.equal(descriptor?.createdAt, '2026-01-02T03:04:05.000Z');
    });

    it('never wraps the output of the descriptor tools themselves', () => {
      const session = new Session({ maxDirectOutputChars: 1 });
      for (const { name } of TOOLS) {
        assert.equal(session.wrapToolOutput(name, 'long output'), 'long output');
      }
    });
  });

  describe('pageUserInput', () => {
    it('pages long input into a descriptor with a preview', () => {
      const session = new Session({ maxInputChars: 6, pageSize: 6 });
      const result = parseXml(session.pageUserInput('hello\nworld\n</fd_user_input>\n'.repeat(20)));
      assert.equal(result.name, 'fd_user_input');
      assert.deepEqual(result.attributes, { fd: 'fd:1', chars: '580', lines: '60', pages: '100' });
      assert.equal(child(result, 'preview').text, 'hel');
      assert.equal(session.getDescriptor('fd:1')?.source, 'user_input');
    });

    it('leaves short input, or any input when paging is off, unchanged', () => {
      assert.equal(new Session({ maxInputChars: 5 }).pageUserInput('hello'), 'hello');
      assert.equal(new Session({ maxInputChars: 1, pageUserInput: false }).pageUserInput('hello'), 'hello');
    });
  });

  describe('refs', () => {
    it('registers the refs of a message, keeping earlier versions', async () => {
      const session = new Session({ now: fixedNow });
      const result = session.ingestAssistantMessage('<ref id="a">one</ref>\n<ref id="b">\n```py\nx = 1\n```\n</ref>');
      assert.deepEqual(
        result.refs.map((r) => r.id),
        ['a', 'b'],
      );
      session.ingestAssistantMessage('<ref id="a">two\nlines</ref>');
      const list = parseXml(await session.callTool('list_refs', {}));
      assert.equal(list.attributes['count'], '2');
      assert.deepEqual(
        list.children.map((c) => c.attributes),
        [
          { id: 'a', fd: 'ref:a', created: '2026-01-02T03:04:05.000Z', lines: '2', chars: '9', versions: '2' },
          {
            id: 'b',
            fd: 'ref:b',
            created: '2026-01-02T03:04:05.000Z',
            lines: '1',
            chars: '5',
            language: 'py',
            versions: '1',
          },
        ],
      );
    });

    it('gets a ref with or without the prefix, and earlier versions by number', async () => {
      const session = new Session();
      session.ingestAssistantMessage('<ref id="a">one</ref><ref id="a">two</ref>');
      for (const id of ['a', 'ref:a', ' ref:a ']) {
        const ref = parseXml(await session.callTool('get_ref', { id }));
        assert.equal(ref.text, 'two');
        assert.deepEqual(ref.attributes, { id: 'a', fd: 'ref:a', lines: '1', chars: '3' });
      }
      const first = parseXml(await session.callTool('get_ref', { id: 'a@1' }));
      assert.equal(first.text, 'one');
      assert.equal(first.attributes['fd'], 'ref:a@1');
      const missing = parseXml(await session.callTool('get_ref', { id: 'zzz' }));
      assert.equal(missing.attributes['type'], 'not_found');
      assert.match(missing.text, /Available: ref:a/);
    });

    it('makes no new version of content identical to the latest one, captured again or streamed again', () => {
      const session = new Session();
      const answer = '<ref id="a">one</ref>\n<ref id="b">\n```py\nx = 1\n```\n</ref>';
      session.ingestAssistantMessage(answer);
      session.ingestAssistantMessage(answer);
      assert.deepEqual(
        session.refs().map((r) => [r.descriptor.id, r.versions]),
        [
          ['ref:a', 1],
          ['ref:b', 1],
        ],
      );
      const [a] = session.ingestAssistantMessage('<ref id="a">one</ref>').refs;
      assert.ok(a !== undefined);
      assert.equal(session.registerRef(a), 1);
      assert.equal(session.registerRef({ ...a, content: 'two' }), 2);
      // Identical to an earlier version but not to the latest: a new version.
      assert.equal(session.registerRef(a), 3);
      // The same code in another language is another file: a new version too.
      session.ingestAssistantMessage('<ref id="b">\n```python\nx = 1\n```\n</ref>');
      assert.deepEqual(
        session.refs().map((r) => [r.descriptor.id, r.versions]),
        [
          ['ref:a', 3],
          ['ref:b', 2],
        ],
      );
    });

    it('lists no refs as an empty list', async () => {
      assert.equal(await new Session().callTool('list_refs', {}), '<ref_list count="0"></ref_list>');
    });

    it('reads refs only with get_ref: an fd: id is not a ref', async () => {
      const session = new Session({ maxInputChars: 5 });
      session.pageUserInput('longer than five characters');
      assert.equal(session.getDescriptor('fd:1')?.source, 'user_input');
      const error = parseXml(await session.callTool('get_ref', { id: 'fd:1' }));
      assert.equal(error.attributes['type'], 'not_found');
    });

    it('says in the outcome of a call whether it failed, with the same text callTool gives', async () => {
      const session = new Session();
      session.ingestAssistantMessage(
        '<ref id="quoted">`<fd_error type="not_found">` is what a failure looks like</ref>',
      );
      const quoted = await session.runTool('get_ref', { id: 'quoted' });
      assert.equal(quoted.ok, true);
      assert.match(quoted.text, /^<ref_content/);
      const missing = await session.runTool('get_ref', { id: 'zzz' });
      assert.ok(!missing.ok && missing.error.type === 'not_found');
      assert.equal(missing.text, await session.callTool('get_ref', { id: 'zzz' }));
    });

    it('hands the tools whether the workspace is trusted: diff_fd reads a workspace file only where it is', async () => {
      const folder = mkdtempSync(path.join(tmpdir(), 'fdref-session-trust-'));
      try {
        writeFileSync(path.join(folder, 'old.txt'), 'one\ntwo\n');
        writeFileSync(path.join(folder, 'new.txt'), 'one\nthree\n');
        const session = new Session();
        const args = { a: 'old.txt', b: 'new.txt' };
        const environment = { workspaceRoots: [folder], fileSystem: nodeFileSystem };
        const refused = await session.runTool('diff_fd', args, { ...environment, workspaceTrusted: false });
        assert.ok(!refused.ok && refused.error.type === 'permission_denied');
        assert.match(refused.text, /in Restricted Mode/);
        const compared = await session.runTool('diff_fd', args, { ...environment, workspaceTrusted: true });
        assert.match(compared.text, /\n-two\n\+three\n/);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });

  describe('fork and spawn', () => {
    function parent(): Session {
      const session = new Session({ maxDirectOutputChars: 1 });
      session.wrapToolOutput('shell', 'parent output');
      session.ingestAssistantMessage('<ref id="shared">v1</ref><ref id="shared">v2</ref>');
      return session;
    }

    it('gives a fork every descriptor and ref version and continues the counter', () => {
      const p = parent();
      const f = p.fork();
      assert.equal(memoryText(f.getDescriptor('fd:1')), 'parent output');
      assert.equal(memoryText(f.getDescriptor('ref:shared@1')), 'v1');
      assert.equal(memoryText(f.getDescriptor('ref:shared')), 'v2');
      f.wrapToolOutput('shell', 'child output');
      assert.equal(memoryText(f.getDescriptor('fd:2')), 'child output');
    });

    it('keeps a fork and its parent apart after the fork', () => {
      const p = parent();
      const f = p.fork();
      f.wrapToolOutput('shell', 'child output');
      f.ingestAssistantMessage('<ref id="shared">child v3</ref><ref id="mine">x</ref>');
      p.wrapToolOutput('shell', 'parent again');
      p.ingestAssistantMessage('<ref id="theirs">y</ref>');
      assert.equal(memoryText(p.getDescriptor('fd:2')), 'parent again');
      assert.equal(memoryText(f.getDescriptor('fd:2')), 'child output');
      assert.equal(memoryText(p.getDescriptor('ref:shared')), 'v2');
      assert.equal(memoryText(f.getDescriptor('ref:shared')), 'child v3');
      assert.equal(p.getDescriptor('ref:mine'), undefined);
      assert.equal(f.getDescriptor('ref:theirs'), undefined);
    });

    it('shares content with a fork instead of copying it', () => {
      const p = parent();
      assert.equal(p.fork().getDescriptor('fd:1')?.content, p.getDescriptor('fd:1')?.content);
    });

    it('never shows a fork or spawned child and its parent the versions the other adds, for any order of adds and forks', () => {
      const step = fc.oneof(
        fc.record({
          kind: fc.constant('add' as const),
          at: fc.nat(),
          id: fc.constantFrom('a', 'b'),
          text: fc.constantFrom('1', '2', '3'),
        }),
        fc.record({ kind: fc.constantFrom('fork' as const, 'spawn' as const), at: fc.nat() }),
      );
      fc.assert(
        fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
          // The model: each session's versions as plain arrays, copied on fork.
          const sessions = [new Session()];
          const models: Map<string, string[]>[] = [new Map()];
          for (const s of steps) {
            const k = s.at % sessions.length;
            const session = sessions[k] as Session;
            const model = models[k] as Map<string, string[]>;
            if (s.kind !== 'add') {
              sessions.push(s.kind === 'fork' ? session.fork() : session.spawn());
              models.push(new Map([...model].map(([id, texts]) => [id, [...texts]])));
            } else {
              session.ingestAssistantMessage(`<ref id="${s.id}">${s.text}</ref>`);
              const texts = model.get(s.id) ?? [];
              if (texts.at(-1) !== s.text) model.set(s.id, [...texts, s.text]);
            }
          }
          sessions.forEach((session, k) => {
            const model = models[k] as Map<string, string[]>;
            for (const id of ['a', 'b']) {
              const texts = model.get(id) ?? [];
              assert.equal(session.getDescriptor(`ref:${id}@${texts.length + 1}`), undefined);
              texts.forEach((text, v) => assert.equal(memoryText(session.getDescriptor(`ref:${id}@${v + 1}`)), text));
            }
          });
        }),
        { numRuns: 500 },
      );
    });

    it('gives a spawned child the refs but no descriptors, counting from fd:1', () => {
      const p = parent();
      const child = p.spawn();
      assert.equal(child.getDescriptor('fd:1'), undefined);
      assert.equal(memoryText(child.getDescriptor('ref:shared@1')), 'v1');
      child.wrapToolOutput('shell', 'child output');
      assert.equal(memoryText(child.getDescriptor('fd:1')), 'child output');
      child.ingestAssistantMessage('<ref id="child_only">z</ref>');
      assert.equal(p.getDescriptor('ref:child_only'), undefined);
    });
  });

  describe('toJSON and fromJSON', () => {
    it('round-trips content, metadata, versions and the counter', async () => {
      const session = new Session({ maxDirectOutputChars: 1, now: fixedNow });
      session.wrapToolOutput('shell', 'out\r\n😀');
      await session.callTool('read_fd', { fd: 'fd:1', mode: 'char', start: 0, count: 3, extract_to_new_fd: true });
      session.ingestAssistantMessage('<ref id="a">\n```ts\nlet x;\n```\n</ref><ref id="a">two</ref>');
      const restored = Session.fromJSON(JSON.parse(JSON.stringify(session.toJSON())), { maxDirectOutputChars: 1 });
      assert.deepEqual(restored.toJSON(), session.toJSON());
      const { content: restoredContent, ...restoredMeta } = restored.getDescriptor('fd:2')!;
      const { content: originalContent, ...originalMeta } = session.getDescriptor('fd:2')!;
      assert.deepEqual(restoredMeta, originalMeta);
      assert.equal(memoryText({ content: restoredContent }), memoryText({ content: originalContent }));
      assert.equal(restored.getDescriptor('ref:a@1')?.language, 'ts');
      restored.wrapToolOutput('shell', 'next');
      assert.equal(memoryText(restored.getDescriptor('fd:3')), 'next');
    });

    it("writes each content object once: equal texts of separate refs twice, a fork's shared content not again", () => {
      const session = new Session();
      session.ingestAssistantMessage('<ref id="a"><ref id="b">same</ref></ref>');
      const data = session.toJSON() as { contents: string[] };
      assert.deepEqual(data.contents, ['same', 'same']);
      const forked = session.fork();
      assert.equal((forked.toJSON() as { contents: string[] }).contents.length, 2);
    });

    it('behaves like the original for any history of calls', async () => {
      const step = fc.oneof(
        fc.record({ kind: fc.constant('output' as const), text: fc.string({ maxLength: 40 }) }),
        fc.record({
          kind: fc.constant('message' as const),
          id: fc.constantFrom('a', 'b', 'c'),
          text: fc.string({ maxLength: 20 }),
        }),
        fc.record({ kind: fc.constant('extract' as const), fd: fc.integer({ min: 1, max: 4 }) }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
          const session = new Session({ maxDirectOutputChars: 5, pageSize: 7, now: fixedNow });
          for (const s of steps) {
            if (s.kind === 'output') session.wrapToolOutput('tool', s.text);
            else if (s.kind === 'message')
              session.ingestAssistantMessage(`<ref id="${s.id}">${s.text.replace(/[<`~]/g, '')}</ref>`);
            else await session.callTool('read_fd', { fd: `fd:${s.fd}`, extract_to_new_fd: true });
          }
          const restored = Session.fromJSON(JSON.parse(JSON.stringify(session.toJSON())), {
            pageSize: 7,
            maxDirectOutputChars: 5,
          });
          const probes: [string, unknown][] = [['list_refs', {}]];
          for (const id of ['fd:1', 'fd:2', 'fd:3', 'fd:5', 'ref:a', 'ref:a@1', 'ref:b', 'ref:c@2']) {
            probes.push(['read_fd', { fd: id, read_all: true }], ['read_fd', { fd: id, start: 2 }]);
          }
          for (const [name, args] of probes) {
            assert.equal(await restored.callTool(name, args), await session.callTool(name, args));
          }
          assert.equal(restored.wrapToolOutput('t', 'x'.repeat(9)), session.wrapToolOutput('t', 'x'.repeat(9)));
        }),
        { numRuns: 200 },
      );
    });

    it('rejects malformed data with a message saying what is wrong', () => {
      const good = () => {
        const session = new Session({ maxDirectOutputChars: 1 });
        session.wrapToolOutput('shell', 'abc');
        session.ingestAssistantMessage('<ref id="a">x</ref>');
        return JSON.parse(JSON.stringify(session.toJSON()));
      };
      const cases: [string, (d: any) => unknown, RegExp][] = [
        ['not an object', () => 'nope', /Invalid session data/],
        ['wrong format', (d) => ({ ...d, format: 'other' }), /format/],
        [
          'bad fd id',
          (d) => {
            d.descriptors[0].id = 'fd:x';
            return d;
          },
          /descriptors\.0\.id: must look like fd:N/,
        ],
        [
          'content index out of range',
          (d) => {
            d.descriptors[0].content = 9;
            return d;
          },
          /points at content 9/,
        ],
        [
          'duplicate fd',
          (d) => {
            d.descriptors.push({ ...d.descriptors[0] });
            return d;
          },
          /fd:1 appears twice/,
        ],
        [
          'counter too low',
          (d) => {
            d.nextFd = 1;
            return d;
          },
          /not below the counter/,
        ],
        [
          'bad ref id',
          (d) => {
            d.refs[0].id = 'bad id';
            return d;
          },
          /not a valid ref id/,
        ],
        [
          'ref without versions',
          (d) => {
            d.refs[0].versions = [];
            return d;
          },
          /refs\.0\.versions/,
        ],
        [
          'bad date',
          (d) => {
            d.descriptors[0].createdAt = 'yesterday';
            return d;
          },
          /ISO date/,
        ],
        [
          'unknown source',
          (d) => {
            d.descriptors[0].source = 'magic';
            return d;
          },
          /source/,
        ],
      ];
      for (const [name, mutate, message] of cases) {
        assert.throws(() => Session.fromJSON(mutate(good())), message, name);
      }
    });
  });

  describe('for the model', () => {
    it("describes the chat's tools but run_command (it needs the chat's commands) with JSON Schemas from their zod schemas", () => {
      const tools = new Session().toolDefinitions();
      assert.deepEqual(
        tools.map((t) => t.name),
        toolsOn('chat')
          .filter((t) => t.name !== 'run_command')
          .map((t) => t.name),
      );
      assert.equal(tools[0]?.name, 'read_fd');
      const readFd = tools[0]?.inputSchema as any;
      assert.equal(readFd.type, 'object');
      assert.deepEqual(readFd.required, ['fd']);
      assert.equal(readFd.properties.start.type, 'integer');
      assert.equal(readFd.properties.read_all.type, 'boolean');
      assert.deepEqual(readFd.properties.mode.enum, ['page', 'line', 'char', 'tail']);
      assert.equal(readFd.additionalProperties, false);
      assert.equal(readFd.properties.session, undefined);
      const searchFd = tools[1]?.inputSchema as any;
      assert.deepEqual(searchFd.required, ['fd', 'pattern']);
      assert.equal(searchFd.properties.regex.type, 'boolean');
      assert.equal(searchFd.properties.max_results.type, 'integer');
      const fdToFile = tools[2]?.inputSchema as any;
      assert.deepEqual(fdToFile.required, ['fd', 'file_path']);
      assert.deepEqual(fdToFile.properties.mode.enum, ['write', 'append', 'insert']);
      for (const t of tools) assert.ok(t.description.length > 20, t.name);
    });

    it('teaches the tools and the ref convention briefly', () => {
      const prompt = new Session().systemPromptAdditions();
      for (const word of [
        'read_fd',
        'search_fd',
        'tail',
        'fd_to_file',
        'list_refs',
        'get_ref',
        '<ref id=',
        'ref:parse_config@1',
      ]) {
        assert.ok(prompt.includes(word), word);
      }
      assert.ok(prompt.length < 2000);
    });
  });
});
