import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { LM_TOOL_SETTINGS, MAX_RESULT_CHARS, MCP_SETTINGS } from '../../../src/core/settings/lmToolSettings';
import { toolDefinition, toolRecord, TOOLS, toolsOn } from '../../../src/core/tools/toolTable';
import { withToolTable } from '../../../src/core/tools/toolDocs';
import { writesOutside } from '../../../src/core/tools/toolRecord';
import { INLINE_OUTPUT_CHARS } from '../../../src/mcp/toolReply';
import {
  languageModelToolContributions,
  SESSION_ARGUMENT_DESCRIPTION,
  STORE_TEXT_INLINE_CHARS,
} from '../../../src/lmTools/lmToolDefinitions';
import { CHARS_PER_TOKEN, pageSizeFor, resultCharLimit } from '../../../src/lmTools/lmToolRunner';

interface Manifest {
  contributes: {
    languageModelTools?: Record<string, unknown>[];
    mcpServerDefinitionProviders?: { id: string; label: string }[];
    configuration: { properties: Record<string, { default?: unknown; minimum?: number; maximum?: number }> };
  };
}

const manifest = JSON.parse(
  readFileSync(path.join(path.resolve(__dirname, '..'), '..', '..', 'package.json'), 'utf8'),
) as Manifest;
const FIX = 'Run `npx tsx scripts/lm-tools-json.ts --write` to regenerate contributes.languageModelTools.';

describe('language model tools in the manifest', () => {
  it('are exactly what the core generates (names, descriptions, schemas), so the static JSON cannot drift', () => {
    const expected = languageModelToolContributions();
    assert.deepEqual(
      manifest.contributes.languageModelTools,
      JSON.parse(JSON.stringify(expected)),
      `package.json differs from the generated tools. ${FIX}\n${JSON.stringify(expected, null, 2)}`,
    );
  });

  it("give each tool the core tool's schema and description, the session argument described for VS Code", () => {
    const offered = toolsOn('copilot');
    const contributed = new Map((manifest.contributes.languageModelTools ?? []).map((t) => [t['name'], t]));
    assert.deepEqual(
      [...contributed.keys()],
      offered.map((t) => `fdref_${t.name}`),
    );
    for (const record of offered) {
      const name = record.name;
      const definition = toolDefinition(record, { sessionArgument: true, inlineChars: STORE_TEXT_INLINE_CHARS });
      const tool = contributed.get(`fdref_${name}`);
      assert.ok(tool, `fdref_${name} is contributed`);
      const schema = structuredClone(definition.inputSchema) as {
        properties: Record<string, { description: string } | undefined>;
      };
      const session = schema.properties['session'];
      assert.equal(session !== undefined, record.sessionArgument, `${name} takes session`);
      if (session !== undefined) session.description = SESSION_ARGUMENT_DESCRIPTION;
      assert.deepEqual(tool['inputSchema'], schema, `${name}'s schema. ${FIX}`);
      assert.ok(String(tool['modelDescription']).includes(definition.description), `${name}'s description`);
    }
  });

  it('docs/TOOLS.md holds the table generated from the tool records', () => {
    const doc = readFileSync(path.join(path.resolve(__dirname, '..'), '..', '..', 'docs', 'TOOLS.md'), 'utf8');
    assert.equal(withToolTable(doc, INLINE_OUTPUT_CHARS), doc, `docs/TOOLS.md's tool table is stale. ${FIX}`);
    for (const record of TOOLS) assert.ok(doc.includes(`| \`${record.name}\` |`), record.name);
  });

  it("describes store_text as the MCP server's store_text (one definition), with the same inline limit", () => {
    const store = languageModelToolContributions().find((t) => t.name === 'fdref_store_text');
    const record = toolRecord('store_text');
    assert.ok(record);
    const mcp = toolDefinition(record, { inlineChars: INLINE_OUTPUT_CHARS }).description;
    assert.ok(store?.modelDescription.includes(mcp));
    assert.equal(STORE_TEXT_INLINE_CHARS, 8000);
  });

  it('can be referenced in prompts by name, are tagged fdref, and fd_to_file is hidden in untrusted workspaces', () => {
    const tools = manifest.contributes.languageModelTools ?? [];
    // `#readFd` for read_fd: the reference name is the tool's name in camel case.
    const camel = (name: unknown) =>
      String(name)
        .replace(/^fdref_/, '')
        .replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
    for (const tool of tools) assert.equal(tool['toolReferenceName'], camel(tool['name']));
    for (const tool of tools) {
      assert.equal(tool['canBeReferencedInPrompt'], true);
      assert.deepEqual(tool['tags'], ['fdref']);
      for (const key of ['displayName', 'userDescription', 'modelDescription', 'icon'])
        assert.ok(typeof tool[key] === 'string' && tool[key] !== '', `${String(tool['name'])} has ${key}`);
      const record = toolRecord(String(tool['name']).replace(/^fdref_/, ''));
      assert.ok(record);
      assert.equal(tool['when'], writesOutside(record) ? 'isWorkspaceTrusted' : undefined);
    }
  });

  it('declares the MCP server provider and both settings with the defaults the code uses', () => {
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [{ id: 'fdref', label: 'FD Refs' }]);
    const properties = manifest.contributes.configuration.properties;
    const maxResult = properties['fdref.tools.maxResultChars'];
    assert.deepEqual(
      { default: maxResult?.default, min: maxResult?.minimum, max: maxResult?.maximum },
      { default: MAX_RESULT_CHARS.default, min: MAX_RESULT_CHARS.min, max: MAX_RESULT_CHARS.max },
    );
    assert.ok(MAX_RESULT_CHARS.max <= 8192, 'under the size Copilot saves to a file');
    assert.equal(LM_TOOL_SETTINGS.defaults.maxResultChars, MAX_RESULT_CHARS.default);
    assert.equal(properties['fdref.mcp.registerWithVSCode']?.default, false);
    assert.equal(MCP_SETTINGS.defaults.registerWithVSCode, false);
    assert.match(
      LM_TOOL_SETTINGS.validate({ maxResultChars: 9000 }).problems[0] ?? '',
      /fdref\.tools\.maxResultChars must be a whole number from 1000 to 8192 \(got 9000\); using 8000/,
    );
  });
});

describe('language model tool result limits', () => {
  it('lower the setting by the token budget, never below the floor', () => {
    assert.equal(resultCharLimit({ maxChars: 8000 }, 1000), 8000);
    assert.equal(resultCharLimit({ maxChars: 8000, tokenBudget: 100_000 }, 1000), 8000);
    assert.equal(resultCharLimit({ maxChars: 8000, tokenBudget: 1500 }, 1000), 1500 * CHARS_PER_TOKEN);
    assert.equal(resultCharLimit({ maxChars: 8000, tokenBudget: 10 }, 1000), 1000);
    assert.equal(resultCharLimit({ maxChars: 8000, tokenBudget: Number.NaN }, 1000), 8000);
  });

  it("keep the core's 4,000-character pages when they fit, and smaller pages leave room for the reply", () => {
    assert.equal(pageSizeFor(8000), 4000);
    assert.equal(pageSizeFor(8192), 4000);
    for (const limit of [1000, 1500, 2000, 3000, 5000]) {
      const page = pageSizeFor(limit);
      assert.ok(page <= limit / 2 + 1500 && page <= limit - 500, `${limit}: page ${page}`);
      assert.ok(page >= 200);
    }
  });
});
