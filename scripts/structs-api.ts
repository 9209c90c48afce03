// Serves the Structs API emulator (test/support/structsApi) for trying entity references by hand:
//   npm run structs-api -- [--port 1317] [--players 640] [--latency 0]
import { StructsApiEmulator } from '../test/support/structsApi';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} needs a whole number`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  const api = await StructsApiEmulator.start({
    port: option('port', 1317),
    players: option('players', 640),
    latencyMs: option('latency', 0),
  });
  console.log(`Structs API emulator on ${api.baseUrl}`);
  for (const kind of ['player', 'planet', 'guild', 'fleet', 'struct'] as const) {
    const ids = api.idsOf(kind);
    console.log(
      `  ${kind.padEnd(7)} ${ids.slice(0, 3).join(', ')} ... (${ids.length})   ${api.baseUrl}/structs/${kind}/${ids[0] ?? ''}`,
    );
  }
  console.log(`  list:   ${api.baseUrl}/structs/player?pagination.limit=5`);
  console.log('Ctrl+C stops it.');
  const stop = (): void => {
    void api.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
