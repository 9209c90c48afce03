import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { BodyTooLargeError, boundedGet, type HttpGet } from '../../../../src/core/entities/boundedGet';
import { EntityResolver, type ReferencedEntity } from '../../../../src/core/entities/entityResolver';
import { type HostileServer, startHostileServer } from '../../../support/structsApi';

const MiB = 1024 * 1024;
const PLANET = JSON.stringify({ Planet: { id: '2-1', owner: '1-1', status: 'active' }, gridAttributes: { ore: '0' } });

const errorOf = (entity: ReferencedEntity): string => (entity.reference_status === 'resolved' ? '' : entity.error);

/** Starts a fresh server per test and closes it after, whatever happened. */
function withServer(handler: Parameters<typeof startHostileServer>[0]): { server: () => HostileServer } {
  let server: HostileServer | undefined;
  beforeEach(async () => {
    server = await startHostileServer(handler);
  });
  afterEach(async () => {
    await server?.close();
  });
  return { server: () => server as HostileServer };
}

/** The start of a planet body that never ends: `{"Planet":{"id":"2-1","x":"aaaa...`. */
function endlessJson(chunk: Buffer): () => Buffer {
  let first = true;
  return () => {
    if (!first) return chunk;
    first = false;
    return Buffer.from('{"Planet":{"id":"2-1","x":"');
  };
}

