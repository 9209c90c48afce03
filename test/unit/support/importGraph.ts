/**
 * The import graph of src/, read the way TypeScript reads it (`ts.preProcessFile`): static imports and re-exports,
 * `import type` included (a type import is still a coupling: the two files change together), `import()` and
 * `require()`. Only relative specifiers are followed; packages are not files of ours.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

export const root = path.resolve(__dirname, '../../..');
export const srcRoot = path.join(root, 'src');

/** Every .ts file under `folder`, recursively. */
export function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The .ts files `file` imports, in the order it names them (relative specifiers only). */
export function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const found: string[] = [];
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('./') && !fileName.startsWith('../')) continue;
    const base = path.resolve(path.dirname(file), fileName);
    const candidates = [base, `${base}.ts`, path.join(base, 'index.ts')];
    const target = candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
    if (target) found.push(target);
  }
  return found;
}

/**
 * The strongly connected components of more than one node (Tarjan's algorithm): each one is a set of nodes that
 * all reach each other, so a cycle. Each component is sorted, and the list is sorted by its first member.
 */
export function cycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * The graph of src/ with each file mapped to a node by `nodeOf` (the file itself, or its folder): an edge for
 * every import between two different nodes.
 */
export function importGraph(nodeOf: (file: string) => string = (file) => file): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of filesUnder(srcRoot)) {
    const from = nodeOf(file);
    if (!edges.has(from)) edges.set(from, new Set());
    for (const target of importsOf(file)) {
      const to = nodeOf(target);
      if (to !== from) edges.get(from)!.add(to);
    }
  }
  return edges;
}

/** A file's path from the repository root, with forward slashes, as a failure message names it. */
export function fromRoot(file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}
