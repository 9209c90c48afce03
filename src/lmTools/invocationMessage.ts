/** What VS Code's chat shows while a read tool runs, free of `vscode` so it is tested as it is. */
import { escapeMarkdown } from '../core/presentation/markdown';
import type { CoreToolName } from './lmToolNames';

/**
 * "Reading fd:3", "Searching fd:3 for "error"", from the call's arguments as far as they can be read. VS Code shows
 * it as Markdown: every value from the model is escaped, so it shows as typed and links nothing.
 */
export function invocationMessage(core: Exclude<CoreToolName, 'fd_to_file'>, input: unknown): string {
  const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const text = (key: string): string | undefined => {
    const value = args[key];
    return typeof value === 'string' ? escapeMarkdown(value.length > 60 ? `${value.slice(0, 60)}…` : value) : undefined;
  };
  const session = text('session');
  const inSession = session === undefined ? '' : ` in session ${session}`;
  switch (core) {
    case 'read_fd':
      return `Reading ${text('fd') ?? 'a descriptor'}${inSession}`;
    case 'search_fd':
      return `Searching ${text('fd') ?? 'a descriptor'}${inSession} for "${text('pattern') ?? ''}"`;
    case 'list_refs':
      return session === undefined ? 'Listing the refs of the recent sessions' : `Listing the refs${inSession}`;
    case 'get_ref':
      return `Getting ref ${text('id') ?? ''}${inSession}`;
    case 'store_text': {
      const length = typeof args['text'] === 'string' ? args['text'].length : 0;
      return `Storing ${length.toLocaleString('en-US')} characters in FD Refs`;
    }
  }
}
