/**
 * Apply Ref to Symbol, decided without VS Code: the symbols a ref defines (as its language's document symbol
 * provider reports them) matched by name and kind against the symbols of a target document, and the plan of which
 * target ranges get which text, re-indented to the target symbol's indentation.
 */
import { reindentForInsert } from './reindent';

/** A zero-based position, as VS Code counts lines and UTF-16 characters. */
export interface SymbolPosition {
  readonly line: number;
  readonly character: number;
}

export interface SymbolRange {
  readonly start: SymbolPosition;
  readonly end: SymbolPosition;
}

/** A document symbol: `kind` is the name of VS Code's `SymbolKind` member (`'Function'`, `'Method'`, ...). */
export interface SymbolNode {
  readonly name: string;
  readonly kind: string;
  readonly range: SymbolRange;
  readonly children: readonly SymbolNode[];
}

/** One replacement: the target's `range` becomes `text`. */
export interface SymbolReplacement {
  readonly name: string;
  readonly kind: string;
  /** The names of the symbols the target symbol is nested in, outermost first (`['Greeter']` for a method). */
  readonly container: readonly string[];
  readonly range: SymbolRange;
  readonly text: string;
}

/** A symbol of the ref that replaces nothing, and why. */
export interface UnmatchedSymbol {
  readonly name: string;
  readonly kind: string;
  readonly reason: 'missing' | 'ambiguous' | 'overlapping';
  /** For `ambiguous`: where the candidates are (`Greeter.parse`, `Parser.parse`). */
  readonly candidates?: readonly string[];
}

export interface SymbolReplacementPlan {
  /** In the target's order, none overlapping another. */
  readonly replacements: readonly SymbolReplacement[];
  readonly unmatched: readonly UnmatchedSymbol[];
}

/**
 * Kinds that stand for one another: a function in a ref redefines a method in the target (Python's `def` is a
 * function on its own and a method in a class), a JSON property's kind follows its value's type, and a class may
 * become an interface. Any other kind matches only itself.
 */
const KIND_FAMILIES: readonly (readonly string[])[] = [
  ['Function', 'Method', 'Constructor'],
  ['Class', 'Interface', 'Struct', 'Enum'],
  [
    'Variable',
    'Constant',
    'Property',
    'Field',
    'String',
    'Number',
    'Boolean',
    'Array',
    'Object',
    'Key',
    'Null',
    'Module',
    'Namespace',
    'Package',
    'EnumMember',
  ],
];

/** Whether a ref's symbol of kind `a` may replace a target's symbol of kind `b`. */
export function kindsMatch(a: string, b: string): boolean {
  return a === b || KIND_FAMILIES.some((family) => family.includes(a) && family.includes(b));
}

/**
 * The plan for replacing, in the target, each top-level symbol of the ref by the symbol of the same name and kind
 * (`kindsMatch`). A target symbol is looked for at its top level first, then at any depth (a method in a class);
 * two candidates at the same nearest depth are ambiguous and replace nothing. The text put in is the ref's symbol
 * (from the start of its first line when only indentation precedes it, to the end of its range), its shared
 * indentation taken off and the target line's indentation given to every line after the first, with the
 * target's line ends (`eol`). Pure: the symbol trees and texts in, the plan out.
 */
export function planSymbolReplacement(
  ref: { readonly text: string; readonly symbols: readonly SymbolNode[] },
  target: { readonly text: string; readonly symbols: readonly SymbolNode[]; readonly eol: '\n' | '\r\n' },
): SymbolReplacementPlan {
  const refLines = splitLines(ref.text);
  const targetLines = splitLines(target.text);
  const chosen: SymbolReplacement[] = [];
  const unmatched: UnmatchedSymbol[] = [];
  for (const symbol of ref.symbols) {
    const found = findTarget(symbol, target.symbols);
    if (found.kind === 'missing') {
      unmatched.push({ name: symbol.name, kind: symbol.kind, reason: 'missing' });
      continue;
    }
    if (found.kind === 'ambiguous') {
      unmatched.push({ name: symbol.name, kind: symbol.kind, reason: 'ambiguous', candidates: found.candidates });
      continue;
    }
    const { node, container } = found.match;
    if (chosen.some((other) => overlaps(other.range, node.range))) {
      unmatched.push({ name: symbol.name, kind: symbol.kind, reason: 'overlapping' });
      continue;
    }
    const before = (targetLines[node.range.start.line] ?? '').slice(0, node.range.start.character);
    const text = reindentForInsert(symbolText(refLines, symbol.range), before);
    chosen.push({
      name: node.name,
      kind: node.kind,
      container,
      range: node.range,
      text: withLineEnds(text, target.eol),
    });
  }
  chosen.sort((a, b) => comparePositions(a.range.start, b.range.start));
  return { replacements: chosen, unmatched };
}

