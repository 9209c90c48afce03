import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { languageModelToolContributions } from '../../src/lmTools/lmToolDefinitions';
import { localDay } from '../../src/core/presentation/describe';
import { LM_TOOLS } from '../../src/lmTools/lmToolNames';
import { startOtherProcess } from './support/otherProcess';
import { eventually, fdref, inWorkspace, readText, refBlock, sessionWith, uniqueId } from './support/fdref';
import { setSetting } from './support/settings';

const NAMES = LM_TOOLS.map((t) => t.name);

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

/** Runs `commandLine` in a bash terminal with shell integration; resolves once it has ended. */
async function runInTerminal(commandLine: string): Promise<void> {
  const terminal = vscode.window.createTerminal({ name: uniqueId('lm-terminal'), shellPath: '/bin/bash' });
  terminal.show();
  const shell = await eventually(() => terminal.shellIntegration, 'shell integration', 30_000);
  const execution = shell.executeCommand(commandLine);
  await new Promise<void>((resolve) => {
    const listener = vscode.window.onDidEndTerminalShellExecution((event) => {
      if (event.execution !== execution) return;
      listener.dispose();
      resolve();
    });
  });
  terminal.dispose();
}

/**
 * Pauses around a command's output that VS Code's `read()` can otherwise drop (see terminal.test.ts: output in the
 * same piece as the command-start mark, and 1.100.3's last 50 ms batch).
 */
