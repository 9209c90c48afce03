import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  kindsMatch,
  planSymbolReplacement,
  wrapAsClassMembers,
  type SymbolNode,
} from '../../../../src/core/refs/symbolReplacement';

function node(
  name: string,
  kind: string,
  [sl, sc, el, ec]: [number, number, number, number],
  children: SymbolNode[] = [],
): SymbolNode {
  return { name, kind, range: { start: { line: sl, character: sc }, end: { line: el, character: ec } }, children };
}

/** Applies a plan to the target text the way a WorkspaceEdit would. */
function applied(text: string, plan: ReturnType<typeof planSymbolReplacement>): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((sum, l) => sum + l.length + 1, 0) + p.character;
  let out = text;
  for (const r of [...plan.replacements].reverse())
    out = out.slice(0, offset(r.range.start)) + r.text + out.slice(offset(r.range.end));
  return out;
}

describe('Apply Ref to Symbol: the replacement plan', () => {
  const target = [
    'export function greet(name: string): string {',
    '  return name;',
    '}',
    'class Greeter {',
    '  hello(): string {',
    "    return 'hi';",
    '  }',
    '}',
    '',
  ].join('\n');
  const targetSymbols = [
    node('greet', 'Function', [0, 0, 2, 1]),
    node('Greeter', 'Class', [3, 0, 7, 1], [node('hello', 'Method', [4, 2, 6, 3])]),
  ];

  it('replaces a top-level function by the one of the same name', () => {
    const ref = 'export function greet(name: string): string {\n  return `Hello, ${name}`;\n}';
    const plan = planSymbolReplacement(
      { text: ref, symbols: [node('greet', 'Function', [0, 0, 2, 1])] },
      { text: target, symbols: targetSymbols, eol: '\n' },
    );
    assert.deepEqual(plan.unmatched, []);
    assert.equal(applied(target, plan), target.replace('  return name;', '  return `Hello, ${name}`;'));
  });

  it("replaces a method nested in a class with the method's indentation", () => {
    const ref = "hello(): string {\n  return 'hello';\n}";
    const plan = planSymbolReplacement(
      { text: ref, symbols: [node('hello', 'Method', [0, 0, 2, 1])] },
      { text: target, symbols: targetSymbols, eol: '\n' },
    );
    assert.deepEqual(plan.replacements[0]?.container, ['Greeter']);
    assert.equal(applied(target, plan), target.replace("    return 'hi';", "    return 'hello';"));
  });

  it('replaces each of several symbols of a ref, in the target order, and names what it did not find', () => {
    const ref = "class Greeter {\n  hello(): string {\n    return '';\n  }\n}\nfunction greet() {}\nfunction gone() {}";
    const plan = planSymbolReplacement(
      {
        text: ref,
        symbols: [
          node('Greeter', 'Class', [0, 0, 4, 1]),
          node('greet', 'Function', [5, 0, 5, 19]),
          node('gone', 'Function', [6, 0, 6, 18]),
        ],
      },
      { text: target, symbols: targetSymbols, eol: '\n' },
    );
    assert.deepEqual(
      plan.replacements.map((r) => r.name),
      ['greet', 'Greeter'],
    );
    assert.deepEqual(plan.unmatched, [{ name: 'gone', kind: 'Function', reason: 'missing' }]);
  });

  it('matches by kind family: a JSON property whose value changed type, not a class named like a function', () => {
    assert.equal(kindsMatch('String', 'Number'), true);
    assert.equal(kindsMatch('Function', 'Method'), true);
    assert.equal(kindsMatch('Class', 'Function'), false);
    const plan = planSymbolReplacement(
      { text: 'class greet {}', symbols: [node('greet', 'Class', [0, 0, 0, 14])] },
      { text: target, symbols: targetSymbols, eol: '\n' },
    );
    assert.deepEqual(plan.replacements, []);
    assert.equal(plan.unmatched[0]?.reason, 'missing');
  });

  it('prefers the shallowest match and calls two at the same depth ambiguous', () => {
    const symbols = [
      node('A', 'Class', [0, 0, 2, 1], [node('run', 'Method', [1, 2, 1, 10])]),
      node('B', 'Class', [3, 0, 5, 1], [node('run', 'Method', [4, 2, 4, 10])]),
    ];
    const text = 'class A {\n  run() {}\n}\nclass B {\n  run() {}\n}';
    const plan = planSymbolReplacement(
      { text: 'run() { go(); }', symbols: [node('run', 'Method', [0, 0, 0, 15])] },
      { text, symbols, eol: '\n' },
    );
    assert.deepEqual(plan.unmatched, [
      { name: 'run', kind: 'Method', reason: 'ambiguous', candidates: ['A.run', 'B.run'] },
    ]);
  });

  it('does not replace a range twice when two symbols of the ref land on overlapping ones', () => {
    const ref = 'class Greeter {}\nfunction hello() {}';
    const plan = planSymbolReplacement(
      {
        text: ref,
        symbols: [node('Greeter', 'Class', [0, 0, 0, 16]), node('hello', 'Function', [1, 0, 1, 19])],
      },
      { text: target, symbols: targetSymbols, eol: '\n' },
    );
    assert.deepEqual(
      plan.replacements.map((r) => r.name),
      ['Greeter'],
    );
    assert.equal(plan.unmatched[0]?.reason, 'overlapping');
  });

  it("writes the target's CRLF line ends and keeps a Python method's indentation under a tab-free class", () => {
    const py = 'class A:\r\n    def parse(self):\r\n        return 1\r\n';
    const plan = planSymbolReplacement(
      {
        text: 'def parse(self):\n    return 2\n',
        symbols: [node('parse', 'Function', [0, 0, 1, 12])],
      },
      {
        text: py.replace(/\r\n/g, '\n'),
        symbols: [node('A', 'Class', [0, 0, 2, 16], [node('parse', 'Method', [1, 4, 2, 16])])],
        eol: '\r\n',
      },
    );
    assert.equal(plan.replacements[0]?.text, 'def parse(self):\r\n        return 2');
  });

  it('gives every line after the first the target indentation, whatever the ref indentation (property)', () => {
    const body = fc.array(fc.stringMatching(/^[a-z();]{1,10}$/), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(body, fc.stringMatching(/^ {0,6}$/), fc.stringMatching(/^ {0,6}$/), (lines, refIndent, at) => {
        const refText = [`${refIndent}f() {`, ...lines.map((l) => `${refIndent}  ${l}`), `${refIndent}}`].join('\n');
        const targetText = `${at}f() {\n${at}}`;
        const plan = planSymbolReplacement(
          {
            text: refText,
            symbols: [node('f', 'Method', [0, refIndent.length, lines.length + 1, refIndent.length + 1])],
          },
          { text: targetText, symbols: [node('f', 'Method', [0, at.length, 1, at.length + 1])], eol: '\n' },
        );
        assert.equal(
          applied(targetText, plan),
          [`${at}f() {`, ...lines.map((l) => `${at}  ${l}`), `${at}}`].join('\n'),
        );
      }),
    );
  });

  it('reads members alone as members of a wrapping class, with ranges in the unwrapped text', () => {
    const wrapped = wrapAsClassMembers('python', 'def parse(self):\n    return 2');
    assert.ok(wrapped);
    assert.equal(wrapped.text, 'class FdrefRefMembers:\n    def parse(self):\n        return 2');
    const members = wrapped.unwrap([
      node('FdrefRefMembers', 'Class', [0, 0, 2, 16], [node('parse', 'Method', [1, 4, 2, 16])]),
    ]);
    assert.deepEqual(members, [node('parse', 'Method', [0, 0, 1, 12])]);
    assert.equal(wrapAsClassMembers('json', '{}'), undefined);
  });
});
