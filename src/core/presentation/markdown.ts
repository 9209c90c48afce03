/** Escapes text so Markdown shows it literally (no links, emphasis, HTML or tables); line breaks become spaces. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&').replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
}
