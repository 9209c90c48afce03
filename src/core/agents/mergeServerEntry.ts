/**
 * Adds fdref's server to a client's configuration text, changing nothing else: the edit is one span of the text,
 * fdref's entry written in the file's style, so other servers, other keys, their order, the file's indentation and,
 * where the client allows them, its comments stay as they were. A file that cannot be read as the client reads it
 * is refused. Every step is linear in the file's length (jsonc-parser's `modify` is not: it formats the whole line
 * it inserts into, and a minified file is one line, each formatting edit copying all of it).
 */
import type { Node, ParseError } from 'jsonc-parser';
import { jsoncParser } from './jsonc';
import { isDeepStrictEqual } from 'node:util';
import { SERVER_NAME } from './agentClients';

/** A configuration file fdref will not edit: the message says which file, what is wrong, and that nothing was written. */
export class AgentConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentConfigError';
  }
}

export interface MergeRequest {
  /** The file's text, or undefined when there is no file. */
  readonly existing: string | undefined;
  /** fdref's entry under `mcpServers`. */
  readonly entry: Record<string, unknown>;
  /** Whether the client reads comments and trailing commas. */
  readonly allowsComments: boolean;
  /** The file as the user knows it (`~/.cursor/mcp.json`), for messages. */
  readonly fileLabel: string;
}

export interface MergeResult {
  /** The text the file will have. */
  readonly merged: string;
  /** An `fdref` entry was there, and is replaced. */
  readonly replaced: boolean;
  /** There was no file (or an empty one). */
  readonly created: boolean;
}

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * The deepest nesting of objects and arrays fdref edits: far past any configuration, and well within what the
 * recursive parser and the check after the edit can take on the stack (10,000 levels overflow it).
 */
export const MAX_CONFIG_DEPTH = 256;

/** The configuration with fdref's entry set (see the file comment); throws {@link AgentConfigError} for a file it will not edit. */
export function mergeServerEntry(request: MergeRequest): MergeResult {
  const { existing, entry, fileLabel } = request;
  if (existing === undefined || existing.trim() === '' || existing === BYTE_ORDER_MARK) {
    return {
      merged: `${JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2)}\n`,
      replaced: false,
      created: true,
    };
  }
  const bom = existing.startsWith(BYTE_ORDER_MARK) ? BYTE_ORDER_MARK : '';
  const text = existing.slice(bom.length);
  refuseDeepNesting(text, fileLabel);
  const root = parseConfig(text, request);
  const before = jsoncParser().getNodeValue(root) as Record<string, unknown>;
  const servers = before['mcpServers'];
  if (servers !== undefined && !isPlainObject(servers)) {
    throw new AgentConfigError(
      `${fileLabel}: "mcpServers" is ${describeJson(servers)}, not an object of servers. Fix it, then connect again; nothing was written.`,
    );
  }
  refuseDuplicateKey(root, [], 'mcpServers', fileLabel);
  const serversNode = root.children?.find((property) => property.children?.[0]?.value === 'mcpServers')?.children?.[1];
  if (serversNode !== undefined) refuseDuplicateKey(serversNode, ['mcpServers'], SERVER_NAME, fileLabel);

  const edit = entryEdit(text, root, serversNode, entry);
  const merged = text.slice(0, edit.offset) + edit.content + text.slice(edit.offset + edit.length);
  checkOnlyEntryChanged(before, merged, entry, request);
  return {
    merged: bom + merged,
    replaced: isPlainObject(servers) && Object.hasOwn(servers, SERVER_NAME),
    created: false,
  };
}

/** The tokens counted by {@link refuseDeepNesting}: jsonc-parser's `SyntaxKind`, a const enum `isolatedModules` cannot read. */
const TOKEN = { openBrace: 1, closeBrace: 2, openBracket: 3, closeBracket: 4, eof: 17 } as const;

