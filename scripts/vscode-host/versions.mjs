// The VS Code builds the integration tests run on: the oldest we support and the newest code-server offers here.
// code-server (VS Code OSS with its server) is the only VS Code that installs without network but the npm registry.
export const VSCODE_BUILDS = [
  { vscode: '1.100.3', codeServer: '4.100.3', node: undefined },
  { vscode: '1.139.1', codeServer: '4.139.1', node: '24' },
];

/** @typedef {(typeof VSCODE_BUILDS)[number]} VsCodeBuild One VS Code build: its version, code-server's, and the Node major it needs. */

export const RIPGREP_PREBUILT = '@vscode/ripgrep-linux-x64@1.18.0';