/**
 * A text wrapped so that a language's symbol provider reads members on their own (a method without its class) as
 * members of a class, for the languages where a member alone is not a declaration. `unwrap` turns the symbols of
 * the wrapped text back into the members, with ranges in the unwrapped text. Undefined for other languages.
 */
export function wrapAsClassMembers(
  languageId: string,
  text: string,
): { readonly text: string; readonly unwrap: (symbols: readonly SymbolNode[]) => SymbolNode[] } | undefined {
  const wrapper = MEMBER_WRAPPERS[languageId];
  if (!wrapper) return undefined;
  const lines = splitLines(text);
  const wrapped = [
    wrapper.open,
    ...lines.map((line) => (line.trim() === '' ? line : wrapper.indent + line)),
    wrapper.close,
  ]
    .filter((line) => line !== undefined)
    .join('\n');
  const shift = (position: SymbolPosition): SymbolPosition => ({
    line: position.line - 1,
    character: Math.max(0, position.character - wrapper.indent.length),
  });
  const unwrapNode = (node: SymbolNode): SymbolNode => ({
    ...node,
    range: { start: shift(node.range.start), end: shift(node.range.end) },
    children: node.children.map(unwrapNode),
  });
  return {
    text: wrapped,
    unwrap: (symbols) => symbols.filter((s) => s.name === WRAPPER_CLASS).flatMap((s) => s.children.map(unwrapNode)),
  };
}

const WRAPPER_CLASS = 'FdrefRefMembers';

const BRACES = { open: `class ${WRAPPER_CLASS} {`, close: '}', indent: '' };
const MEMBER_WRAPPERS: Readonly<Record<string, { open: string; close?: string; indent: string }>> = {
  typescript: BRACES,
  typescriptreact: BRACES,
  javascript: BRACES,
  javascriptreact: BRACES,
  python: { open: `class ${WRAPPER_CLASS}:`, indent: '    ' },
};

type Found =
  | { readonly kind: 'match'; readonly match: { readonly node: SymbolNode; readonly container: readonly string[] } }
  | { readonly kind: 'missing' }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly string[] };

/** The target symbol `symbol` redefines: breadth first, so the shallowest matches win. */
function findTarget(symbol: SymbolNode, roots: readonly SymbolNode[]): Found {
  let level = roots.map((node) => ({ node, container: [] as readonly string[] }));
  while (level.length > 0) {
    const matches = level.filter(({ node }) => node.name === symbol.name && kindsMatch(symbol.kind, node.kind));
    const [first, second] = matches;
    if (first && !second) return { kind: 'match', match: first };
    if (first)
      return {
        kind: 'ambiguous',
        candidates: matches.map(({ node, container }) => [...container, node.name].join('.')),
      };
    level = level.flatMap(({ node, container }) =>
      node.children.map((child) => ({ node: child, container: [...container, node.name] })),
    );
  }
  return { kind: 'missing' };
}

/** The ref's text of `range`; from the start of its first line when only indentation precedes it there. */
function symbolText(lines: readonly string[], range: SymbolRange): string {
  const first = lines[range.start.line] ?? '';
  const lead = first.slice(0, range.start.character);
  const startCharacter = lead.trim() === '' ? 0 : range.start.character;
  if (range.start.line === range.end.line) return first.slice(startCharacter, range.end.character);
  const middle = lines.slice(range.start.line + 1, range.end.line);
  const last = (lines[range.end.line] ?? '').slice(0, range.end.character);
  return [first.slice(startCharacter), ...middle, last].join('\n');
}

function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

function withLineEnds(text: string, eol: '\n' | '\r\n'): string {
  return text.replace(/\r?\n/g, eol);
}

function comparePositions(a: SymbolPosition, b: SymbolPosition): number {
  return a.line - b.line || a.character - b.character;
}

function overlaps(a: SymbolRange, b: SymbolRange): boolean {
  return comparePositions(a.start, b.end) < 0 && comparePositions(b.start, a.end) < 0;
}
