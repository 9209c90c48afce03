// `npm run test:inspector`: the MCP Inspector (a client fdref did not write) drives dist/mcp.js from its command-line
// mode: it lists the tools and calls them, one server process per call as the Inspector runs it, all on one store.
// Installs the Inspector into the cache folder once (scripts/agents/install.mjs) and runs it with Node 24, which it
// needs; the server runs on the Node running this script. Needs `npm run build` first. Prints mocha-style results.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ensureAgentTool } from './install.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const server = path.join(repo, 'dist', 'mcp.js');
const CALL_TIMEOUT_MS = 60_000;

/** Every tool of the core's table offered on MCP (dist/core.js, built with the server), and the server's list_sessions. */
const { toolsOn } = /** @type {{ toolsOn: (surface: string) => { name: string }[] }} */ (
  createRequire(import.meta.url)(path.join(repo, 'dist', 'core.js'))
);
const EXPECTED_TOOLS = [...toolsOn('mcp').map((tool) => tool.name), 'list_sessions'].sort();

/**
 * Runs the Inspector's CLI against a fresh server process; resolves to its exit code and output.
 * @param {{ node: string, inspector: string }} tools
 * @param {{ store: string, workspace: string, readOnly?: boolean }} where
 * @param {string[]} method the Inspector's own arguments: `--method tools/list`, `--tool-name` and `--tool-arg`s.
 *   The Inspector reads each `--tool-arg` value as JSON when it parses, so a session id (8 hex digits) is passed
 *   JSON-quoted: `12345678` or `8e500000` would otherwise be sent as a number (or refused as Infinity).
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function inspect(tools, where, method) {
  const serverCommand = [
    process.execPath,
    server,
    '--store',
    where.store,
    '--workspace',
    where.workspace,
    ...(where.readOnly ? ['--read-only'] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(tools.node, [tools.inspector, '--cli', ...serverCommand, ...method], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: `${path.dirname(tools.node)}${path.delimiter}${process.env['PATH'] ?? ''}` },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data) => (stdout += data));
    child.stderr.on('data', (data) => (stderr += data));
    const timer = setTimeout(() => child.kill('SIGKILL'), CALL_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The Inspector's JSON answer; throws with its output when it failed or printed something else. A tool's error result
 * is an answer too: the Inspector prints it, then exits with 5 and says `tool_is_error` on stderr.
 * @param {{ code: number | null, stdout: string, stderr: string }} result
 * @returns {any}
 */
function answer(result) {
  const toolError = result.code === 5 && result.stderr.includes('"tool_is_error"');
  if (result.code !== 0 && !toolError) {
    throw new Error(`the Inspector exited with ${result.code}:\n${result.stdout}${result.stderr}`.trim());
  }
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(`the Inspector printed no JSON:\n${result.stdout}${result.stderr}`.trim());
  }
}

/**
 * The text of a tool result's first text content.
 * @param {any} result
 * @returns {string}
 */
function resultText(result) {
  const text = result?.content?.find((/** @type {any} */ part) => part.type === 'text')?.text;
  if (typeof text !== 'string') throw new Error(`the result has no text: ${JSON.stringify(result).slice(0, 500)}`);
  return text;
}

/**
 * @param {boolean} condition
 * @param {string} message
 * @returns {asserts condition}
 */
function check(condition, message) {
  if (!condition) throw new Error(message);
}

