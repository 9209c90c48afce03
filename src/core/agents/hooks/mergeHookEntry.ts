/**
 * Adds fdref's hook to an agent's hooks configuration (`{ "hooks": { "<event>": [ … ] } }`, the shape Claude Code,
 * Codex's hooks.json, Gemini CLI and VS Code share) and takes it out again, changing nothing else: every other hook,
 * setting, comment and the file's indentation stay as they were, and removing what an install added gives back the
 * file's text byte for byte. fdref's entries are recognised by their command line (`isFdrefHookCommand`), whatever
 * the version or install path that wrote them, so Connect replaces an old one and Disconnect removes every one, and
 * nobody else's.
 *
 * An event's list holds either matcher groups (`{ "matcher": "Bash", "hooks": [ { "type": "command", … } ] }`) or,
 * in VS Code's files, the commands themselves; a group that also holds someone else's command keeps it.
 */
import type { JSONPath, Node, ParseError } from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';
import { jsoncParser, withoutChild } from '../jsonc';
import { AgentConfigError, lineIndent, spansLines, startsLine, textStyle } from '../mergeServerEntry';
import { isFdrefHookCommand } from './wrapperCommand';

export interface HookFileRequest {
  /** The file's text, or undefined when there is no file. */
  readonly existing: string | undefined;
  /** Whether the agent reads the file as JSON with comments. */
  readonly allowsComments: boolean;
  /** The file as the user knows it (`~/.claude/settings.json`), for messages. */
  readonly fileLabel: string;
}

export interface HookEntryRequest extends HookFileRequest {
  /** The event whose list gets the entry (`PreToolUse`, `BeforeTool`). */
  readonly event: string;
  /** The element added to `hooks.<event>`. */
  readonly entry: Readonly<Record<string, unknown>>;
}

export interface HookMergeResult {
  /** The text the file will have. */
  readonly text: string;
  /** Whether it differs from the file's. */
  readonly changed: boolean;
}

const BYTE_ORDER_MARK = '\uFEFF';

/** The configuration with fdref's hook set as `entry` (an older fdref entry replaced); throws {@link AgentConfigError}. */
export function mergeHookEntry(request: HookEntryRequest): HookMergeResult {
  const { existing, event, entry } = request;
  if (existing === undefined || existing.trim() === '' || existing === BYTE_ORDER_MARK) {
    return { text: `${JSON.stringify({ hooks: { [event]: [entry] } }, null, 2)}\n`, changed: true };
  }
  const { bom, text, root } = readHooksFile(request);
  const ours = fdrefEntries(root);
  eventList(root, event, request.fileLabel);
  const [only, ...others] = ours;
  const alreadySet =
    only !== undefined &&
    others.length === 0 &&
    only.path.length === 3 &&
    only.path[1] === event &&
    isDeepStrictEqual(plain(jsoncParser().getNodeValue(only.node)), plain(entry));
  if (alreadySet) return { text: existing, changed: false };

  const without = removePaths(
    text,
    ours.map((found) => found.path),
    false,
  );
  const edit = appendEdit(without, event, entry);
  const merged = without.slice(0, edit.offset) + edit.content + without.slice(edit.offset);
  checkMeaning(request, text, merged, (value) => appendEntry(withoutFdref(value), event, entry));
  return { text: bom + merged, changed: bom + merged !== existing };
}

/** The configuration without any fdref hook; an event list or `hooks` object left empty by that goes too. */
export function removeHookEntries(request: HookFileRequest): HookMergeResult & { readonly removed: number } {
  const { existing } = request;
  if (existing === undefined || existing.trim() === '' || existing === BYTE_ORDER_MARK) {
    return { text: existing ?? '', changed: false, removed: 0 };
  }
  const { bom, text, root } = readHooksFile(request);
  const ours = fdrefEntries(root);
  if (ours.length === 0) return { text: existing, changed: false, removed: 0 };
  const removed = removePaths(
    text,
    ours.map((found) => found.path),
    true,
  );
  checkMeaning(request, text, removed, (value) => withoutFdref(value, true));
  return { text: bom + removed, changed: true, removed: ours.length };
}

interface FoundEntry {
  readonly path: JSONPath;
  readonly node: Node;
}

/**
 * fdref's entries, in document order: a matcher group whose every command is fdref's (path `hooks.<event>.<i>`), a
 * command of fdref's inside a group that holds others too (`hooks.<event>.<i>.hooks.<j>`), or a command directly in
 * an event's list (VS Code).
 */