function paced(command: string): string {
  return `sleep 0.3; ${command}${Number(vscode.version.split('.')[1]) < 139 ? '; sleep 0.3' : ''}`;
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
    // The registry refreshes its reader after each save.
    const saved = await api.registry.reader(session);
    assert.ok(saved?.lookup(fd), `${fd} is in the store: ${JSON.stringify(saved?.descriptors().map((d) => d.id))}`);

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

  it('queries stored JSON Lines with jq on its worker thread beside the bundle (query_fd)', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ i, status: i % 1000 === 999 ? 500 : 200 }));
    const stored = await invoke('fdref_store_text', { text: rows.join('\n') });
    const fd = attribute(stored, 'store_result', 'fd');
    const result = await invoke('fdref_query_fd', { fd, query: 'select(.status >= 500) | .i' });
    assert.equal(attribute(result, 'query_result', 'values'), '3', result);
    assert.match(result, />999\n1999\n2999</);
  });

  it('searches every session kept with fd="*", through the index on its worker beside the bundle (search_fd)', async () => {
    const word = uniqueId('quokka').replace(/[^a-z0-9]/gi, '');
    const first = await sessionWith(
      `<ref id="${uniqueId('one')}">alpha\n${word} in the first\nomega\n</ref>`,
      uniqueId('First'),
    );
    const second = await sessionWith(`<ref id="${uniqueId('two')}">${word} in the second\n</ref>`, uniqueId('Second'));
    const found = await invoke('fdref_search_fd', { fd: '*', pattern: word, context: 1 });
    assert.match(found, /^<search_result fd="\*"[^>]* matches="2" exact="true"/, found);
    assert.ok(found.includes(`session="${first.metadata.id}"`), found);
    assert.ok(found.includes(`session="${second.metadata.id}"`), found);
    assert.match(found, new RegExp(`\\n2: ${word} in the first\\n3- omega<`), found);
    const one = await invoke('fdref_search_fd', { fd: '*', session: first.metadata.name, pattern: word });
    assert.match(one, /matches="1"/, one);
    // Node's own SQLite where this host's Node has it (22.13 and later), else libsql's binary from dist/native/.
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    const builtin = major > 22 || (major === 22 && minor >= 13);
    const stats = await (await fdref()).registry.search.store.stats();
    assert.equal(stats.driver, builtin ? 'node:sqlite' : 'libsql');
  });

  it('diffs two refs of two other sessions found without `session`, and a ref against a workspace file', async () => {
    const id = uniqueId('diffed');
    await sessionWith(`<ref id="${id}_before">ok 1\nok 2\nok 3\n</ref>`, uniqueId('Before'));
    await sessionWith(`<ref id="${id}_after">ok 1\nnot ok 2\nok 3\n</ref>`, uniqueId('After'));
    const diff = await invoke('fdref_diff_fd', { a: `ref:${id}_before`, b: `ref:${id}_after` });
    assert.match(diff, /^<diff_result [^>]*identical="false" added="1" removed="1"/, diff);
    assert.match(diff, /\n-ok 2\n\+not ok 2\n/, diff);
    // An ignore pattern sends the diff to its worker thread (dist/diffWorker.js, beside the extension's bundle).
    const ignoring = await invoke('fdref_diff_fd', {
      a: `ref:${id}_before`,
      b: `ref:${id}_after`,
      ignore_pattern: '^(not )?ok',
    });
    assert.match(ignoring, /identical="true"/, ignoring);
    const file = `${uniqueId('diff-side')}.txt`;
    await vscode.workspace.fs.writeFile(inWorkspace(file), new TextEncoder().encode('ok 1\nok 2\nok 3'));
    assert.match(await invoke('fdref_diff_fd', { a: file, b: `ref:${id}_before` }), /identical="true"/);
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

  it('refuses an id found in several recent sessions, naming them, and lists each ref with its own session', async () => {
    const refId = uniqueId('twice');
    const older = await sessionWith(refBlock(refId, 'txt', 'the older one'), uniqueId('Older'));
    const newer = await sessionWith(refBlock(refId, 'txt', 'the newer one'), uniqueId('Newer'));
    const got = await invoke('fdref_get_ref', { id: refId });
    assert.match(
      got,
      new RegExp(`^<fd_error type="invalid_argument" fd="ref:${refId}">"ref:${refId}" is in 2 of the recent`),
    );
    assert.ok(got.includes(older.metadata.id) && got.includes(newer.metadata.id), got);
    assert.doesNotMatch(got, /the (older|newer) one/);
    assert.match(await invoke('fdref_get_ref', { id: refId, session: newer.metadata.name }), /the newer one/);
    let list = await invoke('fdref_list_refs', {});
    if (list.includes('<fd_result')) {
      // Many refs in the recent sessions (the whole suite ran): the listing was stored; search it.
      const kept = attribute(list, 'fd_result', 'fd');
      list = await invoke('fdref_search_fd', { fd: kept, pattern: `<ref id="${refId}"`, context: 0 });
    }
    const entries = [...list.matchAll(new RegExp(`<ref id="${refId}"[^>]*>`, 'g'))].map((m) => m[0]);
    assert.equal(entries.length, 2, list.slice(0, 2000));
    assert.match(entries.join(), new RegExp(`session="${newer.metadata.id}"`));
    assert.match(entries.join(), new RegExp(`session="${older.metadata.id}"`));
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
    assert.match(
      freshText,
      new RegExp(`ref:${refId.replace(/_/g, '\\\\_')} from session "${name.replace(/_/g, '\\\\_')}"`),
    );
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
      [{ fd: `ref:${refId}`, file_path: 'x.py', mode: 'insert' }, /needs \\`line\\`/],
      [{ fd: `ref:${refId}`, file_path: 'x.py', lines: 3 }, /unknown argument "lines"/],
    ] as const) {
      const prepared = await prepare(input);
      assert.equal(prepared?.confirmationMessages, undefined, `no confirmation for ${JSON.stringify(input)}`);
      assert.match(markdown(prepared?.invocationMessage), message);
      assert.match(await invoke('fdref_fd_to_file', input), /<fd_error type=/);
    }
  });

  it('escapes the model’s values in what VS Code shows as Markdown: links, backticks and HTML stay text', async () => {
    const api = await fdref();
    const hostile = '[x](command:workbench.action.reloadWindow) `code` <img src=x>';
    const unescaped = /(?<!\\)[[\]()`<>]/;
    for (const [name, input] of [
      ['fdref_read_fd', { fd: hostile, session: hostile }],
      ['fdref_search_fd', { fd: hostile, pattern: hostile, session: hostile }],
      ['fdref_get_ref', { id: hostile, session: hostile }],
      ['fdref_list_refs', { session: hostile }],
      ['fdref_fd_to_file', { fd: hostile, file_path: 'x.py', session: hostile }],
      ['fdref_fd_to_file', { fd: 'fd:1', file_path: hostile }],
    ] as const) {
      const message = markdown((await api.lmTools.prepare(name, input))?.invocationMessage);
      assert.ok(message.length > 0, name);
      assert.doesNotMatch(message, unescaped, `${name}: ${message}`);
    }
    const refId = uniqueId('md_target');
    await sessionWith(refBlock(refId, 'txt', 'x'), uniqueId('Md'));
    const plan = await api.lmTools.prepare('fdref_fd_to_file', { fd: `ref:${refId}`, file_path: 'a [b](c) `d`.txt' });
    assert.ok(plan?.confirmationMessages);
    assert.match(markdown(plan.invocationMessage), /to a \\\[b\\\]\\\(c\\\) \\`d\\`\\\.txt$/);
    assert.match(markdown(plan.confirmationMessages.message), /to a \\\[b\\\]\\\(c\\\) \\`d\\`\\\.txt\./);
  });

  it('reads kept terminal output with `session: "Terminal <day>"`, and without it while only that session has the id, else names both', async function () {
    if (typeof vscode.window.onDidEndTerminalShellExecution !== 'function') this.skip(); // stable since 1.93
    const api = await fdref();
    const marker = uniqueId('lm_kept');
    const commandLine = paced(`echo ${marker}`);
    // Whatever earlier tests left: this window's tools session (searched first) goes, and ten newer empty sessions
    // push the other holders of small fd numbers out of the ten most recently active, until the command is kept.
    if (api.lmTools.sessionId !== undefined) await api.registry.delete(api.lmTools.sessionId);
    for (let i = 0; i < 10; i++) await api.registry.create(uniqueId('Empty'), { kind: 'chat' });
    await setSetting('fdref.terminal.keepOutput', true);
    try {
      await runInTerminal(commandLine);
    } finally {
      await setSetting('fdref.terminal.keepOutput', undefined);
    }
    const day = `Terminal ${localDay(new Date())}`;
    const { terminal, fd } = await eventually(
      async () => {
        for (const meta of await api.registry.list()) {
          if (meta.origin.kind !== 'terminal') continue;
          const kept = (await api.registry.reader(meta.id))
            ?.descriptors()
            .find((d) => d.command?.commandLine === commandLine);
          if (kept) return { terminal: meta, fd: kept.id };
        }
        return undefined;
      },
      'the kept command',
      15_000,
    );
    assert.equal(terminal.name, day);

    for (const session of [day, day.toLowerCase(), terminal.id]) {
      const read = await invoke('fdref_read_fd', { fd, session });
      assert.match(read, new RegExp(`^<fd_content fd="${fd}"[^>]*>${marker}\n</fd_content>$`), read);
      const found = await invoke('fdref_search_fd', { fd, pattern: marker, session });
      assert.match(found, /matches="1"/, found);
    }

    // Without `session`: the Terminal session is the most recently active, the nine after it are empty.
    const alone = await invoke('fdref_read_fd', { fd });
    assert.match(alone, new RegExp(`^<fd_content fd="${fd}"[^>]*>${marker}\n`), alone);
    assert.equal(attribute(alone, 'found_in', 'session'), terminal.id);

    // A newer session, of another store process, with as many descriptors: its fd:N hides nothing, the call names
    // both sessions once the store shows it.
    const other = await startOtherProcess(api.registry.storeFolder);
    try {
      const rivalName = uniqueId('Rival agent');
      const { session: rival } = (await other.send({ op: 'create', name: rivalName })) as { session: string };
      const n = Number(fd.slice('fd:'.length));
      for (let i = 1; i <= n; i++) await other.send({ op: 'fd', text: `rival ${i}` });
      const both = await eventually(
        async () => {
          const reply = await invoke('fdref_read_fd', { fd });
          return reply.startsWith('<fd_error') ? reply : undefined;
        },
        'the ambiguity',
        20_000,
      );
      const searched = await invoke('fdref_search_fd', { fd, pattern: marker });
      for (const reply of [both, searched]) {
        assert.match(
          reply,
          new RegExp(`^<fd_error type="invalid_argument" fd="${fd}">"${fd}" is in 2 of the recent sessions`),
          reply,
        );
        assert.ok(reply.includes(`"${day}" (session ${terminal.id}): kept terminal output of "${commandLine}"`), reply);
        assert.match(reply, new RegExp(`"${rivalName}" \\(session ${rival}\\): `), reply);
        assert.doesNotMatch(reply, new RegExp(`${marker}\n|rival ${n}`), 'no content of either');
      }
      assert.match(await invoke('fdref_read_fd', { fd, session: day }), new RegExp(`>${marker}\n<`));
      assert.match(await invoke('fdref_read_fd', { fd, session: rivalName }), new RegExp(`>rival ${n}<`));
    } finally {
      await other.exit();
    }
  });
});

function markdown(message: string | vscode.MarkdownString | undefined): string {
  return typeof message === 'string' ? message : (message?.value ?? '');
}
