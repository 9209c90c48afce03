// Benchmarks of fdref's command wrapper (issue 24), each measured against its floor in the same run: the same
// command run bare by /bin/sh. What is measured is the line fdref's hook gives an agent's shell tool (asked of
// `dist/cli.js hook claude-code` itself, so the bench follows whatever the hook writes: on Linux the shell front,
// which starts Node only for a long output), and beside it `node dist/cli.js run`, the wrapper people type.
// Targets: at most +60 ms on a command that prints nothing (median of 20), at most 1.5x the time of a command
// printing 100 MB with its output sent to /dev/null, and a peak memory (RSS) under 64 MB whatever the output size.
// Run after `npm run build` (npm run bench does).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// FDREF_BENCH_CLI: another build of the tool to measure (e.g. a copy of an earlier dist/cli.js, to compare).
const cli = process.env['FDREF_BENCH_CLI'] ?? path.join(root, 'dist', 'cli.js');
if (!existsSync(cli)) {
  console.error('dist/cli.js is missing: run `npm run build` first');
  process.exit(1);
}
const work = mkdtempSync(path.join(tmpdir(), 'fdref-cli-bench-'));
const store = path.join(work, 'store');
let failures = 0;

/** `value` quoted for /bin/sh. @param {string} value */
const q = (value) => `'${value.replace(/'/g, `'\\''`)}'`;
/** The command line that runs `command` through `node cli.js run`. @param {string} command */
const viaRun = (command) =>
  `${q(process.execPath)} ${q(cli)} run --store ${q(store)} --agent terminal -- ${q(command)}`;

mkdirSync(store);
/**
 * The command line fdref's hook rewrites `command` into: Claude Code's PreToolUse call, answered by the hook.
 * @param {string} command
 */
function hooked(command) {
  const call = {
    session_id: 'bench',
    cwd: work,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'bench' },
  };
  const answer = spawnSync(process.execPath, [cli, 'hook', 'claude-code', '--store', store], {
    input: JSON.stringify(call),
    encoding: 'utf8',
    // Claude Code's permission rules are read from the settings in HOME: none here.
    env: { ...process.env, HOME: work, CLAUDE_CONFIG_DIR: '' },
  });
  const line = answer.status === 0 && answer.stdout !== '' ? JSON.parse(answer.stdout) : undefined;
  const rewritten = line?.hookSpecificOutput?.updatedInput?.command;
  if (typeof rewritten !== 'string')
    throw new Error(`the hook did not rewrite ${command}: ${answer.stdout}${answer.stderr}`);
  return rewritten;
}

/** Milliseconds `sh -c line` takes, wall clock. @param {string} line */
function timeShell(line) {
  const start = performance.now();
  const result = spawnSync('/bin/sh', ['-c', line], { stdio: ['ignore', 'ignore', 'inherit'] });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${line} exited with ${result.status}`);
  return ms;
}

/**
 * The median of `runs` timings of each line, the lines alternating so that a slow moment of the machine hits all.
 * @param {string[]} lines
 * @param {number} runs
 */
function medians(lines, runs) {
  /** @type {number[][]} */
  const times = lines.map(() => []);
  for (let i = 0; i < runs; i++) lines.forEach((line, j) => times[j]?.push(timeShell(line)));
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)] ?? NaN);
}

/**
 * @param {string} name
 * @param {string} figure
 * @param {string} target
 * @param {boolean} ok
 */
function report(name, figure, target, ok) {
  if (!ok) failures++;
  console.log(`${name.padEnd(44)} ${figure}  target ${target}  ${ok ? 'PASS' : 'FAIL'}`);
}

// A loaded machine slows the wrapper (a Node process) more than the bare commands: say how loaded it was.
console.log(
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')} (1, 5, 15 min)`,
);
try {
  // A command that prints nothing: what the wrapper adds (the shell's start, Node's where it starts, no store work).
  const [bare, viaHook, viaNode, nodeAlone] = medians(
    ['true', hooked('true'), viaRun('true'), `${q(process.execPath)} -e 0`],
    20,
  );
  report(
    'hooked `true`, median of 20',
    `${viaHook.toFixed(1)} ms vs bare ${bare.toFixed(1)} ms: +${(viaHook - bare).toFixed(1)} ms ` +
      `(node cli.js run: +${(viaNode - bare).toFixed(1)} ms; node -e 0 alone: ${nodeAlone.toFixed(1)} ms)`,
    '<= +60 ms',
    viaHook - bare <= 60,
  );

  // 100 MB in lines of 100 characters, kept whole in the store, against the same output sent to /dev/null; beside
  // them the same output merely written into a file, and written and synced: what any keeping must at least cost.
  const big = `yes ${'a'.repeat(99)} | head -c 100000000`;
  const file = path.join(work, 'copy.txt');
  const [bareBig, hookedBig, runBig, toFile, synced] = medians(
    [
      `${big} > /dev/null`,
      `${hooked(big)} > /dev/null`,
      `${viaRun(big)} > /dev/null`,
      `${big} > ${q(file)}`,
      `${big} > ${q(file)} && sync ${q(file)}`,
    ],
    3,
  );
  report(
    'hooked command printing 100 MB, median of 3',
    `${hookedBig.toFixed(0)} ms vs ${bareBig.toFixed(0)} ms to /dev/null = ${(hookedBig / bareBig).toFixed(2)}x ` +
      `(node cli.js run: ${(runBig / bareBig).toFixed(2)}x; merely into a file: ${(toFile / bareBig).toFixed(2)}x, ` +
      `and synced: ${(synced / bareBig).toFixed(2)}x)`,
    '<= 1.5x',
    hookedBig / bareBig <= 1.5,
  );

  // Peak memory of the wrapper while it keeps 100 MB (its own RSS; the command's processes are small), and while it
  // keeps 10 MB: the two figures together say whether memory grows with the output.
  /** @param {string} command */
  const peakKib = (command) => {
    const timed = spawnSync(
      '/usr/bin/time',
      ['-f', '%M', process.execPath, cli, 'run', '--store', store, '--', command],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
      },
    );
    const found = Number(/(\d+)\s*$/.exec(timed.stderr ?? '')?.[1]);
    if (!Number.isFinite(found)) throw new Error(`/usr/bin/time gave no peak memory: ${timed.stderr}`);
    return found;
  };
  const kib = peakKib(big);
  const tenMb = peakKib(big.replace('100000000', '10000000'));
  // An output just long enough to be kept: the memory of recording a descriptor (the store loaded), without streaming.
  const small = peakKib(big.replace('100000000', '300000'));
  const nodeRss = Number(
    /(\d+)\s*$/.exec(
      spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, '-e', '0'], { encoding: 'utf8' }).stderr ?? '',
    )?.[1],
  );
  report(
    'wrapper peak RSS while keeping 100 MB',
    `${(kib / 1024).toFixed(1)} MB (keeping 10 MB: ${(tenMb / 1024).toFixed(1)} MB; 300 KB: ${(small / 1024).toFixed(1)} MB; ` +
      `node -e 0 alone: ${(nodeRss / 1024).toFixed(1)} MB)`,
    '< 64 MB',
    kib / 1024 < 64,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(failures === 0 ? 'all wrapper targets met' : `${failures} wrapper target(s) missed`);
process.exitCode = failures === 0 ? 0 : 1;
