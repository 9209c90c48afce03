// Prints `contributes.languageModelTools` as package.json must hold it, generated from the core's tool records
// (src/lmTools/lmToolDefinitions.ts), and with --write also docs/TOOLS.md's tool table; test/unit/lmTools/manifest.test.ts
// fails while either differs.
//   npx tsx scripts/lm-tools-json.ts            the JSON to paste
//   npx tsx scripts/lm-tools-json.ts --write    writes it into package.json (nothing else there changes)
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { withToolTable } from '../src/core/tools/toolDocs';
import { languageModelToolContributions } from '../src/lmTools/lmToolDefinitions';
import { INLINE_OUTPUT_CHARS } from '../src/mcp/toolReply';

const tools = languageModelToolContributions();
if (process.argv.includes('--write')) {
  const file = path.join(__dirname, '..', 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { contributes: Record<string, unknown> };
  manifest.contributes['languageModelTools'] = tools;
  writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
  console.log(`Wrote ${tools.length} language model tools into package.json.`);
  const docs = path.join(__dirname, '..', 'docs', 'TOOLS.md');
  const table = withToolTable(readFileSync(docs, 'utf8'), INLINE_OUTPUT_CHARS);
  if (table === undefined) throw new Error('docs/TOOLS.md has lost its tools:begin/tools:end markers.');
  writeFileSync(docs, table);
  console.log('Wrote the tool table into docs/TOOLS.md.');
} else {
  console.log(JSON.stringify(tools, null, 2));
}