async function main() {
  if (!existsSync(server)) throw new Error(`${server} is missing: run \`npm run build\` first`);
  const installed = ensureAgentTool('inspector');
  const tools = { node: installed.node, inspector: realpathSync(installed.bin) };
  const work = mkdtempSync(path.join(tmpdir(), 'fdref-inspector-'));
  const where = { store: path.join(work, 'store'), workspace: path.join(work, 'workspace') };
  mkdirSync(where.workspace);

  console.log('\n  MCP Inspector CLI against dist/mcp.js');
  /** @type {{ name: string, ok: boolean }[]} */
  const results = [];
  /**
   * @param {string} name
   * @param {() => Promise<void>} fn
   */
  const test = async (name, fn) => {
    const started = Date.now();
    try {
      await fn();
      results.push({ name, ok: true });
      console.log(`    ✔ ${name} (${Date.now() - started}ms)`);
    } catch (error) {
      results.push({ name, ok: false });
      console.log(
        `    ✗ ${name}\n      ${String(error instanceof Error ? error.message : error).replace(/\n/g, '\n      ')}`,
      );
    }
  };

  /** The session of the process that ran `seq`, which later calls read through `session`. */
  let firstSession = '';

  try {
    await test('lists exactly the tools of the core table offered on MCP, each with an object schema', async () => {
      const listed = answer(await inspect(tools, where, ['--method', 'tools/list']));
      const names = listed.tools.map((/** @type {any} */ tool) => tool.name).sort();
      check(
        ['read_fd', 'run_command', 'store_text', 'list_fds'].every((name) => EXPECTED_TOOLS.includes(name)),
        `the table lost a tool: ${EXPECTED_TOOLS.join(', ')}`,
      );
      check(
        JSON.stringify(names) === JSON.stringify(EXPECTED_TOOLS),
        `tools: ${names.join(', ')}; expected ${EXPECTED_TOOLS.join(', ')}`,
      );
      for (const tool of listed.tools) check(tool.inputSchema?.type === 'object', `${tool.name} has no object schema`);
    });

    await test('runs a command whose output is longer than a result, and keeps all of it as a descriptor', async () => {
      const called = answer(
        await inspect(tools, where, [
          '--method',
          'tools/call',
          '--tool-name',
          'run_command',
          '--tool-arg',
          'command=seq 1 20000',
        ]),
      );
      const text = resultText(called);
      check(called.isError !== true, `run_command failed: ${text.slice(0, 500)}`);
      check(/exit_code="0"/.test(text), `no exit code 0 in: ${text.slice(0, 300)}`);
      check(/fd="fd:1"/.test(text), `no fd:1 in: ${text.slice(0, 300)}`);
      check(/chars="108894"/.test(text), `seq 1 20000 is 108,894 characters: ${text.slice(0, 300)}`);
      check(text.length < 50_000, `the result is ${text.length} characters, more than a client inlines`);
    });

    await test('lists the sessions of the store, the Inspector’s own among them', async () => {
      const listed = resultText(
        answer(await inspect(tools, where, ['--method', 'tools/call', '--tool-name', 'list_sessions'])),
      );
      const sessions = [...listed.matchAll(/<session id="([^"]+)"[^>]*fds="(\d+)"/g)];
      const withOutput = sessions.find((match) => match[2] === '1');
      check(withOutput !== undefined, `no session holding one descriptor in: ${listed.slice(0, 500)}`);
      firstSession = withOutput[1] ?? '';
      check(
        /client="inspector/.test(listed),
        `the sessions are not named after the Inspector: ${listed.slice(0, 300)}`,
      );
    });

    await test('searches and reads the output another server process stored', async () => {
      const found = resultText(
        answer(
          await inspect(tools, where, [
            '--method',
            'tools/call',
            '--tool-name',
            'search_fd',
            '--tool-arg',
            `session=${JSON.stringify(firstSession)}`,
            '--tool-arg',
            'fd=fd:1',
            '--tool-arg',
            'pattern=^1999[0-9]$',
            '--tool-arg',
            'regex=true',
          ]),
        ),
      );
      for (const line of ['19990', '19995', '19999'])
        check(found.includes(line), `search_fd did not find ${line}: ${found.slice(0, 500)}`);
      const tail = resultText(
        answer(
          await inspect(tools, where, [
            '--method',
            'tools/call',
            '--tool-name',
            'read_fd',
            '--tool-arg',
            `session=${JSON.stringify(firstSession)}`,
            '--tool-arg',
            'fd=fd:1',
            '--tool-arg',
            'mode=tail',
            '--tool-arg',
            'count=3',
          ]),
        ),
      );
      check(/19998\n19999\n20000/.test(tail), `the tail is not the last three lines: ${tail.slice(0, 500)}`);
    });

    await test('writes a descriptor to a file in the workspace with fd_to_file', async () => {
      const stored = resultText(
        answer(
          await inspect(tools, where, [
            '--method',
            'tools/call',
            '--tool-name',
            'store_text',
            '--tool-arg',
            'text=<ref id="hello">hello from the Inspector</ref>',
          ]),
        ),
      );
      check(stored.includes('ref:hello'), `store_text did not register ref:hello: ${stored.slice(0, 300)}`);
      // The ref lives in the session of the store_text process: the newest one that holds a ref.
      const listed = resultText(
        answer(await inspect(tools, where, ['--method', 'tools/call', '--tool-name', 'list_sessions'])),
      );
      const owner = [...listed.matchAll(/<session id="([^"]+)"[^>]*refs="(\d+)"/g)].find((match) => match[2] === '1');
      check(owner !== undefined, `no session holds ref:hello: ${listed.slice(0, 500)}`);
      const written = answer(
        await inspect(tools, where, [
          '--method',
          'tools/call',
          '--tool-name',
          'fd_to_file',
          '--tool-arg',
          'fd=ref:hello',
          '--tool-arg',
          `session=${JSON.stringify(owner[1])}`,
          '--tool-arg',
          'file_path=out/hello.txt',
        ]),
      );
      check(written.isError !== true, `fd_to_file failed: ${resultText(written).slice(0, 300)}`);
      const file = path.join(where.workspace, 'out', 'hello.txt');
      check(existsSync(file), `${file} was not written`);
      check(readFileSync(file, 'utf8') === 'hello from the Inspector', `${file} holds: ${readFileSync(file, 'utf8')}`);
    });

    await test('reports a bad call as a tool error with a message', async () => {
      const result = await inspect(tools, where, [
        '--method',
        'tools/call',
        '--tool-name',
        'read_fd',
        '--tool-arg',
        'fd=fd:99',
      ]);
      const called = answer(result);
      check(called.isError === true, `read_fd of a missing descriptor is not an error: ${result.stdout.slice(0, 300)}`);
      check(/fd:99/.test(resultText(called)), `the error does not name fd:99: ${resultText(called).slice(0, 300)}`);
    });

    await test('offers neither run_command nor fd_to_file with --read-only', async () => {
      const listed = answer(await inspect(tools, { ...where, readOnly: true }, ['--method', 'tools/list']));
      const names = listed.tools.map((/** @type {any} */ tool) => tool.name);
      check(!names.includes('run_command') && !names.includes('fd_to_file'), `read-only tools: ${names.join(', ')}`);
      check(names.includes('read_fd'), `read-only tools lack read_fd: ${names.join(', ')}`);
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const failed = results.filter((result) => !result.ok).length;
  console.log(`\n  ${results.length - failed} passing`);
  if (failed > 0) console.log(`  ${failed} failing`);
  return failed === 0;
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error) => {
    console.error(`The MCP Inspector test could not run: ${error instanceof Error ? error.stack : error}`);
    console.log('\n  0 passing\n  1 failing');
    process.exit(1);
  },
);