/** Refuses, before anything recursive reads it, a file nested deeper than {@link MAX_CONFIG_DEPTH}. */
function refuseDeepNesting(text: string, fileLabel: string): void {
  const scanner = jsoncParser().createScanner(text, true);
  let depth = 0;
  for (let token: number = scanner.scan(); token !== TOKEN.eof; token = scanner.scan()) {
    if (token === TOKEN.openBrace || token === TOKEN.openBracket) {
      depth++;
      if (depth > MAX_CONFIG_DEPTH) {
        const { line, column } = position(text, scanner.getTokenOffset());
        throw new AgentConfigError(
          `${fileLabel} nests arrays and objects more than ${MAX_CONFIG_DEPTH} deep at line ${line}, column ${column}. Fix it, then connect again; nothing was written.`,
        );
      }
    } else if (token === TOKEN.closeBrace || token === TOKEN.closeBracket) {
      depth = Math.max(0, depth - 1); // a stray closing bracket must not hide the depth of what follows it
    }
  }
}

interface TextEdit {
  readonly offset: number;
  readonly length: number;
  readonly content: string;
}

/**
 * The one span that sets `mcpServers.fdref`: the entry replaces the value there, or is added after the last member
 * of `mcpServers` (of the top level, inside a new `mcpServers`, when there is none). It is written on one line in a
 * file that is one line (a minified file stays minified), else indented as the members beside it.
 */
function entryEdit(text: string, root: Node, serversNode: Node | undefined, entry: Record<string, unknown>): TextEdit {
  const style = textStyle(text, root);
  const existing = serversNode?.children?.find((property) => property.children?.[0]?.value === SERVER_NAME);
  const value = existing?.children?.[1];
  if (value !== undefined) {
    return { offset: value.offset, length: value.length, content: style.render(entry, lineIndent(text, value.offset)) };
  }
  const [object, key, added] =
    serversNode === undefined ? [root, 'mcpServers', { [SERVER_NAME]: entry }] : [serversNode, SERVER_NAME, entry];
  const last = object.children?.at(-1);
  const objectIndent = lineIndent(text, object.offset);
  const memberIndent =
    last !== undefined && startsLine(text, last.offset) ? lineIndent(text, last.offset) : objectIndent + style.indent;
  const member = `${JSON.stringify(key)}:${style.oneLine ? '' : ' '}${style.render(added, memberIndent)}`;
  if (style.oneLine) {
    return last === undefined
      ? { offset: object.offset + 1, length: 0, content: member }
      : { offset: last.offset + last.length, length: 0, content: `,${member}` };
  }
  const newLine = style.eol + memberIndent;
  return last === undefined
    ? // `{}` opens onto lines of its own; an object already spread over lines keeps its closing line.
      {
        offset: object.offset + 1,
        length: 0,
        content: newLine + member + (spansLines(text, object) ? '' : style.eol + objectIndent),
      }
    : { offset: last.offset + last.length, length: 0, content: `,${newLine}${member}` };
}

/** How a JSON file is written, so an edit can be written the same way (also used for the hooks' entries). */
export interface TextStyle {
  readonly oneLine: boolean;
  readonly eol: string;
  /** One level of indentation. */
  readonly indent: string;
  /** The value as JSON, its lines after the first indented by `at` more. */
  render(value: unknown, at: string): string;
}

/** The style of `text`: one line or many, its line ending, its indentation step. */
export function textStyle(text: string, root: Node): TextStyle {
  const oneLine = !spansLines(text, root);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)["}\]]/m.exec(text)?.[1] ?? '  ';
  return {
    oneLine,
    eol,
    indent,
    render: (value, at) =>
      oneLine ? JSON.stringify(value) : JSON.stringify(value, null, indent).replaceAll('\n', eol + at),
  };
}

/** Whether `node` is written over more than one line. */
export function spansLines(text: string, node: Node): boolean {
  const inside = text.slice(node.offset, node.offset + node.length);
  return inside.includes('\n') || inside.includes('\r');
}

/** The spaces and tabs that begin the line holding `offset`. */
export function lineIndent(text: string, offset: number): string {
  const lineStart = Math.max(text.lastIndexOf('\n', offset - 1), text.lastIndexOf('\r', offset - 1)) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
}

