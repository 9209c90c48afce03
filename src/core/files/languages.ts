/** What a fence language (`py`, `python`, `ts`, ...) means for a file: its extension and VS Code's language id. */
export interface LanguageInfo {
  /** Without the dot; never contains one. */
  readonly extension: string;
  /** VS Code's language identifier, when the fence names a known language. */
  readonly languageId?: string;
}

const PLAIN_TEXT: LanguageInfo = { extension: 'txt', languageId: 'plaintext' };

// Fence name -> [extension, VS Code language id]. Aliases share an entry. Read through `LANGUAGE_BY_FENCE`
// only: a lookup in the object itself would find `constructor`, `toString` or `__proto__` on its prototype.
const LANGUAGES: Readonly<Record<string, readonly [string, string]>> = {
  typescript: ['ts', 'typescript'],
  ts: ['ts', 'typescript'],
  tsx: ['tsx', 'typescriptreact'],
  javascript: ['js', 'javascript'],
  js: ['js', 'javascript'],
  jsx: ['jsx', 'javascriptreact'],
  mjs: ['mjs', 'javascript'],
  cjs: ['cjs', 'javascript'],
  python: ['py', 'python'],
  py: ['py', 'python'],
  json: ['json', 'json'],
  jsonc: ['jsonc', 'jsonc'],
  markdown: ['md', 'markdown'],
  md: ['md', 'markdown'],
  bash: ['sh', 'shellscript'],
  sh: ['sh', 'shellscript'],
  shell: ['sh', 'shellscript'],
  zsh: ['sh', 'shellscript'],
  console: ['sh', 'shellscript'],
  powershell: ['ps1', 'powershell'],
  ps1: ['ps1', 'powershell'],
  bat: ['bat', 'bat'],
  yaml: ['yaml', 'yaml'],
  yml: ['yaml', 'yaml'],
  toml: ['toml', 'toml'],
  ini: ['ini', 'ini'],
  xml: ['xml', 'xml'],
  html: ['html', 'html'],
  css: ['css', 'css'],
  scss: ['scss', 'scss'],
  less: ['less', 'less'],
  sql: ['sql', 'sql'],
  rust: ['rs', 'rust'],
  rs: ['rs', 'rust'],
  go: ['go', 'go'],
  golang: ['go', 'go'],
  java: ['java', 'java'],
  kotlin: ['kt', 'kotlin'],
  kt: ['kt', 'kotlin'],
  swift: ['swift', 'swift'],
  c: ['c', 'c'],
  h: ['h', 'c'],
  cpp: ['cpp', 'cpp'],
  'c++': ['cpp', 'cpp'],
  cs: ['cs', 'csharp'],
  csharp: ['cs', 'csharp'],
  ruby: ['rb', 'ruby'],
  rb: ['rb', 'ruby'],
  php: ['php', 'php'],
  lua: ['lua', 'lua'],
  r: ['r', 'r'],
  perl: ['pl', 'perl'],
  dockerfile: ['dockerfile', 'dockerfile'],
  docker: ['dockerfile', 'dockerfile'],
  makefile: ['mk', 'makefile'],
  make: ['mk', 'makefile'],
  diff: ['diff', 'diff'],
  patch: ['diff', 'diff'],
  text: ['txt', 'plaintext'],
  txt: ['txt', 'plaintext'],
  plaintext: ['txt', 'plaintext'],
};

const LANGUAGE_BY_FENCE: ReadonlyMap<string, readonly [string, string]> = new Map(Object.entries(LANGUAGES));

/**
 * The extension and language id for a ref's fence language (case-insensitive); unknown or missing
 * languages give `txt` and no language id beyond plain text.
 */
export function languageInfo(language: string | undefined): LanguageInfo {
  if (language === undefined) return PLAIN_TEXT;
  const entry = LANGUAGE_BY_FENCE.get(language.trim().toLowerCase());
  if (entry === undefined) return { extension: 'txt' };
  return { extension: entry[0], languageId: entry[1] };
}
