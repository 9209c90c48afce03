/**
 * A deterministic Structs world that links up like the real chain: guilds with members, reactors
 * and entry substations; players with a planet, a fleet and structs in the planet's slots;
 * allocations from reactors to substations; providers selling substation capacity through
 * agreements. Field names and value shapes follow the consensus API: 64-bit numbers as strings,
 * `""` for "no reference", struct *types* as plain integers.
 */

/** The entity kinds the emulator serves, as they appear in `/structs/{kind}/{id}`. */
export type ServedKind = 'guild' | 'player' | 'planet' | 'reactor' | 'substation' | 'struct' | 'allocation' | 'fleet' | 'provider' | 'agreement';

export const SERVED_KINDS: readonly ServedKind[] = ['guild', 'player', 'planet', 'reactor', 'substation', 'struct', 'allocation', 'fleet', 'provider', 'agreement'];

const TYPE_CODE: Record<ServedKind, number> = {
  guild: 0,
  player: 1,
  planet: 2,
  reactor: 3,
  substation: 4,
  struct: 5,
  allocation: 6,
  fleet: 9,
  provider: 10,
  agreement: 11,
};

/** A single-entity response body: `{"Player":{...},"gridAttributes":{...}}`. */
export type EntityResponse = Record<string, Record<string, unknown>>;

/** The world: every entity's response by ID, and the IDs of each kind in index order. */
export interface StructsDataSet {
  readonly responses: ReadonlyMap<string, EntityResponse>;
  readonly idsByKind: ReadonlyMap<ServedKind, readonly string[]>;
}

/** Options of {@link generateDataSet}. */
export interface DataSetOptions {
  /** How many players (default 640); guilds, planets, fleets and the rest scale with it. */
  players?: number;
  /** Seed of the pseudo-random details (default 1). */
  seed?: number;
}

