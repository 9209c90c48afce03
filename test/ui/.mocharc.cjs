// The UI test's mocha configuration, apart from the unit tests' (.mocharc.json at the root): the area files in the
// order `npm run test:ui` runs them (each also runs alone), the root hooks that start VS Code once, and
// FDREF_UI_GREP as mocha's grep (`FDREF_UI_GREP=chat` runs the areas and tests whose titles match).
// Run by scripts/vscode-host/ui-test.mjs once per VS Code build; `npx mocha --config test/ui/.mocharc.cjs` runs it on
// FDREF_UI_VSCODE (default the newest).
const grep = process.env.FDREF_UI_GREP;

module.exports = {
  require: ['test/ui/hooks.mjs'],
  spec: [
    'test/ui/areas/workbench.test.mjs',
    'test/ui/areas/refs.test.mjs',
    'test/ui/areas/tree.test.mjs',
    'test/ui/areas/hover.test.mjs',
    'test/ui/areas/inputChecks.test.mjs',
    'test/ui/areas/chat.test.mjs',
    'test/ui/areas/chatPlacement.test.mjs',
    'test/ui/areas/browseAsFiles.test.mjs',
    'test/ui/areas/participant.test.mjs',
    'test/ui/areas/firstContact.test.mjs',
    'test/ui/areas/chatCommands.test.mjs',
    'test/ui/areas/terminal.test.mjs',
    'test/ui/areas/demo.test.mjs',
  ],
  reporter: 'spec',
  // A test is several steps of a person, each waiting up to STEP_TIMEOUT; a window loading again takes longer.
  timeout: 240_000,
  // The servers are stopped in the root afterAll; nothing else should keep the process, but a browser that hangs must not.
  exit: true,
  ...(grep ? { grep } : {}),
};
