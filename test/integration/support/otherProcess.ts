import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';

/** Another process on the session store (`storeProcess.ts`): each command resolves to its reply line. */
export interface OtherProcess {
  readonly pid: number;
  send(command: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Gives up its session and exits. */
  exit(): Promise<void>;
}

/** Starts `storeProcess.js` (bundled beside the tests) with plain Node on the store in `root`. */
export async function startOtherProcess(root: string): Promise<OtherProcess> {
  const script = path.join(__dirname, 'support', 'storeProcess.js');
  // The extension host's executable is Node (code-server) or Electron told to act as Node.
  const child = spawn(process.execPath, [script, root], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const waiting: ((line: Record<string, unknown>) => void)[] = [];
  const failed = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the store process exited with ${code}: ${stderr}`))),
  );
  failed.catch(() => undefined);
  createInterface({ input: child.stdout }).on('line', (line) =>
    waiting.shift()?.(JSON.parse(line) as Record<string, unknown>),
  );
  const next = (): Promise<Record<string, unknown>> =>
    Promise.race([new Promise<Record<string, unknown>>((resolve) => waiting.push(resolve)), failed]);
  await next(); // ready
  return {
    pid: child.pid ?? 0,
    send: (command) => {
      const reply = next();
      child.stdin.write(`${JSON.stringify(command)}\n`);
      return reply;
    },
    exit: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end(`${JSON.stringify({ op: 'exit' })}\n`);
      await exited;
    },
  };
}
