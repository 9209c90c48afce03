/** One command of the extension (`src/commands/`, and Connect an Agent in `src/agents/`); `fdrefCommands` lists them all. */
export interface Command {
  readonly id: string;
  execute(...args: unknown[]): unknown;
}
