// Prints `contributes.languageModelTools` as package.json must hold it, generated from the core's tool definitions
// (src/lmTools/lmToolDefinitions.ts); test/unit/lmTools-manifest.test.ts fails while the two differ.
//   npx tsx scripts/lm-tools-json.ts            the JSON to paste
//   npx tsx scripts/lm-tools-json.ts --write    writes it into package.json (nothing else there changes)
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { languageModelToolContributions } from '../src/lmTools/lmToolDefinitions';

const tools = languageModelToolContributions();
if (process.argv.includes('--write')) {
  const file = path.join(__dirname, '..', 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { contributes: Record<string, unknown> };
  manifest.contributes['languageModelTools'] = tools;
  writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
  console.log(`Wrote ${tools.length} language model tools into package.json.`);
} else {
  console.log(JSON.stringify(tools, null, 2));
}
