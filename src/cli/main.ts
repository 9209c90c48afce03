/**
 * `node dist/cli.js <sub-command> [...]`: fdref's command-line tool, for agents' hooks (the `run` wrapper) and
 * for people. Each sub-command is one entry of the table below; the process exits with the status it resolves to.
 */
import { setFlagsFromString } from 'node:v8';
import { errorMessage } from '../core/errors';
import { run, take } from './run';
import type { CliIo, Subcommand } from './subcommand';

type HookCommand = typeof import('./hook');
/** The hook, loaded when called: `run` does not load the agents' hook tables. */
function hookCommand(): HookCommand {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./hook') as HookCommand;
}

type ReadCommands = typeof import('./readCommands');
/** The reading sub-commands, loaded when one is called (see lazy.ts for why). */
function readCommands(): ReadCommands {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./readCommands') as ReadCommands;
}

export const SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  run,
  // Loaded when called (see lazy.ts): `run` on a short output never builds the store's schemas.
  read: (argv, io) => readCommands().read(argv, io),
  search: (argv, io) => readCommands().search(argv, io),
  tail: (argv, io) => readCommands().tail(argv, io),
  list: (argv, io) => readCommands().list(argv, io),
  keep: (argv, io) => readCommands().keep(argv, io),
  hook: (argv, io) => hookCommand().hook(argv, io),
  // The end of the hooks' shell front (FRONT in wrapperCommand.ts), not for people: left out of the help.
  take,
};

/** Exit status for a sub-command name that does not exist (as the other sub-commands' usage errors). */
export const UNKNOWN_SUBCOMMAND_STATUS = 2;

const HELP = `Usage: cli.js <sub-command> [options]   (cli.js <sub-command> --help for its own)

  run -- <command line>   run a command, keep its long output whole in fdref's store, print a preview
  read <fd>               print a page or lines of a descriptor
  search <fd> <regex>     print the lines of a descriptor that match
  tail <fd> [<n>]         print the last lines of a descriptor
  list                    list a session's descriptors
  keep                    keep stdin as a new descriptor
  hook <agent>            an agent's pre-tool hook: reads its call on stdin, answers with the command wrapped
`;

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    await new Promise((resolve) => io.stdout.write(HELP, resolve));
    return name === undefined ? UNKNOWN_SUBCOMMAND_STATUS : 0;
  }
  const subcommand = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (subcommand === undefined) {
    await new Promise((resolve) =>
      io.stderr.write(
        `fdref: unknown sub-command ${JSON.stringify(name.slice(0, 80))}; one of ${Object.keys(SUBCOMMANDS).join(', ')}\n`,
        resolve,
      ),
    );
    return UNKNOWN_SUBCOMMAND_STATUS;
  }
  return subcommand(rest, io);
}

if (require.main === module) {
  // The young generation stays at its first size instead of growing to tens of MB while 100 MB of output stream
  // through (measured: peak RSS 114 MB -> 76 MB, bench/cli.mjs); the wrapper keeps little alive, so this costs little.
  setFlagsFromString('--semi-space-growth-factor=1');
  // A reader that went away (EPIPE) is seen by each write's callback; unheard, the stream's error would end the
  // process before it could exit with the command's status.
  process.stdout.on('error', () => undefined);
  main(process.argv.slice(2), {
    // Only `keep` and `take` read stdin: touching process.stdin would set the descriptor `run` hands its command
    // non-blocking.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  }).then(
    (status) => {
      process.exitCode = status;
    },
    (error: unknown) => {
      process.stderr.write(`fdref: ${errorMessage(error)}\n`);
      process.exitCode = 125;
    },
  );
}
