/**
 * The tools other extensions and VS Code register (`vscode.lm.tools`, MCP servers' tools included) that the user
 * chose for fdref's chat (`fdref.chat.tools`, or the picker in the chat header). Each is offered to the model as an
 * `ExtraTool` with its own description and input schema, and run with `vscode.lm.invokeTool`. Outside a chat
 * request VS Code shows no confirmation of its own, so the chat asks before every call, unless the user listed the
 * tool in `fdref.chat.autoApproveTools` and the workspace is trusted.
 */
import * as vscode from 'vscode';
import type { ExtraTool } from '../core/chat/conversationHost';
import { CHAT_OWN_TOOL_NAMES } from '../core/chat/toolNames';
import { ToolError } from '../core/toolError';
import type { ChatSettings } from '../core/settings/chatSettings';

/** Arguments longer than this are shortened on the confirmation card (the tool gets them whole). */
const SHOWN_INPUT_CHARS = 4_000;

/**
 * A tool name every model API takes (Anthropic's rule, the strictest): a request offering any other name is
 * refused whole, so such a tool is never offered.
 */
export const OFFERABLE_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The chosen tools VS Code lists now, as the chat offers them (fdref's own names are never taken). */
export function otherTools(settings: ChatSettings): ExtraTool[] {
  const chosen = new Set(settings.tools);
  return vscode.lm.tools
    .filter(
      (tool) => chosen.has(tool.name) && !CHAT_OWN_TOOL_NAMES.has(tool.name) && OFFERABLE_TOOL_NAME.test(tool.name),
    )
    .map((tool) => otherTool(tool, settings.autoApproveTools.includes(tool.name)));
}

/** Why a tool the model called is not offered although the user chose it: it is gone. */
export function missingOtherTool(settings: ChatSettings, name: string): string | undefined {
  if (!settings.tools.includes(name)) return undefined;
  if (!OFFERABLE_TOOL_NAME.test(name))
    return `The tool ${name} is not offered: model APIs take only names of letters, digits, _ and - (at most 64). Do not call it.`;
  return goneMessage(name);
}

/** What the model is told of a chosen tool VS Code no longer has. */
function goneMessage(name: string): string {
  return (
    `The tool ${name} is no longer available in VS Code (the extension or MCP server that provided it was ` +
    'uninstalled, disabled or stopped). Do not call it again; continue without it or tell the user.'
  );
}

function otherTool(tool: vscode.LanguageModelToolInformation, trusted: boolean): ExtraTool {
  const name = tool.name;
  return {
    definition: {
      name,
      description: tool.description,
      inputSchema: tool.inputSchema ?? { type: 'object', properties: {} },
    },
    confirmation(args) {
      if (trusted && vscode.workspace.isTrusted) return undefined;
      const input = JSON.stringify(args ?? {}, null, 2);
      return {
        kind: 'tool',
        tool: name,
        description: tool.description,
        input:
          input.length > SHOWN_INPUT_CHARS
            ? `${input.slice(0, SHOWN_INPUT_CHARS)}\n… (${input.length - SHOWN_INPUT_CHARS} more characters)`
            : input,
      };
    },
    async run(args, signal) {
      if (!vscode.lm.tools.some((t) => t.name === name)) {
        throw new ToolError('not_found', goneMessage(name));
      }
      const input = args !== null && typeof args === 'object' && !Array.isArray(args) ? args : {};
      const cancel = new vscode.CancellationTokenSource();
      const onAbort = () => cancel.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cancel.token);
        return resultText(result);
      } finally {
        signal.removeEventListener('abort', onAbort);
        cancel.dispose();
      }
    },
  };
}

/**
 * The text of a tool's result: its text parts in order (and data parts holding text or JSON). Parts this chat
 * cannot pass to the model (images, prompt-tsx elements) are named in a note at the end, never dropped silently.
 */
export function resultText(result: vscode.LanguageModelToolResult): string {
  const texts: string[] = [];
  const dropped: string[] = [];
  for (const part of result.content) {
    if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
    else if (isTextData(part)) texts.push(new TextDecoder().decode(part.data));
    else if (part instanceof vscode.LanguageModelPromptTsxPart) dropped.push('prompt-tsx');
    else dropped.push(isData(part) ? part.mimeType : 'unknown');
  }
  const text = texts.join('');
  if (dropped.length === 0) return text;
  const kinds = [...new Set(dropped)].join(', ');
  const note = `[FD Refs: ${dropped.length} part${dropped.length === 1 ? '' : 's'} of this result (${kinds}) not shown: the chat passes a tool's text only.]`;
  return text === '' ? note : `${text}\n\n${note}`;
}

interface DataPart {
  readonly mimeType: string;
  readonly data: Uint8Array;
}

/** A `LanguageModelDataPart` (VS Code 1.105+; not in the 1.100 types). */
function isData(part: unknown): part is DataPart {
  return (
    typeof part === 'object' &&
    part !== null &&
    typeof (part as { mimeType?: unknown }).mimeType === 'string' &&
    (part as { data?: unknown }).data instanceof Uint8Array
  );
}

function isTextData(part: unknown): part is DataPart {
  return isData(part) && /^(text\/|application\/(json|xml)\b)/.test(part.mimeType);
}
