/**
 * The language model tools fdref contributes to VS Code (Copilot and any chat participant), as
 * `contributes.languageModelTools` in package.json holds them. Generated from the core's tool records (schemas,
 * descriptions, presentation) so the static JSON cannot drift: `test/unit/lmTools/manifest.test.ts` compares the two, and
 * `npx tsx scripts/lm-tools-json.ts` prints the JSON to paste. No `vscode` import: the unit test and the script
 * load it in plain Node, and activation does not load it (`lmToolNames.ts` is what runs).
 */
import { toolDefinition } from '../core/tools/toolTable';
import { LM_TOOLS, STORE_TEXT_INLINE_CHARS } from './lmToolNames';

export { STORE_TEXT_INLINE_CHARS };

/** One entry of `contributes.languageModelTools`. */
export interface LanguageModelToolContribution {
  readonly name: string;
  readonly toolReferenceName: string;
  readonly displayName: string;
  readonly userDescription: string;
  readonly modelDescription: string;
  readonly canBeReferencedInPrompt: true;
  readonly icon: string;
  readonly tags: readonly string[];
  readonly when?: string;
  readonly inputSchema: object;
}

/** What every description starts with: what fdref keeps and how ids look. */
const ABOUT =
  'fdref (FD Refs) keeps long tool, command and terminal output whole in its session store as descriptors "fd:N", ' +
  'and code or text marked in answers as refs "ref:name" (earlier versions "ref:name@1"). ';

/** How ids are found when no session is named (`CallSession` in `copilotSessions.ts`). */
const LOOKUP =
  ' Without `session`, an id is looked up in the Copilot session of this window first, then in the most recently ' +
  'active sessions: when one has it, the result names that session (pass it as `session` to be sure); when ' +
  'several have it, the call fails listing them and you pass `session`.';

/** What the `session` argument means here. */
export const SESSION_ARGUMENT_DESCRIPTION =
  'The fdref session to read: its id or its exact name (case-insensitive). Default: the Copilot session of this ' +
  'window, else the recent session that has the id; when several recent sessions have it, the call fails naming ' +
  'them, and you pass one of them here. Anything created (an extract, a long result) goes to the Copilot session ' +
  'of this window.';

/** Results name the core tools; the model calls them by these names. */
function names(): string {
  const core = LM_TOOLS.map((t) => t.record.name);
  const lm = LM_TOOLS.map((t) => t.name);
  return ` In results, ${listed(core)} mean ${listed(lm)}.`;
}

function listed(items: readonly string[]): string {
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

/** The `contributes.languageModelTools` entries, as package.json must hold them. */
export function languageModelToolContributions(): LanguageModelToolContribution[] {
  const said = names();
  return LM_TOOLS.map(({ name, record }) => {
    const t = record.copilot;
    if (t === undefined) throw new Error(`${record.name} is offered on copilot without its presentation.`);
    const definition = toolDefinition(record, {
      sessionArgument: true,
      sessionDescription: SESSION_ARGUMENT_DESCRIPTION,
      inlineChars: STORE_TEXT_INLINE_CHARS,
    });
    return {
      name,
      toolReferenceName: t.referenceName,
      displayName: t.displayName,
      userDescription: t.userDescription,
      modelDescription: `${ABOUT}${t.when} ${definition.description}${t.looksUpSessions ? LOOKUP : ''}${said}`,
      canBeReferencedInPrompt: true,
      icon: t.icon,
      tags: ['fdref'],
      ...(t.whenClause === undefined ? {} : { when: t.whenClause }),
      inputSchema: definition.inputSchema,
    };
  });
}
