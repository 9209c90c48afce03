import assert from 'node:assert/strict';
import {
  entityFailureMarkdown,
  entityHoverMarkdown,
  entityNotFoundMarkdown,
} from '../../../../src/core/presentation/entityHover';
import { escapeMarkdown } from '../../../../src/core/presentation/markdown';

const links = { open: 'command:open', refresh: 'command:refresh', settings: 'command:settings' };

describe('entity hover text', () => {
  it('names the type and id, tables the key fields, lists the references and links to open and refresh', () => {
    const text = entityHoverMarkdown(
      {
        reference_type: 'planet',
        id: '2-1',
        reference_status: 'resolved',
        owner: '1-11',
        maxOre: '5',
        space: [],
        gridAttributes: { load: '0' },
      },
      [{ id: '1-11', type: 'player', field: 'owner' }],
      links,
    );
    assert.match(text, /^\*\*Planet 2\\-1\*\*/);
    assert.match(text, /\| owner \| 1\\-11 \|/);
    assert.match(text, /\| maxOre \| 5 \|/);
    assert.doesNotMatch(text, /gridAttributes|space|reference_status|resolved/);
    assert.match(text, /References: `1-11` player \(owner\)/);
    assert.match(text, /\[Open as JSON\]\(command:open\) · \[Refresh\]\(command:refresh\)/);
  });

  it("shows the entity's own status (a planet's active or complete, a fleet's onStation or away)", () => {
    const planet = entityHoverMarkdown(
      { reference_type: 'planet', id: '2-1', reference_status: 'resolved', owner: '1-11', status: 'complete' },
      [],
      links,
    );
    assert.match(planet, /\| status \| complete \|/);
    const fleet = entityHoverMarkdown(
      { reference_type: 'fleet', id: '9-1', reference_status: 'resolved', status: 'away' },
      [],
      links,
    );
    assert.match(fleet, /\| status \| away \|/);
  });

  it('titles an entity whose type or id is not text by what is known, never "[object Object]"', () => {
    const text = entityHoverMarkdown(
      { reference_type: { x: 1 }, id: ['2-1'], reference_status: 'resolved' },
      [],
      links,
    );
    assert.match(text, /^\*\*Entity \*\*/);
    assert.doesNotMatch(text, /object Object/);
  });

  it('escapes whatever the API sends, so it cannot make links, HTML or table cells', () => {
    const text = entityHoverMarkdown(
      { reference_type: 'player', id: '1-1', name: '[click](command:evil) <img src=x> | cell\nline' },
      [],
      links,
    );
    assert.ok(!text.includes('[click](command:evil)'));
    assert.ok(!/(^|[^\\])<img/.test(text), 'no unescaped HTML');
    assert.match(text, /\\\[click\\\]\\\(command:evil\\\) \\<img src=x\\> \\\| cell line/);
  });

  it('shows empty strings as none and cuts long tables and values', () => {
    const many = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`f${i}`, i === 0 ? '' : 'x'.repeat(100)]));
    const text = entityHoverMarkdown({ reference_type: 'struct', id: '5-1', ...many }, [], links);
    assert.match(text, /\| f0 \| \*none\* \|/);
    assert.match(text, /\| … \| 4 more \|/);
    assert.match(text, /x{79}…/);
  });

  it('says what failed, from which URL, with links to retry and to the setting', () => {
    const text = entityFailureMarkdown('planet', '2-1', 'connection refused', 'http://localhost:1317', links);
    assert.match(text, /\*\*Planet 2\\-1\*\* could not be loaded from the Structs API at `http:\/\/localhost:1317`:/);
    assert.match(text, /connection refused/);
    assert.match(text, /\[Retry\]\(command:refresh\) · \[Change the API URL\]\(command:settings\)/);
  });

  it('says plainly that an entity does not exist on the node, not that the node failed', () => {
    const text = entityNotFoundMarkdown('planet', '2-99', 'http://localhost:1317', links);
    assert.match(text, /^\*\*Planet 2\\-99\*\* does not exist on the Structs node at `http:\/\/localhost:1317`\./);
    assert.doesNotMatch(text, /HTTP \d|500|could not be loaded|[Ee]rror/);
    assert.match(text, /\[Check again\]\(command:refresh\) · \[Change the API URL\]\(command:settings\)/);
  });

  it('escapes Markdown punctuation and folds every kind of line break', () => {
    assert.equal(escapeMarkdown('a*b_c\nd'), 'a\\*b\\_c d');
    assert.equal(escapeMarkdown('x\r===\r\ny\u2028z'), 'x === y z');
  });
});
