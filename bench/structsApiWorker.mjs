// Hosts the Structs API emulator (bundled to out/bench/structsApi.js by bench/run.mjs) on its own
// thread, so that the server's work does not share an event loop with the client being measured,
// as with a real node. Messages: 'stats' -> the counters, 'close' -> stops and exits.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const port = parentPort;
if (!port) throw new Error('bench/structsApiWorker.mjs runs on a worker thread that bench/run.mjs starts');
const require = createRequire(import.meta.url);
const { StructsApiEmulator } = require(workerData.bundle);
const api = await StructsApiEmulator.start(workerData.options);
const ids = Object.fromEntries(['player', 'planet', 'struct'].map((kind) => [kind, api.idsOf(kind)]));
port.postMessage({ type: 'ready', baseUrl: api.baseUrl, ids });
port.on('message', async (message) => {
  if (message === 'stats') {
    const { total, maxInFlight } = api.stats;
    port.postMessage({ type: 'stats', total, maxInFlight });
  } else if (message === 'resetStats') {
    api.resetStats();
    port.postMessage({ type: 'reset' });
  } else if (message === 'close') {
    await api.close();
    port.close();
  }
});