/** `Planet` from `planet`: the key a response wraps its entity under. */
export function responseKeyOf(kind: ServedKind): string {
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

/** The same world for the same options, every time. */
export function generateDataSet(options: DataSetOptions = {}): StructsDataSet {
  const playerCount = options.players ?? 640;
  if (!Number.isInteger(playerCount) || playerCount < 1) throw new RangeError(`players must be a whole number >= 1 (got ${playerCount})`);
  let seed = options.seed ?? 1;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const between = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
  const address = (): string => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let text = 'structs1';
    for (let i = 0; i < 38; i++) text += alphabet[Math.floor(random() * alphabet.length)];
    return text;
  };

  const responses = new Map<string, EntityResponse>();
  const idsByKind = new Map<ServedKind, string[]>(SERVED_KINDS.map((kind) => [kind, []]));
  const idOf = (kind: ServedKind, index: number): string => `${TYPE_CODE[kind]}-${index}`;
  const add = (kind: ServedKind, index: number, entity: Record<string, unknown>, sections: Record<string, Record<string, unknown>> = {}): void => {
    const id = idOf(kind, index);
    responses.set(id, { [responseKeyOf(kind)]: { id, index: String(index), ...entity }, ...sections });
    idsByKind.get(kind)?.push(id);
  };
  const grid = (): Record<string, unknown> => ({
    capacity: String(between(1, 50) * 1_000_000),
    load: String(between(0, 500_000)),
    ore: String(between(0, 20)),
    fuel: String(between(0, 1_000_000)),
    power: String(between(0, 100_000)),
    connectionCapacity: String(between(0, 10_000)),
    connectionCount: String(between(0, 10)),
    allocationPointerStart: '0',
    allocationPointerEnd: '0',
    proxyNonce: '0',
    lastAction: String(between(100_000, 900_000)),
    nonce: String(between(0, 1000)),
    ready: random() < 0.5 ? 'true' : 'false',
    checkpointBlock: String(between(100_000, 900_000)),
  });

  const guildCount = Math.max(1, Math.ceil(playerCount / 10));
  const substationCount = guildCount * 2;
  const structsPerPlayer = 3;
  const guildOf = (player: number): number => ((player - 1) % guildCount) + 1;
  const founderOf = (guild: number): number => guild; // player g founds guild g (guildOf(g) === g)

  for (let g = 1; g <= guildCount; g++) {
    add(
      'guild',
      g,
      {
        endpoint: `https://guild-${g}.structs.example`,
        creator: address(),
        owner: idOf('player', founderOf(g)),
        joinInfusionMinimum: String(between(0, 5) * 1_000_000),
        joinInfusionMinimumBypassByRequest: 'GUILD_JOIN_BYPASS_LEVEL_CLOSED',
        joinInfusionMinimumBypassByInvite: 'GUILD_JOIN_BYPASS_LEVEL_PERMISSIONED',
        primaryReactorId: idOf('reactor', g),
        entrySubstationId: idOf('substation', g),
      },
      { gridAttributes: grid() },
    );
    add(
      'reactor',
      g,
      {
        validator: `structsvaloper1${address().slice(8)}`,
        guildId: idOf('guild', g),
        rawAddress: address().slice(8, 40).toUpperCase(),
        defaultCommission: '0.040000000000000000',
      },
      { gridAttributes: grid() },
    );
  }
  for (let s = 1; s <= substationCount; s++) {
    add('substation', s, { owner: idOf('player', founderOf(((s - 1) % guildCount) + 1)), creator: address() }, { gridAttributes: grid() });
  }

  let structIndex = 0;
  for (let p = 1; p <= playerCount; p++) {
    const guildless = p % 9 === 0 && p > guildCount;
    const structIds: string[] = [];
    for (let k = 0; k < structsPerPlayer; k++) structIds.push(idOf('struct', ++structIndex));
    add(
      'player',
      p,
      {
        guildId: guildless ? '' : idOf('guild', guildOf(p)),
        substationId: guildless ? '' : idOf('substation', guildOf(p)),
        planetId: idOf('planet', p),
        fleetId: idOf('fleet', p),
        creator: address(),
        primaryAddress: address(),
        guildRank: String(between(1, 200)),
      },
      { gridAttributes: grid(), playerInventory: {} },
    );
    add(
      'planet',
      p,
      {
        maxOre: '5',
        creator: address(),
        owner: idOf('player', p),
        space: ['', '', '', ''],
        air: ['', '', '', ''],
        land: [structIds[0] ?? '', structIds[1] ?? '', '', ''],
        water: [structIds[2] ?? '', '', '', ''],
        spaceSlots: '4',
        airSlots: '4',
        landSlots: '4',
        waterSlots: '4',
        status: 'active',
        locationListStart: random() < 0.2 ? idOf('fleet', between(1, playerCount)) : '',
        locationListLast: '',
      },
      {
        planetAttributes: {
          planetaryShield: String(between(0, 10)),
          repairNetworkQuantity: '0',
          defensiveCannonQuantity: String(between(0, 2)),
          blockStartRaid: '0',
        },
        gridAttributes: grid(),
      },
    );
    add(
      'fleet',
      p,
      {
        owner: idOf('player', p),
        space: ['', '', '', ''],
        air: ['', '', '', ''],
        land: ['', '', '', ''],
        water: ['', '', '', ''],
        locationType: 'planet',
        locationId: idOf('planet', p),
        status: 'onStation',
        locationListForward: '',
        locationListBackward: '',
        commandStruct: structIds[0] ?? '',
      },
      { gridAttributes: grid() },
    );
    structIds.forEach((_, k) => {
      add(
        'struct',
        structIndex - structsPerPlayer + 1 + k,
        {
          type: String(between(1, 22)),
          creator: address(),
          owner: idOf('player', p),
          locationType: 'planet',
          locationId: idOf('planet', p),
          operatingAmbit: k === 2 ? 'water' : 'land',
          slot: String(k === 2 ? 0 : k),
        },
        { structAttributes: { health: String(between(1, 3)), statusFlags: String(between(0, 255)), blockStartBuild: String(between(1000, 9000)) } },
      );
    });
  }

  // Two allocations per reactor: one to the guild's entry substation, one to its second substation.
  let allocationIndex = 0;
  for (let g = 1; g <= guildCount; g++) {
    for (const s of [g, g + guildCount]) {
      add('allocation', ++allocationIndex, {
        type: 'static',
        sourceObjectId: idOf('reactor', g),
        destinationId: idOf('substation', s),
        controller: address(),
        creator: address(),
        locked: 'false',
      });
    }
  }
  for (let g = 1; g <= guildCount; g++) {
    add(
      'provider',
      g,
      {
        substationId: idOf('substation', g + guildCount),
        rateAmount: String(between(1, 100)),
        rateDenom: 'ualpha',
        accessPolicy: 'openMarket',
        capacityMinimum: '1000',
        capacityMaximum: '1000000',
        durationMinimum: '100',
        durationMaximum: '100000',
        providerCancellationPenalty: '0.100000000000000000',
        consumerCancellationPenalty: '0.100000000000000000',
        creator: address(),
        owner: idOf('player', founderOf(g)),
      },
      { gridAttributes: grid() },
    );
    add('agreement', g, {
      providerId: idOf('provider', g),
      allocationId: idOf('allocation', g * 2),
      capacity: String(between(1000, 100_000)),
      startBlock: String(between(1000, 9000)),
      endBlock: String(between(10_000, 90_000)),
      creator: address(),
      owner: idOf('player', Math.min(playerCount, g + guildCount)),
    });
  }

  return { responses, idsByKind };
}
