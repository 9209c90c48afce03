/**
 * A process that indexes a store, as a VS Code window or an MCP server would, until it is killed: it prints one line
 * per step committed (`{"indexed": <bytes>}`), so a test can kill it in the middle of the work.
 */
import { SearchIndex } from '../../../src/core/search/searchIndex';
import { loadDriver } from '../../../src/core/search/sqlite';

async function main(): Promise<void> {
  const root = process.argv[2] ?? '';
  const driver = loadDriver();
  if ('error' in driver) throw new Error(driver.error);
  const index = SearchIndex.open(root, driver);
  await index.catchUpJournals();
  // Small slices: a kill lands between steps or inside one, never after all of them.
  while (await index.indexUntil(Date.now() + 5))
    process.stdout.write(`${JSON.stringify({ indexed: index.stats().indexedBytes })}\n`);
  process.stdout.write(`${JSON.stringify({ done: index.stats().indexedBytes })}\n`);
}

void main();
