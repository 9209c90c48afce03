import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';

/** The scheme of the read-only documents a language's symbol provider reads a ref's text in. */
const SCRATCH_SCHEME = 'fdref-scratch';

/**
 * Read-only, never-dirty documents of a given text and language, for asking a language's providers about text that
 * is in no file (a ref, or a ref wrapped in a class). Unlike untitled documents they are not backed up or offered
 * for saving, and VS Code drops them once unused; their text is forgotten when `read` returns.
 */
export class ScratchDocuments extends Disposable {
  private readonly texts = new Map<string, string>();
  private next = 0;

  constructor() {
    super();
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(SCRATCH_SCHEME, {
        provideTextDocumentContent: (uri) => this.texts.get(uri.toString()) ?? '',
      }),
    );
  }

  /** Runs `use` on a document holding `text` in `languageId`. */
  async read<T>(text: string, languageId: string, use: (document: vscode.TextDocument) => Thenable<T>): Promise<T> {
    const uri = vscode.Uri.from({ scheme: SCRATCH_SCHEME, path: `/${this.next++}/ref` });
    this.texts.set(uri.toString(), text);
    try {
      const opened = await vscode.workspace.openTextDocument(uri);
      const document =
        opened.languageId === languageId ? opened : await vscode.languages.setTextDocumentLanguage(opened, languageId);
      return await use(document);
    } finally {
      this.texts.delete(uri.toString());
    }
  }
}
