import { UserError } from '../common/errors';
import { reindentForInsert } from '../core/refs/reindent';
import { REF_COMMAND_IDS } from '../common/refCommandIds';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { refFromArgumentOrPick } from './pickers';
import { targetEditor } from './targetEditor';
import type { UserMessages } from '../common/userMessages';

/**
 * Inserts a ref at the cursor of the active editor, replacing the selection, as one undoable edit; a ref of several
 * lines takes the indentation of the cursor's line (`reindentForInsert`).
 */
export class InsertRefAtCursorCommand implements Command {
  readonly id = REF_COMMAND_IDS.insertAtCursor;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<boolean> {
    const editor = targetEditor();
    if (!editor)
      throw new UserError(
        'Open an editor and place the cursor where the ref should go (FD Refs documents are read-only).',
      );
    const found = await refFromArgumentOrPick(this.registry, arg, 'Insert Ref at Cursor', this.messages);
    if (!found) return false;
    const text = await found.descriptor.content.text();
    const applied = await editor.edit((builder) => {
      for (const selection of editor.selections) {
        const before = editor.document.lineAt(selection.start.line).text.slice(0, selection.start.character);
        builder.replace(selection, reindentForInsert(text, before));
      }
    });
    if (!applied)
      throw new UserError(
        `VS Code did not apply the insertion of ${found.descriptor.id} into ${editor.document.uri.toString()}.`,
      );
    return true;
  }
}
