/**
 * The shape of every sub-command of fdref's command-line tool (`dist/cli.js`): it gets its arguments (after the
 * sub-command's name) and the process's streams, and resolves to the exit status. Tests call sub-commands with
 * streams of their own; `main.ts` passes the process's.
 */
export interface CliIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  /** Absolute. */
  readonly cwd: string;
}

export type Subcommand = (argv: readonly string[], io: CliIo) => Promise<number>;
