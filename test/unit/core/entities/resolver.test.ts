import assert from 'node:assert/strict';
import { EntityResolver, type ReferencedEntity, retryDelayMs } from '../../../../src/core/entities/entityResolver';
import { useStructsApi } from '../../../support/mochaHooks';
import { NOT_FOUND_BODY, SERVED_KINDS, StructsApiEmulator } from '../../../support/structsApi';

/** A field of a resolved entity, by name. */
const fieldOf = (entity: ReferencedEntity, name: string): unknown =>
  (entity as unknown as Record<string, unknown>)[name];

describe('EntityResolver against the Structs API emulator', () => {
  const api = useStructsApi({ players: 300, reset: true });

  const resolverFor = (options: Partial<ConstructorParameters<typeof EntityResolver>[0]> = {}): EntityResolver =>
    new EntityResolver({ baseUrl: api.baseUrl, ...options });

  describe('answers', () => {
    it('unwraps the entity from its type key and keeps the other sections under their names', async () => {
      const entity = await resolverFor().resolve('1-11');
      const body = api.responseFor('1-11');
      assert.deepEqual(entity, {
        reference_type: 'player',
        id: '1-11',
        reference_status: 'resolved',
        ...body?.['Player'],
        gridAttributes: body?.['gridAttributes'],
        playerInventory: body?.['playerInventory'],
      });
      assert.equal(api.requestsFor('1-11'), 1);
    });

    it("keeps the entity's own status field, and marks the resolution in reference_status", async () => {
      const resolver = resolverFor();
      const planet = await resolver.resolve('2-5');
      assert.equal(planet.reference_status, 'resolved');
      assert.equal(planet.reference_type, 'planet');
      assert.equal(planet.id, '2-5');
      assert.equal(fieldOf(planet, 'status'), 'complete');
      assert.equal(fieldOf(await resolver.resolve('2-4'), 'status'), 'active');
      assert.equal(fieldOf(await resolver.resolve('9-7'), 'status'), 'away');
      assert.equal(fieldOf(await resolver.resolve('9-6'), 'status'), 'onStation');
    });

    it('keeps every field and section of every served kind, exactly as the API sent them', async () => {
      const resolver = resolverFor();
      for (const kind of SERVED_KINDS) {
        const id = api.idsOf(kind)[1] ?? '';
        const body = api.responseFor(id) ?? {};
        const entity = (await resolver.resolve(id)) as unknown as Record<string, unknown>;
        const { reference_type: _type, reference_status: _status, ...fields } = entity;
        const { [kind.charAt(0).toUpperCase() + kind.slice(1)]: own, ...sections } = body;
        assert.deepEqual(fields, { ...(own as object), ...sections }, id);
      }
    });

    it('gives a frozen entity, since it is shared with the cache', async () => {
      const entity = await resolverFor().resolve('2-5');
      assert.ok(Object.isFrozen(entity));
      assert.ok(entity.reference_status === 'resolved' && Object.isFrozen(entity['gridAttributes']));
    });

    it('resolves every served kind', async () => {
      const resolver = resolverFor();
      for (const kind of SERVED_KINDS) {
        const id = api.idsOf(kind)[0] ?? '';
        const entity = await resolver.resolve(id);
        assert.equal(entity.reference_status, 'resolved', `${kind} ${id}: ${JSON.stringify(entity)}`);
        assert.equal(entity.reference_type, kind);
      }
    });
  });

  describe('failures say what happened', () => {
    it('an id the node lacks (HTTP 500, gRPC code 2 "object not found"): not found, asked once', async () => {
      const entity = await resolverFor().resolve('2-99999');
      assert.deepEqual(entity, {
        reference_type: 'planet',
        id: '2-99999',
        reference_status: 'not_found',
        error: 'no planet 2-99999 on this Structs node (codespace structs code 1050: object not found)',
      });
      assert.equal(api.requestsFor('2-99999'), 1);
    });

    it('the not-found body means not found at any HTTP status, and is never retried', async () => {
      const cases: [number, unknown][] = [
        [200, NOT_FOUND_BODY],
        [404, { code: 5, message: 'rpc error: code = NotFound desc = not found', details: [] }],
        [503, NOT_FOUND_BODY],
        [429, { code: 5, message: 'not found', details: [] }],
      ];
      for (const [status, body] of cases) {
        api.resetStats();
        api.knobs.scripted.set('2-3', { status, body: JSON.stringify(body) });
        const entity = await resolverFor().resolve('2-3');
        assert.equal(
          entity.reference_status,
          'not_found',
          `${status} ${JSON.stringify(body)}: ${JSON.stringify(entity)}`,
        );
        assert.equal(api.requestsFor('2-3'), 1, `${status}: asked once`);
      }
    });

    it('a real server fault stays a server fault: HTTP 500 with another gRPC code or message', async () => {
      api.knobs.serverError.add('2-3');
      const entity = await resolverFor().resolve('2-3');
      assert.deepEqual(entity, {
        reference_type: 'planet',
        id: '2-3',
        reference_status: 'failed',
        error: 'HTTP 500 Internal Server Error: internal error',
      });
      api.knobs.serverError.clear();
      api.knobs.scripted.set('2-3', {
        status: 500,
        body: JSON.stringify({ code: 2, message: 'codespace structs code 1900: player not ready', details: [] }),
      });
      assert.equal((await resolverFor().resolve('2-3')).reference_status, 'failed');
    });

    it('a gRPC error body with HTTP 200 is a failure that says so, not a shape error', async () => {
      api.knobs.scripted.set('2-3', {
        status: 200,
        body: JSON.stringify({ code: 13, message: 'internal', details: [] }),
      });
      const entity = await resolverFor().resolve('2-3');
      assert.equal(
        entity.reference_status === 'failed' ? entity.error : '',
        'the Structs API answered HTTP 200 with gRPC error 13: internal',
      );
    });

    it('malformed JSON', async () => {
      api.knobs.malformedJson.add('2-3');
      const entity = await resolverFor().resolve('2-3');
      assert.match(entity.reference_status === 'failed' ? entity.error : '', /^malformed JSON from the Structs API: /);
    });

    it('an unexpected shape', async () => {
      api.knobs.wrongShape.add('2-3');
      const entity = await resolverFor().resolve('2-3');
      assert.match(
        entity.reference_status === 'failed' ? entity.error : '',
        /^unexpected response shape from the Structs API: Planet: /,
      );
    });

    it('a slow answer is aborted at the timeout, and the error gives its length', async () => {
      api.knobs.slow.set('2-3', 1000);
      const started = Date.now();
      const entity = await resolverFor({ timeoutMs: 100 }).resolve('2-3');
      assert.ok(Date.now() - started < 600, 'waited for the slow answer');
      assert.deepEqual(entity, {
        reference_type: 'planet',
        id: '2-3',
        reference_status: 'failed',
        error: 'timed out after 100 ms',
      });
      await waitUntil(() => api.stats.inFlight === 0); // the server saw the request go away
    });

    it('a refused connection', async () => {
      const closed = await StructsApiEmulator.start({ players: 1 });
      await closed.close();
      const entity = await new EntityResolver({ baseUrl: closed.baseUrl }).resolve('2-1');
      assert.equal(
        entity.reference_status === 'failed' ? entity.error : '',
        `connection refused by ${closed.baseUrl} (is the Structs API running?)`,
      );
    });

    it('infusions and addresses have no endpoint, and cost no request', async () => {
      const resolver = resolverFor();
      assert.deepEqual(await resolver.resolve('7-1'), {
        reference_type: 'infusion',
        id: '7-1',
        reference_status: 'failed',
        error: 'the Structs API has no endpoint for infusion entities',
      });
      assert.deepEqual(await resolver.resolve('8-2'), {
        reference_type: 'address',
        id: '8-2',
        reference_status: 'failed',
        error: 'the Structs API has no endpoint for address entities',
      });
      assert.equal(api.stats.total, 0);
    });

    it('an invalid id is a failure, never a request', async () => {
      const resolver = resolverFor();
      for (const id of [' 2-7 ', '02-7', '2-0', '12-3', '../2-1', '']) {
        const entity = await resolver.resolve(id);
        assert.equal(entity.reference_status, 'failed', id);
        assert.equal(entity.reference_type, 'unknown');
        assert.match(entity.reference_status === 'failed' ? entity.error : '', /^not an entity ID/);
      }
      assert.equal(api.stats.total, 0);
    });
  });

  describe('retries', () => {
    for (const retryAfter of ['0', '1']) {
      it(`succeeds on retry after a 429 with Retry-After: ${retryAfter}`, async () => {
        api.knobs.rateLimited.set('2-3', { times: 1, retryAfter });
        const started = Date.now();
        const entity = await resolverFor({ timeoutMs: 3000 }).resolve('2-3');
        assert.equal(entity.reference_status, 'resolved');
        assert.equal(api.requestsFor('2-3'), 2);
        assert.ok(Date.now() - started >= Number(retryAfter) * 1000 - 50, 'did not honour Retry-After');
      });
    }

    it('retries a 503 too', async () => {
      api.knobs.rateLimited.set('2-3', { times: 2, retryAfter: '0', status: 503 });
      assert.equal((await resolverFor().resolve('2-3')).reference_status, 'resolved');
      assert.equal(api.requestsFor('2-3'), 3);
    });

    it('gives up after 3 attempts and says so', async () => {
      api.knobs.rateLimited.set('2-3', { times: 10, retryAfter: '0' });
      const entity = await resolverFor().resolve('2-3');
      assert.equal(
        entity.reference_status === 'failed' ? entity.error : '',
        'HTTP 429 Too Many Requests after 3 attempts: rate limit exceeded',
      );
      assert.equal(api.requestsFor('2-3'), 3);
    });

    it('waits as Retry-After says, in seconds or as an HTTP date, else backs off exponentially, within a cap', () => {
      const now = Date.parse('2026-01-01T00:00:00Z');
      assert.equal(retryDelayMs('2', 1, now), 2000);
      assert.equal(retryDelayMs('Thu, 01 Jan 2026 00:00:03 GMT', 1, now), 3000);
      assert.equal(retryDelayMs('Wed, 31 Dec 2025 23:00:00 GMT', 1, now), 0);
      assert.equal(retryDelayMs(null, 1, now), 200);
      assert.equal(retryDelayMs(null, 2, now), 400);
      assert.equal(retryDelayMs('soon', 2, now), 400);
      assert.equal(retryDelayMs('3600', 1, now), 5000);
    });
  });

  describe('parallelism', () => {
    it('never has more than 5 requests in flight while 200 ids are resolved, and does use 5', async () => {
      api.knobs.latencyMs = 5;
      const resolver = resolverFor();
      const results = await Promise.all(
        api
          .idsOf('planet')
          .slice(0, 200)
          .map((id) => resolver.resolve(id)),
      );
      assert.ok(results.every((entity) => entity.reference_status === 'resolved'));
      assert.equal(api.stats.total, 200);
      assert.equal(api.stats.maxInFlight, 5);
    });

    it('honours a smaller maxParallel', async () => {
      api.knobs.latencyMs = 5;
      const resolver = resolverFor({ maxParallel: 2 });
      await Promise.all(
        api
          .idsOf('struct')
          .slice(0, 30)
          .map((id) => resolver.resolve(id)),
      );
      assert.equal(api.stats.maxInFlight, 2);
    });

    it('shares one request among concurrent resolves of one id', async () => {
      api.knobs.latencyMs = 20;
      const resolver = resolverFor();
      const results = await Promise.all(Array.from({ length: 10 }, () => resolver.resolve('9-4')));
      assert.equal(api.requestsFor('9-4'), 1);
      assert.ok(results.every((entity) => entity === results[0]));
    });
  });

  describe('cache', () => {
    it('answers a cached entity without a request', async () => {
      const resolver = resolverFor();
      const first = await resolver.resolve('2-8');
      const second = await resolver.resolve('2-8');
      assert.equal(second, first);
      assert.equal(api.requestsFor('2-8'), 1);
    });

    it('asks again when refresh is set', async () => {
      const resolver = resolverFor();
      await resolver.resolve('2-8');
      await resolver.resolve('2-8', { refresh: true });
      assert.equal(api.requestsFor('2-8'), 2);
    });

    it('asks again once the TTL has passed', async () => {
      const resolver = resolverFor({ cacheTtlMs: 30 });
      await resolver.resolve('2-8');
      await new Promise((resolve) => setTimeout(resolve, 60));
      await resolver.resolve('2-8');
      assert.equal(api.requestsFor('2-8'), 2);
    });

    it('evicts the least recently used entity beyond cacheSize', async () => {
      const resolver = resolverFor({ cacheSize: 2 });
      for (const id of ['2-1', '2-2', '2-1', '2-3', '2-1', '2-2']) await resolver.resolve(id);
      assert.deepEqual([api.requestsFor('2-1'), api.requestsFor('2-2'), api.requestsFor('2-3')], [1, 2, 1]);
    });

    it('does not cache failures', async () => {
      const resolver = resolverFor();
      api.knobs.serverError.add('2-8');
      assert.equal((await resolver.resolve('2-8')).reference_status, 'failed');
      api.knobs.serverError.clear();
      assert.equal((await resolver.resolve('2-8')).reference_status, 'resolved');
      assert.equal(api.requestsFor('2-8'), 2);
    });

    it('keeps entities of different base URLs apart', async () => {
      const other = await StructsApiEmulator.start({ players: 20 });
      try {
        const resolver = resolverFor();
        await resolver.resolve('2-8');
        const fromOther = new EntityResolver({ baseUrl: other.baseUrl });
        await fromOther.resolve('2-8');
        assert.equal(other.requestsFor('2-8'), 1);
      } finally {
        await other.close();
      }
    });
  });

  describe('cancellation', () => {
    it("rejects an aborted caller's wait at once with the signal's reason", async () => {
      api.knobs.latencyMs = 300;
      const controller = new AbortController();
      const waiting = resolverFor().resolve('2-9', { signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      const started = Date.now();
      await assert.rejects(waiting, { name: 'AbortError' });
      assert.ok(Date.now() - started < 200);
    });

    it('rejects an already aborted signal without a request', async () => {
      await assert.rejects(resolverFor().resolve('2-9', { signal: AbortSignal.abort() }), { name: 'AbortError' });
      assert.equal(api.stats.total, 0);
    });

    it('does not send a queued request whose every caller aborted', async () => {
      api.knobs.latencyMs = 100;
      const resolver = resolverFor({ maxParallel: 1 });
      const controller = new AbortController();
      const ahead = resolver.resolve('2-1');
      const queued = resolver.resolve('2-2', { signal: controller.signal });
      controller.abort();
      await assert.rejects(queued, { name: 'AbortError' });
      assert.equal((await ahead).reference_status, 'resolved');
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(api.requestsFor('2-2'), 0);
    });

    it('keeps the request for the callers still waiting when one aborts', async () => {
      api.knobs.latencyMs = 50;
      const resolver = resolverFor();
      const controller = new AbortController();
      const leaving = resolver.resolve('2-4', { signal: controller.signal });
      const staying = resolver.resolve('2-4', { signal: new AbortController().signal });
      controller.abort();
      await assert.rejects(leaving);
      assert.equal((await staying).reference_status, 'resolved');
      assert.equal(api.requestsFor('2-4'), 1);
    });

    it('starts afresh after every caller left, rather than joining the cancelled request', async () => {
      api.knobs.latencyMs = 50;
      const resolver = resolverFor();
      const controller = new AbortController();
      const leaving = resolver.resolve('2-4', { signal: controller.signal });
      controller.abort();
      await assert.rejects(leaving);
      assert.equal((await resolver.resolve('2-4')).reference_status, 'resolved');
    });
  });

  it('refuses bad options', () => {
    assert.throws(() => new EntityResolver({ baseUrl: 'not a url' }), /baseUrl is not a URL/);
    assert.throws(() => new EntityResolver({ baseUrl: 'ftp://x' }), /http or https/);
    assert.throws(() => new EntityResolver({ baseUrl: api.baseUrl, maxParallel: 0 }), /maxParallel/);
    assert.throws(() => new EntityResolver({ baseUrl: api.baseUrl, timeoutMs: -1 }), /timeoutMs/);
    assert.throws(() => new EntityResolver({ baseUrl: api.baseUrl, cacheSize: 1.5 }), /cacheSize/);
    assert.throws(() => new EntityResolver({ baseUrl: api.baseUrl, maxResponseBytes: 0 }), /maxResponseBytes/);
    assert.throws(() => new EntityResolver({ baseUrl: api.baseUrl, cacheMaxBytes: -1 }), /cacheMaxBytes/);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 1000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
