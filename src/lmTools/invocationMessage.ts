/** What VS Code's chat shows while a tool runs, free of `vscode` so it is tested as it is. */
import { invocationArgs } from '../core/tools/toolRecord';
import { toolRecord } from '../core/tools/toolTable';

/**
 * "Reading fd:3", "Searching fd:3 for "error"", from the call's arguments as far as they can be read (the tool
 * record's `copilot.invocation`). VS Code shows it as Markdown: every value from the model is escaped, so it shows
 * as typed and links nothing.
 */
export function invocationMessage(core: string, input: unknown): string {
  const say = toolRecord(core)?.copilot?.invocation;
  return say === undefined ? `Running ${core}` : say(invocationArgs(input));
}
