/**
 * Qwen Code's `tools.visible` (settings.json): Qwen Code 0.24 hides an MCP server's tools behind its own
 * `tool_search` / `tool_call` tools, so the model sees none of fdref's until it searches, unless the list names them.
 * Connect appends fdref's names that are missing to the list (creating it, and `tools`, where missing) in the file's
 * style; Disconnect takes fdref's names out again, and a list (then a `tools`) left empty, so a file Connect changed
 * gets back its text byte for byte. Nothing else changes; a file whose `tools` or `tools.visible` has another shape is
 * refused with {@link AgentConfigError}.
 */
import type { Node, ParseError } from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';
import { SERVER_NAME } from './agentClients';
import { jsoncParser, withoutChild } from './jsonc';
import { AgentConfigError, lineIndent, spansLines, startsLine, textStyle } from './mergeServerEntry';

/**
 * The tools fdref's MCP server offers (`toolsOn('mcp')`, which core/agents may not import: a unit test keeps the two
 * the same).
 */
export const FDREF_MCP_TOOLS: readonly string[] = [
  'read_fd',
  'search_fd',
  'fd_to_file',
  'list_refs',
  'get_ref',
  'list_fds',
  'query_fd',
  'diff_fd',
  'store_text',
  'run_command',
  'wait_command',
];

/** Qwen Code's name for a server's tool (`mcp__fdref__read_fd`). */
export function qwenToolName(tool: string): string {
  return `mcp__${SERVER_NAME}__${tool}`;
}

const BYTE_ORDER_MARK = '\uFEFF';
const EMPTY: Node = { type: 'null', offset: 0, length: 0 };

/** The text with `names` in `tools.visible` (only those missing are appended); throws {@link AgentConfigError}. */
export function mergeVisibleTools(
  existing: string | undefined,
  names: readonly string[],
  allowsComments: boolean,
  fileLabel: string,
): string {
  if (existing === undefined || existing.trim() === '' || existing === BYTE_ORDER_MARK) {
    return `${JSON.stringify({ tools: { visible: names } }, null, 2)}\n`;
  }
  const { bom, text, root, list } = read(existing, allowsComments, fileLabel);
  const present = new Set((list?.children ?? []).map((element) => element.value as unknown));
  const missing = names.filter((name) => !present.has(name));
  if (missing.length === 0) return existing;
  const tools = property(root, 'tools');
  const [container, key, values]: [Node, string | undefined, unknown[]] =
    list !== undefined
      ? [list, undefined, missing]
      : tools !== undefined
        ? [tools, 'visible', [missing]]
        : [root, 'tools', [{ visible: missing }]];
  const style = textStyle(text, root);
  const last = container.children?.at(-1);
  const containerIndent = lineIndent(text, container.offset);
  const memberIndent =
    last !== undefined && startsLine(text, last.offset)
      ? lineIndent(text, last.offset)
      : containerIndent + style.indent;
  const rendered = values.map((value) => {
    const item = style.render(value, memberIndent);
    return key === undefined ? item : `${JSON.stringify(key)}:${style.oneLine ? '' : ' '}${item}`;
  });
  const separator = style.oneLine ? ',' : `,${style.eol}${memberIndent}`;
  const joined = rendered.join(separator);
  const edit =
    last !== undefined
      ? { offset: last.offset + last.length, content: `${separator}${joined}` }
      : style.oneLine
        ? { offset: container.offset + 1, content: joined }
        : {
            offset: container.offset + 1,
            content:
              style.eol + memberIndent + joined + (spansLines(text, container) ? '' : style.eol + containerIndent),
          };
  const merged = text.slice(0, edit.offset) + edit.content + text.slice(edit.offset);
  const expected = withVisible(value(text), (visible) => [...visible, ...missing]);
  if (!isDeepStrictEqual(value(merged), expected)) {
    throw new Error(
      `adding fdref's tools to ${fileLabel} would have changed more than tools.visible; nothing was written`,
    );
  }
  return bom + merged;
}