function fdrefEntries(root: Node): FoundEntry[] {
  const found: FoundEntry[] = [];
  const hooks = property(root, 'hooks');
  if (hooks?.type !== 'object') return found;
  for (const eventProperty of hooks.children ?? []) {
    const event = eventProperty.children?.[0]?.value as string;
    const list = eventProperty.children?.[1];
    if (list?.type !== 'array') continue;
    (list.children ?? []).forEach((element, i) => {
      if (isFdrefCommandNode(element)) {
        found.push({ path: ['hooks', event, i], node: element });
        return;
      }
      const handlers = property(element, 'hooks');
      const children = handlers?.type === 'array' ? (handlers.children ?? []) : [];
      const mine = children.flatMap((handler, j) => (isFdrefCommandNode(handler) ? [{ handler, j }] : []));
      if (mine.length === 0) return;
      if (mine.length === children.length) found.push({ path: ['hooks', event, i], node: element });
      else for (const { handler, j } of mine) found.push({ path: ['hooks', event, i, 'hooks', j], node: handler });
    });
  }
  return found;
}

function isFdrefCommandNode(node: Node): boolean {
  return node.type === 'object' && isFdrefHookCommand(property(node, 'command')?.value);
}

function property(node: Node | undefined, key: string): Node | undefined {
  if (node?.type !== 'object') return undefined;
  return node.children?.find((member) => member.children?.[0]?.value === key)?.children?.[1];
}

/**
 * Removes the entries at `paths` (in document order), last first so earlier paths stay valid. With `pruneEmpty`,
 * an event's list that loses its last entry goes too, and then `hooks` if that was its last event: an install into a
 * file without them added them.
 */
function removePaths(text: string, paths: readonly JSONPath[], pruneEmpty: boolean): string {
  let result = text;
  for (const path of [...paths].reverse()) {
    result = removeAt(result, path);
    if (!pruneEmpty || path.length !== 3) continue; // a command taken out of a group leaves the group its others
    for (const parentPath of [path.slice(0, 2), path.slice(0, 1)]) {
      const parent = jsoncParser().findNodeAtLocation(parseRoot(result) ?? EMPTY, parentPath);
      if (parent === undefined || (parent.children ?? []).length > 0) break;
      result = removeAt(result, parentPath);
    }
  }
  return result;
}

const EMPTY: Node = { type: 'null', offset: 0, length: 0 };

/**
 * The one insertion that appends `entry` to `hooks.<event>` (creating the list, and `hooks`, where missing), written
 * in the file's style as Connect writes a server entry: one line in a one-line file, else indented as the members
 * beside it. jsonc-parser's `modify` is not used for this: it re-formats the neighbours of what it inserts.
 */
function appendEdit(text: string, event: string, entry: unknown): { offset: number; content: string } {
  const root = parseRoot(text) ?? EMPTY;
  const style = textStyle(text, root);
  const hooks = property(root, 'hooks');
  const list = property(hooks, event);
  const [container, key, value]: [Node, string | undefined, unknown] =
    list !== undefined
      ? [list, undefined, entry]
      : hooks !== undefined
        ? [hooks, event, [entry]]
        : [root, 'hooks', { [event]: [entry] }];
  const last = container.children?.at(-1);
  const containerIndent = lineIndent(text, container.offset);
  const memberIndent =
    last !== undefined && startsLine(text, last.offset)
      ? lineIndent(text, last.offset)
      : containerIndent + style.indent;
  const rendered = style.render(value, memberIndent);
  const member = key === undefined ? rendered : `${JSON.stringify(key)}:${style.oneLine ? '' : ' '}${rendered}`;
  if (style.oneLine) {
    return last === undefined
      ? { offset: container.offset + 1, content: member }
      : { offset: last.offset + last.length, content: `,${member}` };
  }
  const newLine = style.eol + memberIndent;
  return last === undefined
    ? // An empty `[]` or `{}` opens onto lines of its own; one already spread over lines keeps its closing line.
      {
        offset: container.offset + 1,
        content: newLine + member + (spansLines(text, container) ? '' : style.eol + containerIndent),
      }
    : { offset: last.offset + last.length, content: `,${newLine}${member}` };
}

/**
 * Removes the member or element at `path` with the comma that joins it to the one before (else to the one after),
 * the inverse of {@link appendEdit}: what stood around it keeps its text. A container left with nothing in it
 * becomes `{}` or `[]`.
 */
