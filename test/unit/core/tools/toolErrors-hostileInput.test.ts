import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Session } from '../../../../src/core';
import { validateChatSettings } from '../../../../src/core/settings/chatSettings';
import { ToolError } from '../../../../src/core/toolError';
import { QUOTED_INPUT_CHARS, quoteInput } from '../../../../src/core/quoteInput';
import { parseXml } from '../../support/xml';

/** `[[[...[0]...]]]` and `{"a":{"a":...}}`, `depth` levels: more than JSON.stringify's recursion survives. */
function nestedArray(depth: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}
function nestedObject(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

const TEN_MB = 'x'.repeat(10 * 1024 * 1024);
/** Longest error any of these inputs may produce: a few quoted prefixes and the fixed wording. */
const MAX_ERROR_CHARS = 1500;

function sessionWithDescriptor(): Session {
  const session = new Session({ maxDirectOutputChars: 0 });
  session.wrapToolOutput('shell', 'some output\n');
  session.ingestAssistantMessage('<ref id="a">x</ref>');
  return session;
}

/** Every argument of every tool, each with `value` in it. */
function everyArgument(value: unknown): [string, Record<string, unknown>][] {
  return [
    ['read_fd', { fd: value }],
    ['read_fd', { fd: 'fd:1', mode: value }],
    ['read_fd', { fd: 'fd:1', start: value }],
    ['read_fd', { fd: 'fd:1', count: value }],
    ['read_fd', { fd: 'fd:1', read_all: value }],
    ['read_fd', { fd: 'fd:1', extract_to_new_fd: value }],
    ['read_fd', { fd: 'fd:1', unknown: value }],
    ['search_fd', { fd: value, pattern: 'x' }],
    ['search_fd', { fd: 'fd:1', pattern: value }],
    ['search_fd', { fd: 'fd:1', pattern: 'x', regex: value }],
    ['search_fd', { fd: 'fd:1', pattern: 'x', case_sensitive: value }],
    ['search_fd', { fd: 'fd:1', pattern: 'x', context: value }],
    ['search_fd', { fd: 'fd:1', pattern: 'x', max_results: value }],
    ['fd_to_file', { fd: value, file_path: 'out.txt' }],
    ['fd_to_file', { fd: 'fd:1', file_path: value }],
    ['fd_to_file', { fd: 'fd:1', file_path: 'out.txt', mode: value }],
    ['fd_to_file', { fd: 'fd:1', file_path: 'out.txt', mode: 'insert', line: value }],
    ['fd_to_file', { fd: 'fd:1', file_path: 'out.txt', create: value }],
    ['fd_to_file', { fd: 'fd:1', file_path: 'out.txt', exist_ok: value }],
    ['list_refs', { unknown: value }],
    ['get_ref', { id: value }],
  ];
}

describe('tool errors for hostile input', () => {
  it('answers arguments nested 5,000 deep with an invalid_argument error naming the argument, for every tool', async () => {
    const session = sessionWithDescriptor();
    for (const deep of [nestedArray(5000), nestedObject(5000)]) {
      for (const [tool, args] of everyArgument(deep)) {
        const result = await session.callTool(tool, args);
        const error = parseXml(result);
        const where = `${tool} ${Object.keys(args).join(',')}`;
        assert.equal(error.name, 'fd_error', where);
        assert.equal(error.attributes['type'], 'invalid_argument', `${where}: ${error.text}`);
        assert.doesNotMatch(error.text, /call stack|unexpectedly/, where);
        const named = Object.keys(args).find((key) => args[key] === deep) as string;
        assert.ok(error.text.includes(named), `${where}: names ${named}: ${error.text}`);
        assert.ok(result.length < MAX_ERROR_CHARS, `${where}: ${result.length} characters`);
      }
    }
  });

  it('checks a write the same way before asking the user', async () => {
    const session = sessionWithDescriptor();
    await assert.rejects(
      session.previewWrite({ fd: 'fd:1', file_path: 'out.txt', line: nestedArray(5000) }),
      (error: unknown) => {
        assert.ok(error instanceof ToolError, String(error));
        assert.equal(error.type, 'invalid_argument');
        assert.match(error.message, /line: must be a whole number \(got \[\[\[/);
        return true;
      },
    );
  });

  it('quotes at most a short prefix of a 10 MB argument, wherever it is', async () => {
    const session = sessionWithDescriptor();
    for (const [tool, args] of [
      ...everyArgument(TEN_MB),
      ['read_fd', { [TEN_MB]: 1 }],
      ['read_fd', { fd: `fd:1${TEN_MB}` }],
      ['get_ref', { id: `ref:${TEN_MB}` }],
      ['fd_to_file', { fd: 'fd:1', file_path: `../${TEN_MB}` }],
      [TEN_MB, {}],
    ] as [string, Record<string, unknown>][]) {
      const result = await session.callTool(tool, args);
      const where = `${tool.slice(0, 20)} ${Object.keys(args)
        .map((k) => k.slice(0, 20))
        .join(',')}`;
      assert.match(result, /^<fd_error /, where);
      assert.ok(result.length < MAX_ERROR_CHARS, `${where}: ${result.length} characters`);
      if (result.includes('xxxx')) assert.match(result, /x"?…/, `${where}: says the value was cut`);
    }
  });

  it('lists at most a few unknown arguments, however many are sent', async () => {
    const args = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`bogus${i}`, i]));
    const result = await sessionWithDescriptor().callTool('read_fd', { fd: 'fd:1', ...args });
    assert.ok(result.length < MAX_ERROR_CHARS, `${result.length} characters`);
    assert.match(result, /unknown argument "bogus0", "bogus1", "bogus2", "bogus3", "bogus4", and 99995 more/);
  });

  it('bounds a settings problem quoting a huge or deeply nested value', () => {
    for (const value of [TEN_MB, nestedArray(5000), nestedObject(5000)]) {
      const { settings, problems } = validateChatSettings({ maxTokens: value });
      assert.equal(settings.maxTokens, 8192);
      assert.equal(problems.length, 1);
      assert.ok((problems[0] as string).length < 400, `${(problems[0] as string).length} characters`);
    }
  });
});

describe('quoteInput', () => {
  it('writes short values as JSON', () => {
    assert.equal(quoteInput('two'), '"two"');
    assert.equal(quoteInput({ a: [1, true, null] }), '{"a":[1,true,null]}');
  });

  it('stays short and never throws, whatever the value', () => {
    const values = fc.oneof(
      fc.jsonValue({ maxDepth: 6 }),
      fc.string({ unit: 'grapheme', minLength: 70, maxLength: 400 }),
      fc.integer({ min: 0, max: 20_000 }).map(nestedArray),
      fc.integer({ min: 0, max: 20_000 }).map(nestedObject),
      fc.anything(),
    );
    fc.assert(
      fc.property(values, (value) => {
        const quoted = quoteInput(value);
        // The prefix, its JSON escapes (at most 6 characters for one), "…" and the length.
        assert.ok(quoted.length <= QUOTED_INPUT_CHARS * 6 + 40, `${quoted.length}: ${quoted.slice(0, 100)}`);
      }),
    );
  });
});