/** Whether only spaces and tabs come before `offset` on its line. */
export function startsLine(text: string, offset: number): boolean {
  const indent = lineIndent(text, offset);
  const before = offset - indent.length - 1;
  return before < 0 || text[before] === '\n' || text[before] === '\r';
}

function parseConfig(text: string, request: MergeRequest): Node {
  const errors: ParseError[] = [];
  const root = jsoncParser().parseTree(text, errors, {
    disallowComments: !request.allowsComments,
    allowTrailingComma: request.allowsComments,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first !== undefined) {
    const { line, column } = position(text, first.offset);
    const problem = jsoncParser().printParseErrorCode(first.error);
    const why =
      problem === 'InvalidCommentToken'
        ? 'a comment, which this client cannot read (it reads the file as plain JSON)'
        : !request.allowsComments && readsLeniently(text)
          ? 'a trailing comma, which this client cannot read (it reads the file as plain JSON)'
          : `a JSON syntax error (${problemWords(problem)})`;
    throw new AgentConfigError(
      `${request.fileLabel} has ${why} at line ${line}, column ${column}. Fix it, then connect again; nothing was written.`,
    );
  }
  if (root?.type !== 'object') {
    throw new AgentConfigError(
      `${request.fileLabel} holds ${root === undefined ? 'no JSON value' : describeJson(jsoncParser().getNodeValue(root))}, not a JSON object. Fix it, then connect again; nothing was written.`,
    );
  }
  return root;
}

/** Whether the text is JSON once comments and trailing commas are allowed. */
function readsLeniently(text: string): boolean {
  const errors: ParseError[] = [];
  jsoncParser().parseTree(text, errors, { allowTrailingComma: true });
  return errors.length === 0;
}

/** JSON.parse keeps the last of two equal keys and an edit would change the first: refuse rather than guess. */
function refuseDuplicateKey(object: Node, at: readonly string[], key: string, fileLabel: string): void {
  const count = (object.children ?? []).filter((property) => property.children?.[0]?.value === key).length;
  if (count > 1) {
    throw new AgentConfigError(
      `${fileLabel} has the key "${[...at, key].join('.')}" ${count} times. Keep one, then connect again; nothing was written.`,
    );
  }
}

/** The promise of this module, checked on every merge: fdref's entry is the only change in what the file means. */
function checkOnlyEntryChanged(
  before: Record<string, unknown>,
  mergedText: string,
  entry: Record<string, unknown>,
  request: MergeRequest,
): void {
  const errors: ParseError[] = [];
  const after = jsoncParser().getNodeValue(
    jsoncParser().parseTree(mergedText, errors, {
      disallowComments: !request.allowsComments,
      allowTrailingComma: request.allowsComments,
    }) ?? { type: 'null', offset: 0, length: 0 },
  ) as unknown;
  const expected = {
    ...before,
    mcpServers: { ...(isPlainObject(before['mcpServers']) ? before['mcpServers'] : {}), [SERVER_NAME]: entry },
  };
  if (errors.length > 0 || !isDeepStrictEqual(plainJson(after), plainJson(expected))) {
    throw new Error(
      `merging fdref into ${request.fileLabel} would have changed more than its entry; nothing was written`,
    );
  }
}

/** The value as `JSON.parse` gives it: `getNodeValue` makes objects without a prototype, which `isDeepStrictEqual` tells apart. */
function plainJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

const PROBLEM_WORDS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name expected',
  ValueExpected: 'a value expected',
  ColonExpected: 'a colon expected',
  CommaExpected: 'a comma expected',
  CloseBraceExpected: 'a closing brace expected',
  CloseBracketExpected: 'a closing bracket expected',
  EndOfFileExpected: 'text after the end of the JSON value',
  UnexpectedEndOfComment: 'a comment left open',
  UnexpectedEndOfString: 'a string left open',
  UnexpectedEndOfNumber: 'a number cut short',
  InvalidUnicode: 'a malformed \\u escape',
  InvalidEscapeCharacter: 'a malformed escape',
  InvalidCharacter: 'a control character in a string',
};

function problemWords(code: string): string {
  return PROBLEM_WORDS[code] ?? code;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? 'a string' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
