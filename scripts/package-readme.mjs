// The README for the VSIX: README.md without its images, which live in docs/ and are not packaged, and with
// links to files of the repository written as their text (vsce refuses relative links and images without a
// public repository to point them at).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const text = readFileSync('README.md', 'utf8')
  .split('\n')
  .filter((line) => !/^!\[[^\]]*\]\(docs\//.test(line))
  .join('\n')
  .replace(/(?<!!)\[([^\]]+)\]\((?![a-z][a-z0-9+.-]*:|#)[^)]*\)/gi, '$1');
mkdirSync('out/package', { recursive: true });
writeFileSync('out/package/README.md', text);
