import { Content } from '../../src/core/descriptors/content';
import { readText, type TextSource } from '../../src/core/descriptors/textSource';

/** The whole text of a descriptor, whether its content is in memory or read from the store; undefined for none. */
export async function descriptorText(
  descriptor: { readonly content: TextSource } | undefined,
): Promise<string | undefined> {
  return descriptor === undefined ? undefined : readText(descriptor.content);
}

/** The text of a descriptor held in memory (a session made in the test, never read from the store). */
export function memoryText(descriptor: { readonly content: TextSource } | undefined): string | undefined {
  if (descriptor === undefined) return undefined;
  if (!(descriptor.content instanceof Content))
    throw new Error(`${descriptor.content.length} characters not in memory`);
  return descriptor.content.text;
}