describe('entity lookups against hostile servers', function () {
  this.timeout(15_000);

  describe('a lookup always settles by its deadline and frees its queue slot', () => {
    // Gzip that trickles in for ever: the case where undici's fetch was seen to hang after its abort.
    const { server } = withServer((request, response) => {
      if (request.url === '/structs/planet/2-1') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(PLANET);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      const gzip = zlib.createGzip();
      gzip.pipe(response);
      gzip.write('{"Planet":{"id":"2-2","x":"');
      gzip.flush();
      const trickle = setInterval(() => {
        gzip.write('a');
        gzip.flush();
      }, 20);
      response.once('close', () => {
        clearInterval(trickle);
        gzip.destroy();
      });
    });

    // An HTTP stack that never gives up on an abort, as undici#4089 describes: real requests, signal ignored.
    const stubborn: HttpGet = (url, options) => boundedGet(url, { ...options, signal: new AbortController().signal });

    it('five lookups stuck in a gzip body that never ends, on a stack that ignores aborts, do not block the next one', async () => {
      const resolver = new EntityResolver({
        baseUrl: server().baseUrl,
        maxParallel: 1,
        timeoutMs: 200,
        transport: stubborn,
      });
      const stuck = ['2-2', '2-3', '2-4', '2-5', '2-6'].map((id) => resolver.resolve(id));
      const next = resolver.resolve('2-1');
      const results = await Promise.race([
        Promise.all([...stuck, next]),
        new Promise<never>((_resolve, reject) =>
          setTimeout(() => reject(new Error('a lookup never settled, so its queue slot was never given back')), 5000),
        ),
      ]);
      for (const entity of results.slice(0, 5)) assert.equal(errorOf(entity), 'timed out after 200 ms');
      assert.equal(results[5]?.reference_status, 'resolved');
    });

    it('with the real stack, the connection is closed at the deadline too', async () => {
      const resolver = new EntityResolver({ baseUrl: server().baseUrl, timeoutMs: 150 });
      assert.equal(errorOf(await resolver.resolve('2-2')), 'timed out after 150 ms');
      const deadline = Date.now() + 2000;
      while (server().closedConnections === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(server().closedConnections, 1);
    });
  });

  describe('the bytes of one response are capped, compressed and decompressed', () => {
    const zeros = Buffer.alloc(64 * 1024);
    const bomb = zlib.gzipSync(Buffer.alloc(64 * MiB)); // about 64 KB that decompress to 64 MiB
    const { server } = withServer((request, response, hostile) => {
      switch (request.url) {
        case '/structs/planet/2-1': // an endless body
          response.writeHead(200, { 'content-type': 'application/json' });
          hostile.stream(response, endlessJson(Buffer.alloc(64 * 1024, 'a')));
          return;
        case '/structs/planet/2-2': {
          // a 200 MB entity, announced
          let left = 200 * 1_000_000;
          response.writeHead(200, { 'content-type': 'application/json', 'content-length': left });
          hostile.stream(response, () => {
            if (left <= 0) return undefined;
            left -= zeros.length;
            return zeros;
          });
          return;
        }
        case '/structs/planet/2-3': // a gzip bomb
          response.writeHead(200, {
            'content-type': 'application/json',
            'content-encoding': 'gzip',
            'content-length': bomb.length,
          });
          response.end(bomb);
          return;
        case '/structs/planet/2-4': {
          // gzip that never decompresses to anything: empty blocks for ever
          response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
          const emptyBlock = Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]);
          let first = true;
          hostile.stream(response, () => {
            if (!first) return Buffer.concat(Array.from({ length: 1000 }, () => emptyBlock));
            first = false;
            return Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
          });
          return;
        }
        default:
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(PLANET.replace('2-1', request.url?.split('/').pop() ?? ''));
      }
    });

    it('stops reading an endless body at the cap and says so', async () => {
      const entity = await new EntityResolver({ baseUrl: server().baseUrl, timeoutMs: 10_000 }).resolve('2-1');
      assert.equal(errorOf(entity), 'the Structs API sent more than 1.0 MB, the limit for one entity; reading stopped');
      // What left the server before the connection closed: the cap plus socket buffers, not gigabytes.
      assert.ok(server().bytesSent < 16 * MiB, `the server sent ${server().bytesSent} bytes`);
    });

    it('refuses a 200 MB entity from its Content-Length', async () => {
      const entity = await new EntityResolver({ baseUrl: server().baseUrl, timeoutMs: 10_000 }).resolve('2-2');
      assert.equal(errorOf(entity), 'the Structs API sent more than 1.0 MB, the limit for one entity; reading stopped');
      assert.ok(server().bytesSent < 16 * MiB, `the server sent ${server().bytesSent} bytes`);
    });

    it('stops decompressing a gzip bomb at the cap', async () => {
      const entity = await new EntityResolver({ baseUrl: server().baseUrl, timeoutMs: 10_000 }).resolve('2-3');
      assert.equal(
        errorOf(entity),
        'the Structs API sent a body that decompresses to more than 1.0 MB, the limit for one entity; reading stopped',
      );
      const error = await boundedGet(new URL(`${server().baseUrl}/structs/planet/2-3`), {
        signal: new AbortController().signal,
        maxBytes: MiB,
      }).then(
        () => assert.fail('the bomb was read in full'),
        (reason: unknown) => reason,
      );
      assert.ok(error instanceof BodyTooLargeError && error.stage === 'decoded', String(error));
      assert.ok(error.bytes <= MiB + 64 * 1024, `decompressed ${error.bytes} bytes before stopping`);
    });

    it('counts compressed bytes too: gzip that never decompresses to anything stops at the cap', async () => {
      const entity = await new EntityResolver({
        baseUrl: server().baseUrl,
        timeoutMs: 10_000,
        maxResponseBytes: 256 * 1024,
      }).resolve('2-4');
      assert.equal(
        errorOf(entity),
        'the Structs API sent more than 256.0 KB, the limit for one entity; reading stopped',
      );
      assert.ok(server().bytesSent < 16 * MiB, `the server sent ${server().bytesSent} bytes`);
    });

    it('gives the cache a byte budget: the least recently used entity goes once it is spent', async () => {
      const size = Buffer.byteLength(PLANET.replace('2-1', '2-10'));
      const resolver = new EntityResolver({ baseUrl: server().baseUrl, cacheMaxBytes: Math.floor(size * 2.5) });
      for (const id of ['2-10', '2-11', '2-12', '2-12', '2-11', '2-10']) await resolver.resolve(id);
      const asked = (id: string): number => server().requests.get(`/structs/planet/${id}`) ?? 0;
      // 2-12 pushed 2-10 out; 2-12 and 2-11 were still held; asking for 2-10 again pushed nothing it needed.
      assert.deepEqual([asked('2-10'), asked('2-11'), asked('2-12')], [2, 1, 1]);
    });
  });

  describe('redirects are not followed', () => {
    let other: HostileServer;
    before(async () => {
      other = await startHostileServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(PLANET);
      });
    });
    after(async () => {
      await other.close();
    });
    const { server } = withServer((request, response, hostile) => {
      const location =
        request.url === '/structs/planet/2-1'
          ? `${other.baseUrl}/structs/planet/2-1`
          : `${hostile.baseUrl}${request.url ?? '/'}`;
      response.writeHead(request.url === '/structs/planet/2-1' ? 302 : 301, { location });
      response.end();
    });

    it('a redirect to another host is a failure naming it, nothing is asked of that host, and nothing is cached', async () => {
      const resolver = new EntityResolver({ baseUrl: server().baseUrl });
      const entity = await resolver.resolve('2-1');
      assert.equal(entity.reference_status, 'failed');
      assert.match(
        errorOf(entity),
        /^HTTP 302 Found: the Structs API redirects to ".*127\.0\.0\.1:\d+\/structs\/planet\/2-1"; entity lookups do not follow redirects/,
      );
      assert.equal(other.requests.size, 0);
      await resolver.resolve('2-1');
      assert.equal(server().requests.get('/structs/planet/2-1'), 2);
    });

    it('a redirect loop costs one request', async () => {
      const entity = await new EntityResolver({ baseUrl: server().baseUrl }).resolve('2-7');
      assert.match(errorOf(entity), /^HTTP 301 Moved Permanently: the Structs API redirects to/);
      assert.equal(server().requests.get('/structs/planet/2-7'), 1);
    });
  });

  describe('bodies nested too deep', () => {
    // Planet 2-N holds N nested arrays under `deep`: the body nests N + 2 levels.
    const { server } = withServer((request, response) => {
      const id = request.url?.split('/').pop() ?? '';
      const levels = Number(id.split('-').pop());
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{"Planet":{"id":"${id}","deep":${'['.repeat(levels)}${']'.repeat(levels)}}}`);
    });

    it('an entity 10,000 levels deep is a failure that names the problem, not a crash or a network error', async () => {
      const entity = await new EntityResolver({ baseUrl: server().baseUrl }).resolve('2-10000');
      assert.deepEqual(entity, {
        reference_type: 'planet',
        id: '2-10000',
        reference_status: 'failed',
        error: 'entity body nested deeper than 256 levels',
      });
    });

    it('draws the line at 256 levels', async () => {
      const resolver = new EntityResolver({ baseUrl: server().baseUrl });
      assert.equal((await resolver.resolve('2-254')).reference_status, 'resolved');
      assert.equal(errorOf(await resolver.resolve('2-255')), 'entity body nested deeper than 256 levels');
    });
  });
});
