import * as vscode from 'vscode';
import { languageModelError, type LanguageModelRefusal } from '../core/chat/languageModelErrors';
import {
  ModelError,
  type ModelClient,
  type ModelEvent,
  type ModelMessage,
  type ModelRequest,
} from '../core/chat/modelClient';
import { errorMessage } from '../common/errors';

/**
 * A `ModelClient` over one of VS Code's language models (`vscode.lm`): Copilot or any other installed chat
 * model. VS Code asks the user for consent on the first request, which must come from a user action.
 * The API has no system role, so the system prompt goes first as a user message.
 */
export class VscodeLmClient implements ModelClient {
  constructor(private readonly chatModel: vscode.LanguageModelChat) {}

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    const cancellation = new vscode.CancellationTokenSource();
    const onAbort = () => cancellation.cancel();
    signal.addEventListener('abort', onAbort);
    try {
      if (signal.aborted) throw new ModelError('aborted', 'Stopped.');
      let response: vscode.LanguageModelChatResponse;
      try {
        response = await this.chatModel.sendRequest(
          toLmMessages(request),
          {
            justification: 'FD Refs sends your chat message to this model.',
            tools: request.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
          },
          cancellation.token,
        );
      } catch (error) {
        throw this.translate(error, signal);
      }
      let calledTools = false;
      try {
        for await (const part of response.stream) {
          if (signal.aborted) break;
          if (part instanceof vscode.LanguageModelTextPart) {
            yield { type: 'text', text: part.value };
          } else if (part instanceof vscode.LanguageModelToolCallPart) {
            calledTools = true;
            yield {
              type: 'toolCall',
              call: { id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) },
            };
          }
        }
      } catch (error) {
        throw this.translate(error, signal);
      }
      if (signal.aborted) throw new ModelError('aborted', 'Stopped.');
      yield { type: 'end', stopReason: calledTools ? 'tool_use' : 'end_turn' };
    } finally {
      signal.removeEventListener('abort', onAbort);
      cancellation.dispose();
    }
  }

  private translate(error: unknown, signal: AbortSignal): ModelError {
    if (signal.aborted || error instanceof vscode.CancellationError) return new ModelError('aborted', 'Stopped.');
    return languageModelError(
      `${this.chatModel.name} (${this.chatModel.vendor})`,
      refusalOf(error),
      errorMessage(error),
      error,
    );
  }
}

/** Which of the `LanguageModelError`s fdref tells apart `error` is, if any. */
function refusalOf(error: unknown): LanguageModelRefusal | undefined {
  if (!(error instanceof vscode.LanguageModelError)) return undefined;
  if (error.code === vscode.LanguageModelError.NoPermissions().code) return 'noPermissions';
  if (error.code === vscode.LanguageModelError.NotFound().code) return 'notFound';
  if (error.code === vscode.LanguageModelError.Blocked().code) return 'blocked';
  return undefined;
}

function toLmMessages(request: ModelRequest): vscode.LanguageModelChatMessage[] {
  const out = [vscode.LanguageModelChatMessage.User(request.system)];
  for (const message of request.messages) out.push(toLmMessage(message));
  return out;
}

function toLmMessage(message: ModelMessage): vscode.LanguageModelChatMessage {
  switch (message.role) {
    case 'user':
      return vscode.LanguageModelChatMessage.User(message.text);
    case 'assistant': {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      if (message.text !== '') parts.push(new vscode.LanguageModelTextPart(message.text));
      for (const call of message.toolCalls)
        parts.push(new vscode.LanguageModelToolCallPart(call.id, call.name, parseArguments(call.arguments)));
      return vscode.LanguageModelChatMessage.Assistant(parts);
    }
    case 'tool':
      return vscode.LanguageModelChatMessage.User(
        message.results.map(
          (r) => new vscode.LanguageModelToolResultPart(r.callId, [new vscode.LanguageModelTextPart(r.content)]),
        ),
      );
  }
}

function parseArguments(text: string): object {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : { value };
  } catch {
    return { invalidArguments: text };
  }
}
