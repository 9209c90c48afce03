/**
 * The SQLite the search index runs on: Node's own `node:sqlite` where the runtime has it (Node 22.13 and later: the
 * extension host of recent VS Code, an agent's newer Node), else `libsql` (prebuilt N-API binaries, one per platform,
 * which load on Node 20 too). Both are SQLite with its own file locking and WAL, so processes on either share one
 * index file. Neither: no index (search then scans, and says so).
 */
/** A value bound to a statement or read from a row. */
export type SqlValue = number | string | null;
export type Row = Record<string, SqlValue>;

export interface Statement {
  run(...params: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: SqlValue[]): Row | undefined;
  all(...params: SqlValue[]): Row[];
}

export interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}

export interface Driver {
  readonly name: 'node:sqlite' | 'libsql';
  readonly open: (file: string) => Database;
}

interface NodeSqlite {
  DatabaseSync: new (file: string) => Database;
}
type Libsql = new (file: string) => Database;

/** The driver to use, or why there is none. `prefer` forces one (the tests of each). */
export function loadDriver(prefer?: Driver['name']): Driver | { readonly error: string } {
  const errors: string[] = [];
  if (prefer !== 'libsql') {
    const nodeSqlite = builtinSqlite();
    if (nodeSqlite !== undefined) return { name: 'node:sqlite', open: (file) => new nodeSqlite.DatabaseSync(file) };
    errors.push('node:sqlite is not in this Node.js (it needs 22.13 or later)');
    if (prefer === 'node:sqlite') return { error: errors.join('; ') };
  }
  try {
    const Libsql = requireLibsql();
    return { name: 'libsql', open: (file) => new Libsql(file) };
  } catch (error) {
    errors.push(
      `libsql could not be loaded (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  }
  return { error: errors.join('; ') };
}

function builtinSqlite(): NodeSqlite | undefined {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  try {
    return getBuiltin?.('node:sqlite') as NodeSqlite | undefined;
  } catch {
    return undefined;
  }
}

/**
 * libsql as the extension ships it: its JavaScript bundled, its native part `native/libsql-<target>.node` beside
 * the bundle (esbuild.js rewrites where the bundle looks for it and copies it there); from source, the npm package.
 */
function requireLibsql(): Libsql {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('libsql') as Libsql;
}
