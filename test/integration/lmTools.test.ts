import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { languageModelToolContributions } from '../../src/lmTools/lmToolDefinitions';
import { startOtherProcess } from './support/otherProcess';
import { eventually, fdref, inWorkspace, readText, refBlock, sessionWith, uniqueId } from './support/fdref';
import { setSetting } from './support/settings';

const NAMES = ['read_fd', 'search_fd', 'fd_to_file', 'list_refs', 'get_ref', 'store_text'].map((n) => `fdref_${n}`);

/** The text of a tool's result, as a model gets it. */
async function invoke(
  name: string,
  input: object,
  tokenizationOptions?: vscode.LanguageModelToolTokenizationOptions,
): Promise<string> {
  const result = await vscode.lm.invokeTool(name, {
    input,
    toolInvocationToken: undefined,
    ...(tokenizationOptions === undefined ? {} : { tokenizationOptions }),
  });
  return result.content
    .filter((part): part is vscode.LanguageModelTextPart => part instanceof vscode.LanguageModelTextPart)
    .map((part) => part.value)
    .join('');
}

/** The value of `attribute` on the first `element` of `xml`. */
function attribute(xml: string, element: string, name: string): string {
  const tag = new RegExp(`<${element}\\b[^>]*\\b${name}="([^"]*)"`).exec(xml);
  if (tag?.[1] === undefined) throw new Error(`No ${element} ${name}= in ${xml.slice(0, 600)}`);
  return tag[1];
}

/** `lines` numbered lines of about 80 characters, with XML-special characters that grow when escaped. */
function longText(lines: number, tag: string): string {
  return Array.from({ length: lines }, (_, i) => `${tag} line ${i + 1} <a & b> ]]> ${'x'.repeat(50)}`).join('\n');
}

