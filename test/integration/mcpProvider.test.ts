import * as assert from 'node:assert/strict';
import { toolsOn } from '../../src/core/tools/toolTable';
import * as vscode from 'vscode';
import { eventually, fdref, uniqueId } from './support/fdref';
import { setSetting } from './support/settings';

/** The MCP server's tools as VS Code's MCP client lists them (`mcp_<provider>_<tool>`). */
function serverTools(): readonly vscode.LanguageModelToolInformation[] {
  return vscode.lm.tools.filter((t) => /^mcp_fdref_/.test(t.name));
}

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content
    .filter((part): part is vscode.LanguageModelTextPart => part instanceof vscode.LanguageModelTextPart)
    .map((part) => part.value)
    .join('');
}

describe("VS Code's MCP client (lm.registerMcpServerDefinitionProvider; skipped before VS Code 1.101)", function () {
  this.timeout(120_000);

  before(async function () {
    const api = await fdref();
    // 1.100 has no stable `lm.registerMcpServerDefinitionProvider`: fdref does not offer the server there.
    if (!api.mcpProvider.available) this.skip();
  });

  afterEach(async () => {
    await setSetting('fdref.mcp.registerWithVSCode', undefined);
  });

  it('offers no server while fdref.mcp.registerWithVSCode is off (Copilot would see every tool twice)', async () => {
    const api = await fdref();
    assert.deepEqual(await api.mcpProvider.definitions(), []);
    assert.deepEqual(
      serverTools().map((t) => t.name),
      [],
    );
  });

  it('lists the server’s tools in lm.tools when the setting is on, runs them against the store, and drops them when off', async () => {
    const api = await fdref();
    await setSetting('fdref.mcp.registerWithVSCode', true);
    const [definition] = (await api.mcpProvider.definitions()) as { label: string; command: string; args: string[] }[];
    assert.equal(definition?.label, 'FD Refs');
    assert.deepEqual(definition.args.slice(1, 3), ['--store', api.registry.storeFolder]);
    assert.ok(definition.args.includes('--workspace'));

    // VS Code starts MCP servers when a chat request needs tools; outside a chat the test starts them itself
    // (`workbench.mcp.startServer`, internal: `'*'` is every server, waiting until their tools are listed).
    const tools = await eventually(
      async () => {
        await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
        const found = serverTools();
        return found.some((t) => t.name.endsWith('store_text')) ? found : undefined;
      },
      'the MCP server’s tools in vscode.lm.tools',
      90_000,
    );
    const names = tools.map((t) => t.name);
    for (const tool of [...toolsOn('mcp').map((t) => t.name), 'list_sessions'])
      assert.ok(
        names.some((n) => n.endsWith(tool)),
        `${tool} in ${names.join(', ')}`,
      );
    const named = (tool: string): string => names.find((n) => n.endsWith(tool)) ?? tool;

    const refId = uniqueId('through_mcp');
    const stored = await invoke(named('store_text'), {
      text: `<ref id="${refId}">\n\`\`\`python\nprint("via VS Code's MCP client")\n\`\`\`\n</ref>`,
    });
    const session = /<store_result session="([^"]+)"/.exec(stored)?.[1];
    assert.ok(session, stored);
    const read = await invoke(named('read_fd'), { fd: `ref:${refId}` });
    assert.match(read, /via VS Code's MCP client/);
    // The extension sees the server's session in the same store.
    const meta = await eventually(() => api.registry.meta(session), 'the server’s session in the registry', 20_000);
    assert.equal(meta.origin.kind, 'mcp');

    await setSetting('fdref.mcp.registerWithVSCode', false);
    await eventually(
      () => (serverTools().length === 0 ? true : undefined),
      'the server’s tools to go when the setting is off',
      30_000,
    );
  });
});
