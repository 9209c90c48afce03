import { commandToolContext } from '../../../support/store/commandContext';
import assert from 'node:assert/strict';
import { CommandJobs } from '../../../../src/core/tools/commandJobs';
import { PREVIEW_HEAD_CHARS } from '../../../../src/core/tools/runCommand';
import type { ToolContext } from '../../../../src/core/tools/toolContext';
import { runTool, toolsOn } from '../../../../src/core/tools/toolTable';
import { tempStoreFolder } from '../../../support/store/tempStore';
import { child, parseXml } from '../../support/xml';

/** A test run's log: 3,000 `ok` lines, a failure and a warning printed twice after the 1,499th, exit 1. */
const TEST_RUN =
  'i=0; while [ $i -lt 3000 ]; do i=$((i+1)); ' +
  'if [ $i -eq 1500 ]; then echo "FAIL src/store.test.ts > reads a page past the end"; ' +
  'echo "warning: slow test (2.1 s)"; echo "warning: slow test (2.1 s)"; fi; ' +
  'echo "ok $i keeps descriptor $i whole"; done; exit 1';

describe('run_command: the preview of a long output', function () {
  this.timeout(30_000);
  let folder: ReturnType<typeof tempStoreFolder>;
  let jobs: CommandJobs;
  let context: ToolContext;
  beforeEach(async () => {
    folder = tempStoreFolder();
    ({ context, jobs } = await commandToolContext(folder, 300));
  });
  afterEach(async () => {
    await jobs.stopAll();
    await folder.dispose();
  });

  const run = async (command: string) => {
    const outcome = await runTool(context, 'run_command', { command }, toolsOn('mcp'));
    assert.ok(outcome.ok, outcome.text);
    return parseXml(outcome.text);
  };

  it('shows the failure and the warning from the middle with their line numbers, between head and tail', async () => {
    const root = await run(TEST_RUN);
    assert.equal(root.attributes['exit_code'], '1');
    assert.equal(root.attributes['total_lines'], '3003');
    assert.deepEqual(
      root.children.map((c) => c.name),
      ['message', 'preview_head', 'error_lines', 'omitted', 'preview_tail'],
    );
    const errors = child(root, 'error_lines').text;
    assert.match(errors, /^--- 3 lines that look like errors or warnings \(line: text\) ---\n/);
    assert.match(errors, /\n1500: FAIL src\/store\.test\.ts > reads a page past the end\n/);
    assert.match(errors, /\n1501: warning: slow test \(2\.1 s\) \(seen 2 times\)\n/);
    assert.match(child(root, 'message').text, /below, and between them the lines that look like errors or warnings/);
    const head = child(root, 'preview_head').text;
    const tail = child(root, 'preview_tail').text;
    assert.ok(head.startsWith('ok 1 keeps descriptor 1 whole\n'));
    assert.ok(tail.endsWith('ok 3000 keeps descriptor 3000 whole\n'));
    assert.ok(
      head.length + errors.length + tail.length <= 2 * PREVIEW_HEAD_CHARS,
      `the error lines take their room from the head and tail (${head.length} + ${errors.length} + ${tail.length})`,
    );
    const omitted = Number(root.children.find((c) => c.name === 'omitted')?.attributes['chars']);
    assert.equal(head.length + omitted + tail.length, Number(root.attributes['chars']));
  });

  it('keeps the whole head and tail when nothing looks like an error', async () => {
    const root = await run('seq 1 5000');
    assert.deepEqual(
      root.children.map((c) => c.name),
      ['message', 'preview_head', 'omitted', 'preview_tail'],
    );
    assert.equal(child(root, 'preview_head').text.length, PREVIEW_HEAD_CHARS);
  });
});
