/**
 * Another process writing the session store, as a second VS Code window or an MCP server does: started by the
 * integration tests with the store folder, it takes one JSON command a line on stdin and prints one JSON line
 * when each is done. It holds its session's lease until told to exit.
 */
import { createInterface } from 'node:readline';
import { Store, type SessionWriter } from '../../../src/core/store';

type StoreCommand =
  | { readonly op: 'create'; readonly name: string }
  | { readonly op: 'open'; readonly session: string }
  | { readonly op: 'ref'; readonly id: string; readonly text: string }
  | { readonly op: 'fd'; readonly text: string }
  | { readonly op: 'exit' };

async function main(root: string): Promise<void> {
  const store = await Store.open(root, { durability: 'process' });
  let writer: SessionWriter | undefined;
  const reply = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);
  reply({ ready: process.pid });
  for await (const line of createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as StoreCommand;
    const createdAt = new Date().toISOString();
    switch (command.op) {
      case 'create':
        writer = await store.create({ name: command.name, origin: { kind: 'chat' } });
        reply({ session: writer.id });
        break;
      case 'open':
        writer = await store.openWriter(command.session);
        reply({ session: writer.id });
        break;
      case 'ref': {
        if (!writer) throw new Error('create a session first');
        const content = await writer.putContent(command.text);
        reply({ version: await writer.addRefVersion({ id: command.id, createdAt }, content) });
        break;
      }
      case 'fd': {
        if (!writer) throw new Error('create a session first');
        const content = await writer.putContent(command.text);
        reply({
          fd: await writer.addDescriptor({ source: 'tool_output', toolName: 'run_command', createdAt }, content),
        });
        break;
      }
      case 'exit':
        await writer?.close();
        await store.close();
        reply({ exited: true });
        process.exit(0);
    }
  }
}

main(process.argv[2] ?? '').catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exit(1);
});