/** The text without `names` in `tools.visible` (a list, then a `tools`, left empty goes too); `existing` when none. */
export function removeVisibleTools(
  existing: string | undefined,
  names: readonly string[],
  allowsComments: boolean,
  fileLabel: string,
): string | undefined {
  if (existing === undefined || existing.trim() === '' || existing === BYTE_ORDER_MARK) return existing;
  const { bom, text, list } = read(existing, allowsComments, fileLabel);
  const mine = (list?.children ?? []).flatMap((element, i) => (names.includes(element.value as string) ? [i] : []));
  if (mine.length === 0) return existing;
  let result = text;
  for (const index of [...mine].reverse()) result = removeAt(result, ['tools', 'visible'], index);
  for (const [path, key] of [
    [['tools'], 'visible'],
    [[], 'tools'],
  ] as const) {
    const container = locate(result, path);
    const child = property(container, key);
    if (child === undefined || (child.children ?? []).length > 0) break;
    result = removeAt(result, path, key);
  }
  const expected = withVisible(value(text), (visible) => visible.filter((name) => !names.includes(name as string)));
  const got = value(result);
  if (!isDeepStrictEqual(pruned(got), pruned(expected))) {
    throw new Error(
      `removing fdref's tools from ${fileLabel} would have changed more than tools.visible; nothing was written`,
    );
  }
  return bom + result;
}

function read(
  existing: string,
  allowsComments: boolean,
  fileLabel: string,
): { bom: string; text: string; root: Node; list: Node | undefined } {
  const bom = existing.startsWith(BYTE_ORDER_MARK) ? BYTE_ORDER_MARK : '';
  const text = existing.slice(bom.length);
  const errors: ParseError[] = [];
  const root = jsoncParser().parseTree(text, errors, {
    disallowComments: !allowsComments,
    allowTrailingComma: allowsComments,
  });
  if (errors.length > 0 || root?.type !== 'object') {
    throw new AgentConfigError(
      `${fileLabel} is not a JSON object fdref can read. Fix it, then try again; nothing was written.`,
    );
  }
  const tools = property(root, 'tools');
  if (tools !== undefined && tools.type !== 'object') {
    throw new AgentConfigError(`${fileLabel}: "tools" is not an object. Fix it, then try again; nothing was written.`);
  }
  const list = property(tools, 'visible');
  if (list !== undefined && list.type !== 'array') {
    throw new AgentConfigError(
      `${fileLabel}: "tools.visible" is not a list of tool names. Fix it, then try again; nothing was written.`,
    );
  }
  return { bom, text, root, list };
}

function property(node: Node | undefined, key: string): Node | undefined {
  if (node?.type !== 'object') return undefined;
  return node.children?.find((member) => member.children?.[0]?.value === key)?.children?.[1];
}

function locate(text: string, path: readonly string[]): Node | undefined {
  const root = jsoncParser().parseTree(text, [], { allowTrailingComma: true }) ?? EMPTY;
  return path.length === 0 ? root : jsoncParser().findNodeAtLocation(root, [...path]);
}

/** `text` without the member `key` (or element `key`) of the container at `path`, with the comma joining it. */
function removeAt(text: string, path: readonly string[], key: string | number): string {
  const container = locate(text, path);
  if (container === undefined) return text;
  const index =
    container.type === 'object'
      ? (container.children ?? []).findIndex((member) => member.children?.[0]?.value === key)
      : Number(key);
  return withoutChild(text, container, index);
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function value(text: string): unknown {
  return JSON.parse(JSON.stringify(jsoncParser().parse(text, [], { allowTrailingComma: true }) ?? null)) as unknown;
}

function withVisible(config: unknown, change: (visible: unknown[]) => unknown[]): unknown {
  const object = isObject(config) ? config : {};
  const tools = isObject(object['tools']) ? object['tools'] : {};
  const visible = Array.isArray(tools['visible']) ? (tools['visible'] as unknown[]) : [];
  return { ...object, tools: { ...tools, visible: change(visible) } };
}

/** The configuration with an empty `tools.visible`, then an empty `tools`, left out (what Disconnect prunes). */
function pruned(config: unknown): unknown {
  if (!isObject(config) || !isObject(config['tools'])) return config;
  const tools = { ...config['tools'] };
  if (Array.isArray(tools['visible']) && tools['visible'].length === 0) delete tools['visible'];
  const result: JsonObject = { ...config, tools };
  if (Object.keys(tools).length === 0) delete result['tools'];
  return result;
}
