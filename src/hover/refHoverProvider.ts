import * as vscode from 'vscode';
import { fenceFor, firstLines } from '../core/presentation/describe';
import { lineCount } from '../core/quantities';
import { escapeMarkdown } from '../core/presentation/markdown';
import { idsAtOffset } from '../core/refs/idAtPosition';
import type { FoundDescriptor, SessionRegistry } from '../sessions/sessionRegistry';
import { previewText } from '../sessions/storedText';

const PREVIEW_LINES = 12;

/** `ref:x`, `ref:x@n` and `fd:N` in any text show their content and a link that opens them. */
export class RefHoverProvider implements vscode.HoverProvider {
  constructor(private readonly registry: SessionRegistry) {}

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    const line = document.lineAt(position.line).text;
    for (const candidate of idsAtOffset(line, position.character)) {
      const found = await this.registry.findDescriptor(candidate.id);
      if (token.isCancellationRequested) return undefined;
      if (found)
        return new vscode.Hover(
          await hoverText(found),
          new vscode.Range(position.line, candidate.start, position.line, candidate.end),
        );
    }
    return undefined;
  }
}

/** The id, language, size and session, the first lines (read by range) and a link that opens it. */
async function hoverText({ session, descriptor }: FoundDescriptor): Promise<vscode.MarkdownString> {
  const markdown = new vscode.MarkdownString();
  markdown.isTrusted = { enabledCommands: ['fdref.openRef'] };
  const language = descriptor.language ?? '';
  markdown.appendMarkdown(
    `**${descriptor.id}** · ${language === '' ? '' : `${escapeMarkdown(language)} · `}${lineCount(descriptor.content.totalLines)} · `,
  );
  markdown.appendText(session.name);
  const preview = firstLines(await previewText(descriptor.content), PREVIEW_LINES);
  const fence = fenceFor(preview.text);
  markdown.appendMarkdown(`\n\n${fence}${language.replace(/[^\w+#.-]/g, '')}\n${preview.text}\n${fence}\n\n`);
  if (descriptor.content.totalLines > PREVIEW_LINES)
    markdown.appendMarkdown(`… ${descriptor.content.totalLines - PREVIEW_LINES} more lines\n\n`);
  const args = encodeURIComponent(JSON.stringify([{ sessionId: session.id, descriptorId: descriptor.id }]));
  markdown.appendMarkdown(`[Open ${descriptor.id}](command:fdref.openRef?${args} "Open ${descriptor.id}")`);
  return markdown;
}
