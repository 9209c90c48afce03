// The README for the VSIX: README.md without its images, which live in docs/ and are not packaged
// (vsce refuses relative image links without a public repository to point them at).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const text = readFileSync('README.md', 'utf8')
  .split('\n')
  .filter((line) => !/^!\[[^\]]*\]\(docs\//.test(line))
  .join('\n');
mkdirSync('out/package', { recursive: true });
writeFileSync('out/package/README.md', text);
