/**
 * The language model tools fdref contributes to VS Code (Copilot and any chat participant), as
 * `contributes.languageModelTools` in package.json holds them. Generated from the core's definitions (schemas and
 * descriptions) so the static JSON cannot drift: `test/unit/lmTools-manifest.test.ts` compares the two, and
 * `npx tsx scripts/lm-tools-json.ts` prints the JSON to paste. No `vscode` import: the unit test and the script
 * load it in plain Node, and activation does not load it (`lmToolNames.ts` is what runs).
 */
import { toolDefinitions } from '../core/tools';
import { toolInputJsonSchema } from '../core/tools/schemas';
import { storeTextDescription, storeTextInput } from '../core/tools/storeText';
import { CORE_TOOLS, type CoreToolName, lmToolName, STORE_TEXT_INLINE_CHARS } from './lmToolNames';

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

interface ToolPresentation {
  readonly core: CoreToolName;
  readonly toolReferenceName: string;
  readonly displayName: string;
  readonly userDescription: string;
  readonly icon: string;
  /** When a model should reach for it; the core's description (what it does) follows. */
  readonly when: string;
  readonly whenClause?: string;
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
const NAMES =
  ' In results, read_fd, search_fd, fd_to_file, list_refs, get_ref and store_text mean fdref_read_fd, ' +
  'fdref_search_fd, fdref_fd_to_file, fdref_list_refs, fdref_get_ref and fdref_store_text.';

const TOOLS: readonly ToolPresentation[] = [
  {
    core: 'read_fd',
    toolReferenceName: 'readFd',
    displayName: 'Read FD Refs Descriptor',
    userDescription: 'Read stored output (fd:N) or a ref page by page, by lines, characters or its last lines.',
    icon: '$(book)',
    when:
      'Use it whenever a result, the user or a terminal names an fd:N or ref:name, or says output was stored: read ' +
      'it page by page (or by lines, or its tail) instead of running the command again or guessing its content.',
  },
  {
    core: 'search_fd',
    toolReferenceName: 'searchFd',
    displayName: 'Search FD Refs Descriptor',
    userDescription: 'Find the lines of stored output (fd:N) or a ref that contain a text or match a pattern.',
    icon: '$(search)',
    when:
      'Use it to find errors, names or values in long stored output before reading around them with read_fd ' +
      'mode "line", instead of reading every page.',
  },
  {
    core: 'fd_to_file',
    toolReferenceName: 'fdToFile',
    displayName: 'Write FD Refs Descriptor to File',
    userDescription: 'Write stored output (fd:N) or a ref to a workspace file (replace, append or insert).',
    icon: '$(save)',
    when:
      'Use it to put stored content or a ref into a workspace file exactly as stored, without retyping it; ' +
      'the user confirms each write.',
    whenClause: 'isWorkspaceTrusted',
  },
  {
    core: 'list_refs',
    toolReferenceName: 'listRefs',
    displayName: 'List FD Refs',
    userDescription: 'List the refs (marked code and text) of the recent FD Refs sessions.',
    icon: '$(list-unordered)',
    when:
      'Use it to see which refs exist before getting one, e.g. when the user mentions code marked earlier. ' +
      'Without `session` it lists the refs of the recent sessions, each with its session.',
  },
  {
    core: 'get_ref',
    toolReferenceName: 'getRef',
    displayName: 'Get FD Refs Ref',
    userDescription: 'Get the content of a ref (marked code or text) by its name.',
    icon: '$(symbol-snippet)',
    when: 'Use it when the user or a result names a ref ("ref:name", "#name") whose content you need.',
  },
  {
    core: 'store_text',
    toolReferenceName: 'storeText',
    displayName: 'Store Text in FD Refs',
    userDescription: 'Keep text in FD Refs: <ref id="name"> blocks become refs, long text a descriptor.',
    icon: '$(archive)',
    when:
      'Use it to keep code or text you wrote (wrapped in <ref id="name">...</ref> blocks) or long text you were ' +
      'given, so that it can be written to files with fd_to_file or read later without repeating it.',
  },
];

/** The `contributes.languageModelTools` entries, as package.json must hold them. */
export function languageModelToolContributions(): LanguageModelToolContribution[] {
  const core = new Map(
    toolDefinitions({ sessionArgument: true, sessionDescription: SESSION_ARGUMENT_DESCRIPTION }).map((d) => [
      d.name,
      d,
    ]),
  );
  if (TOOLS.map((t) => t.core).join() !== CORE_TOOLS.join()) throw new Error('The tools are out of order.');
  return TOOLS.map((t) => {
    const definition =
      t.core === 'store_text'
        ? {
            description: storeTextDescription(STORE_TEXT_INLINE_CHARS),
            inputSchema: toolInputJsonSchema(storeTextInput),
          }
        : core.get(t.core);
    if (definition === undefined) throw new Error(`The core has no tool ${t.core}.`);
    const lookup = t.core === 'store_text' ? '' : LOOKUP;
    return {
      name: lmToolName(t.core),
      toolReferenceName: t.toolReferenceName,
      displayName: t.displayName,
      userDescription: t.userDescription,
      modelDescription: `${ABOUT}${t.when} ${definition.description}${lookup}${NAMES}`,
      canBeReferencedInPrompt: true,
      icon: t.icon,
      tags: ['fdref'],
      ...(t.whenClause === undefined ? {} : { when: t.whenClause }),
      inputSchema: definition.inputSchema,
    };
  });
}