describe('Language model tools', function () {
  this.timeout(60_000);

  it('lists the six fdref tools in vscode.lm.tools with their tags and input schemas', () => {
    const tools = vscode.lm.tools.filter((t) => t.tags.includes('fdref'));
    assert.deepEqual(tools.map((t) => t.name).sort(), [...NAMES].sort());
    const contributed = new Map(languageModelToolContributions().map((t) => [t.name, t]));
    for (const tool of tools) {
      const expected = contributed.get(tool.name);
      assert.ok(expected, tool.name);
      assert.deepEqual(tool.inputSchema, JSON.parse(JSON.stringify(expected.inputSchema)), `${tool.name} schema`);
      assert.equal(tool.description, expected.modelDescription);
    }
  });

  it('round-trips store_text, read_fd, search_fd, get_ref, list_refs and fd_to_file against the store', async () => {
    const api = await fdref();
    const refId = uniqueId('copilot');
    const body = longText(400, refId);
    const stored = await invoke('fdref_store_text', {
      text: `Some code:\n${refBlock(refId, 'python', 'print("from copilot")')}\nand the log:\n${body}`,
    });
    const fd = attribute(stored, 'store_result', 'fd');
    const session = attribute(stored, 'store_result', 'session');
    assert.equal(attribute(stored, 'ref', 'new_version'), 'true');
    const again = await invoke('fdref_store_text', { text: refBlock(refId, 'python', 'print("from copilot")') });
    assert.equal(attribute(again, 'ref', 'new_version'), 'false', 'the same content keeps its version');
    assert.equal(attribute(again, 'ref', 'version'), '1');
    assert.equal(session, api.lmTools.sessionId, 'written to this window’s tools session');
    const meta = await api.registry.meta(session);
    assert.deepEqual(meta?.origin, { kind: 'lmTools' });
    assert.match(meta?.name ?? '', /^Copilot \d{4}-\d\d-\d\d \d\d:\d\d$/);

    // Lines 1 to 7 are the words and the ref before the log.
    const page = await invoke('fdref_read_fd', { fd, mode: 'line', start: 8, count: 1 });
    assert.match(page, new RegExp(`${refId} line 1 `), page);
    assert.equal(attribute(page, 'found_in', 'session'), session, 'the result names the session');

    const found = await invoke('fdref_search_fd', { fd, pattern: `${refId} line 399 ` });
    assert.match(found, /matches="1"/);
    assert.match(found, /406:/, 'the line number in the stored text');

    const ref = await invoke('fdref_get_ref', { id: refId });
    assert.match(ref, /print\("from copilot"\)/);
    assert.equal(attribute(ref, 'found_in', 'session_name'), meta?.name);

    const list = await invoke('fdref_list_refs', {});
    assert.match(list, new RegExp(`<ref id="${refId}"[^>]*session="${session}"`));

    const file = `${uniqueId('lm-written')}.py`;
    const written = await invoke('fdref_fd_to_file', { fd: `ref:${refId}`, file_path: file });
    assert.match(written, /success="true"/, written);
    assert.equal((await readText(inWorkspace(file))).trimEnd(), 'print("from copilot")');
  });

  it("finds another session's descriptors without `session`, and with its id or name", async () => {
    const refId = uniqueId('other_chat');
    const name = uniqueId('Other Chat');
    const entry = await sessionWith(refBlock(refId, 'js', 'const other = 1;'), name);
    const id = entry.metadata.id;

    const without = await invoke('fdref_get_ref', { id: refId });
    assert.match(without, /const other = 1;/);
    assert.equal(attribute(without, 'found_in', 'session'), id);
    assert.equal(attribute(without, 'found_in', 'session_name'), name);

    assert.match(await invoke('fdref_get_ref', { id: refId, session: id }), /const other = 1;/);
    assert.match(await invoke('fdref_get_ref', { id: refId, session: name.toUpperCase() }), /const other = 1;/);
    const missing = await invoke('fdref_get_ref', { id: refId, session: 'no such session' });
    assert.match(missing, /<fd_error type="not_found"[^>]*>There is no session "no such session"/);
  });

  it('takes an id found in several sessions from the most recent one, and lists it once, named with that session', async () => {
    const refId = uniqueId('twice');
    await sessionWith(refBlock(refId, 'txt', 'the older one'), uniqueId('Older'));
    const newer = await sessionWith(refBlock(refId, 'txt', 'the newer one'), uniqueId('Newer'));
    const got = await invoke('fdref_get_ref', { id: refId });
    assert.match(got, /the newer one/);
    assert.equal(attribute(got, 'found_in', 'session'), newer.metadata.id);
    let list = await invoke('fdref_list_refs', {});
    if (list.includes('<fd_result')) {
      // Many refs in the recent sessions (the whole suite ran): the listing was stored; search it.
      const kept = attribute(list, 'fd_result', 'fd');
      list = await invoke('fdref_search_fd', { fd: kept, pattern: `<ref id="${refId}"`, context: 0 });
    }
    const entries = [...list.matchAll(new RegExp(`<ref id="${refId}"[^>]*>`, 'g'))].map((m) => m[0]);
    assert.equal(entries.length, 1, list.slice(0, 2000));
    assert.match(entries[0] ?? '', new RegExp(`session="${newer.metadata.id}"`));
  });

  it('reads what a second store process wrote, found without `session` once the store shows it', async () => {
    const api = await fdref();
    const other = await startOtherProcess(api.registry.storeFolder);
    try {
      const name = uniqueId('Agent');
      const { session: id } = (await other.send({ op: 'create', name })) as { session: string };
      const refId = uniqueId('agent_ref');
      await other.send({ op: 'ref', id: refId, text: 'written by the agent' });
      const { fd } = (await other.send({ op: 'fd', text: longText(50, 'agent') })) as { fd: string };

      const text = await eventually(
        async () => {
          const reply = await invoke('fdref_get_ref', { id: refId });
          return reply.includes('written by the agent') ? reply : undefined;
        },
        "the other process's ref",
        20_000,
      );
      assert.equal(attribute(text, 'found_in', 'session'), id);
      const read = await invoke('fdref_read_fd', { fd, session: id, mode: 'tail', count: 1 });
      assert.match(read, /agent line 50 /);
    } finally {
      await other.exit();
    }
  });

  it('keeps every result under the limit for several token budgets, storing what would not fit', async () => {
    const api = await fdref();
    const refIds = Array.from({ length: 60 }, () => uniqueId('many'));
    const big = `${longText(2000, 'big')}\n${refIds.map((id) => refBlock(id, 'txt', longText(3, id))).join('\n')}`;
    const stored = await invoke('fdref_store_text', { text: big });
    const fd = attribute(stored, 'store_result', 'fd');
    const calls: [string, object][] = [
      ['fdref_read_fd', { fd, count: 3 }],
      ['fdref_read_fd', { fd, mode: 'line', start: 1, count: 400 }],
      ['fdref_read_fd', { fd, mode: 'char', start: 0, count: 20000 }],
      ['fdref_read_fd', { fd, read_all: true }],
      ['fdref_search_fd', { fd, pattern: 'line', max_results: 500, context: 10 }],
      ['fdref_get_ref', { id: refIds[0] ?? '' }],
      ['fdref_list_refs', {}],
      ['fdref_store_text', { text: big }],
      ['fdref_fd_to_file', { fd, file_path: `${uniqueId('lm-limit')}.log` }],
    ];
    const before = (await api.registry.meta(api.lmTools.sessionId ?? ''))?.id;
    assert.ok(before);
    for (const [maxChars, tokenBudget, charsPerToken] of [
      [8000, undefined, undefined],
      [8000, 100_000, 4],
      [8000, 1500, undefined],
      [8000, 600, 1.5],
      [2000, undefined, undefined],
    ] as const) {
      await setSetting('fdref.tools.maxResultChars', maxChars);
      const countTokens = (text: string): Thenable<number> =>
        Promise.resolve(Math.ceil(text.length / (charsPerToken ?? 2)));
      const limit = Math.max(1000, Math.min(maxChars, (tokenBudget ?? Infinity) * 2));
      let stored = 0;
      for (const [name, input] of calls) {
        const text = await invoke(
          name,
          input,
          tokenBudget === undefined ? undefined : { tokenBudget, countTokens: (t) => countTokens(t) },
        );
        const what = `${name} ${JSON.stringify(input)} with ${maxChars} chars, ${tokenBudget} tokens`;
        assert.ok(text.length <= limit, `${what}: ${text.length} characters`);
        if (tokenBudget !== undefined) assert.ok((await countTokens(text)) <= tokenBudget, `${what}: too many tokens`);
        assert.ok(!text.includes('<fd_error'), `${what}: ${text.slice(0, 300)}`);
        if (text.includes('<fd_result')) stored++;
      }
      assert.ok(stored >= 2, `some results were too long and stored (${stored})`);
    }
    await setSetting('fdref.tools.maxResultChars', undefined);
    // A result too long is kept whole: its descriptor reads back what was cut.
    const listing = await invoke(
      'fdref_search_fd',
      { fd, pattern: 'big line', max_results: 500 },
      {
        tokenBudget: 600,
        countTokens: (t) => Promise.resolve(t.length),
      },
    );
    const kept = attribute(listing, 'fd_result', 'fd');
    const whole = await invoke('fdref_read_fd', { fd: kept, mode: 'line', start: 1, count: 5 });
    assert.match(whole, /search_result/);
  });

  it('asks before fd_to_file writes, naming source, session, target, mode, size and a replaced file', async () => {
    const api = await fdref();
    const prepare = (input: object) => api.lmTools.prepare('fdref_fd_to_file', input);
    const refId = uniqueId('confirm');
    const name = uniqueId('Confirm Session');
    await sessionWith(refBlock(refId, 'python', 'x = "é"'), name);

    const fresh = await prepare({ fd: `ref:${refId}`, file_path: `${refId}/new.py` });
    assert.ok(fresh?.confirmationMessages, 'a confirmation');
    const freshText = markdown(fresh.confirmationMessages.message);
    assert.match(fresh.confirmationMessages.title, new RegExp(`Write to ${refId}/new\\.py\\?`));
    assert.match(freshText, new RegExp(`\`ref:${refId}\` from session "${name.replace(/_/g, '\\\\_')}"`));
    assert.match(freshText, /Mode: write \(creates the file\)/);
    assert.match(freshText, /Size: 7 characters \(8 bytes\)/);
    assert.doesNotMatch(freshText, /replaces an existing file/i);

    const replacing = await prepare({ fd: `ref:${refId}`, file_path: 'README.md', mode: 'write' });
    assert.match(replacing?.confirmationMessages?.title ?? '', /Replace README\.md\?/);
    assert.match(markdown(replacing?.confirmationMessages?.message), /replaces an existing file/);

    const insert = await prepare({ fd: `ref:${refId}`, file_path: 'README.md', mode: 'insert', line: 2 });
    assert.match(markdown(insert?.confirmationMessages?.message), /Mode: insert \(inserts before line 2\)/);

    for (const [input, message] of [
      [{ fd: `ref:${refId}`, file_path: '../outside.py' }, /outside/i],
      [{ fd: 'fd:999999', file_path: 'x.py' }, /does not exist/],
      [{ fd: `ref:${refId}`, file_path: 'x.py', mode: 'insert' }, /needs `line`/],
      [{ fd: `ref:${refId}`, file_path: 'x.py', lines: 3 }, /unknown argument "lines"/],
    ] as const) {
      const prepared = await prepare(input);
      assert.equal(prepared?.confirmationMessages, undefined, `no confirmation for ${JSON.stringify(input)}`);
      assert.match(markdown(prepared?.invocationMessage), message);
      assert.match(await invoke('fdref_fd_to_file', input), /<fd_error type=/);
    }
  });
});

function markdown(message: string | vscode.MarkdownString | undefined): string {
  return typeof message === 'string' ? message : (message?.value ?? '');
}