function removeAt(text: string, path: JSONPath): string {
  const root = parseRoot(text) ?? EMPTY;
  const container = path.length === 1 ? root : jsoncParser().findNodeAtLocation(root, path.slice(0, -1));
  if (container === undefined) return text;
  const key = path.at(-1);
  const index =
    container.type === 'object'
      ? (container.children ?? []).findIndex((member) => member.children?.[0]?.value === key)
      : typeof key === 'number'
        ? key
        : -1;
  return withoutChild(text, container, index);
}

function parseRoot(text: string): Node | undefined {
  return jsoncParser().parseTree(text, [], { allowTrailingComma: true });
}

/** The file's text (without a byte order mark) and tree; throws {@link AgentConfigError} for one fdref will not edit. */
function readHooksFile(request: HookFileRequest): { bom: string; text: string; root: Node } {
  const existing = request.existing ?? '';
  const bom = existing.startsWith(BYTE_ORDER_MARK) ? BYTE_ORDER_MARK : '';
  const text = existing.slice(bom.length);
  const errors: ParseError[] = [];
  const root = jsoncParser().parseTree(text, errors, {
    disallowComments: !request.allowsComments,
    allowTrailingComma: request.allowsComments,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first !== undefined) {
    const before = text.slice(0, first.offset);
    const line = before.split('\n').length;
    throw new AgentConfigError(
      `${request.fileLabel} is not valid JSON at line ${line} (${jsoncParser().printParseErrorCode(first.error)}). Fix it, then connect again; nothing was written.`,
    );
  }
  if (root?.type !== 'object') {
    throw new AgentConfigError(
      `${request.fileLabel} does not hold a JSON object. Fix it, then connect again; nothing was written.`,
    );
  }
  const hooks = property(root, 'hooks');
  if (hooks !== undefined && hooks.type !== 'object') {
    throw new AgentConfigError(
      `${request.fileLabel}: "hooks" is not an object of events. Fix it, then connect again; nothing was written.`,
    );
  }
  return { bom, text, root };
}

function eventList(root: Node, event: string, fileLabel: string): Node | undefined {
  const list = property(property(root, 'hooks'), event);
  if (list !== undefined && list.type !== 'array') {
    throw new AgentConfigError(
      `${fileLabel}: "hooks.${event}" is not a list of hooks. Fix it, then connect again; nothing was written.`,
    );
  }
  return list;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as `JSON.parse` gives it (jsonc-parser's objects have no prototype). */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null)) as unknown;
}

/** The configuration's meaning without fdref's entries (the model {@link fdrefEntries} edits the text by). */
function withoutFdref(value: unknown, pruneEmpty = false): unknown {
  if (!isObject(value) || !isObject(value['hooks'])) return value;
  const hooks: JsonObject = {};
  for (const [event, list] of Object.entries(value['hooks'])) {
    if (!Array.isArray(list)) {
      hooks[event] = list;
      continue;
    }
    const kept = list.flatMap((element: unknown) => {
      if (isObject(element) && isFdrefHookCommand(element['command'])) return [];
      if (!isObject(element) || !Array.isArray(element['hooks']) || element['hooks'].length === 0) return [element];
      const handlers = element['hooks'].filter((h: unknown) => !(isObject(h) && isFdrefHookCommand(h['command'])));
      return handlers.length === 0 ? [] : [{ ...element, hooks: handlers }];
    });
    if (!(pruneEmpty && kept.length === 0 && list.length > 0)) hooks[event] = kept;
  }
  const result: JsonObject = { ...value, hooks };
  if (pruneEmpty && Object.keys(hooks).length === 0 && Object.keys(value['hooks']).length > 0) delete result['hooks'];
  return result;
}

function appendEntry(value: unknown, event: string, entry: unknown): unknown {
  const object = isObject(value) ? value : {};
  const hooks = isObject(object['hooks']) ? object['hooks'] : {};
  const list = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
  return { ...object, hooks: { ...hooks, [event]: [...list, entry] } };
}

/** The promise of this module, checked on every edit: the file means what it meant, but for fdref's entries. */
function checkMeaning(
  request: HookFileRequest,
  before: string,
  after: string,
  expected: (value: unknown) => unknown,
): void {
  const read = (text: string): unknown => {
    const errors: ParseError[] = [];
    const value = jsoncParser().parse(text, errors, { allowTrailingComma: true }) as unknown;
    return errors.length > 0 ? Symbol('unreadable') : plain(value);
  };
  if (!isDeepStrictEqual(read(after), plain(expected(read(before))))) {
    throw new Error(
      `editing fdref's hook in ${request.fileLabel} would have changed more than its entry; nothing was written`,
    );
  }
}
