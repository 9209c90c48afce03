/** What a store holds after the command-line tool kept output: every `fd:` descriptor of every session, with its text. */
import { Store } from '../../../src/core/store';

export async function storedOutputs(storeFolder: string) {
  const store = await Store.open(storeFolder);
  const found = [];
  for (const meta of (await store.list()).sessions) {
    const reader = await store.read(meta.id);
    for (const descriptor of reader?.descriptors() ?? [])
      found.push({ meta, descriptor, text: await descriptor.content.slice(0) });
  }
  return found;
}

/** The texts alone, in the same order. */
export async function storedTexts(storeFolder: string): Promise<string[]> {
  return (await storedOutputs(storeFolder)).map((output) => output.text);
}
