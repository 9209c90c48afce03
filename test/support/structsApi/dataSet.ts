/**
 * A deterministic Structs world that links up like the real chain: guilds with an owner, a reactor
 * and an entry substation; players with a planet, a fleet (its command ship) and structs in the
 * planet's slots, some defending each other; fleets away raiding a neighbour's planet; allocations
 * from reactors to substations controlled by players; providers selling substation capacity through
 * agreements.
 *
 * Bodies are what structsd (playstructs/structsd, `proto/structs/structs/*.proto`, `query.proto`'s
 * `QueryGet*Response`) sends through Cosmos SDK v0.53's gRPC gateway: every field present, also empty
 * ones; fields in proto order; 64-bit integers and decimals as strings; enums by name; bytes as
 * base64; `""` for "no reference"; struct *types* as plain integers. test/fixtures/structs/ holds
 * one real-shaped body per kind, and a unit test fails when these bodies drift from them.
 */

/** The entity kinds the emulator serves, as they appear in `/structs/{kind}/{id}`. */
export type ServedKind =
  | 'guild'
  | 'player'
  | 'planet'
  | 'reactor'
  | 'substation'
  | 'struct'
  | 'allocation'
  | 'fleet'
  | 'provider'
  | 'agreement';

export const SERVED_KINDS: readonly ServedKind[] = [
  'guild',
  'player',
  'planet',
  'reactor',
  'substation',
  'struct',
  'allocation',
  'fleet',
  'provider',
  'agreement',
];

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

/** A single-entity response body: `{"Player":{...},"gridAttributes":{...}}`; a struct's `structDefenders` is an array. */
export type EntityResponse = Record<string, Record<string, unknown> | unknown[]>;

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

/** The entity wrapped in a response, or undefined for a body without one. */
export function entityOf(body: EntityResponse | undefined, kind: ServedKind): Record<string, unknown> | undefined {
  const entity = body?.[responseKeyOf(kind)];
  return entity !== undefined && !Array.isArray(entity) ? entity : undefined;
}

/** The same world for the same options, every time. */
export function generateDataSet(options: DataSetOptions = {}): StructsDataSet {
  const playerCount = options.players ?? 640;
  if (!Number.isInteger(playerCount) || playerCount < 1)
    throw new RangeError(`players must be a whole number >= 1 (got ${playerCount})`);
  let seed = options.seed ?? 1;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const between = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
  const number = (low: number, high: number): string => String(between(low, high));
  const pickOne = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const bech32 = (prefix: string): string => {
    const alphabet = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
    let text = `${prefix}1`;
    for (let i = 0; i < 38; i++) text += alphabet[Math.floor(random() * alphabet.length)];
    return text;
  };
  const address = (): string => bech32('structs');
  const rawAddress = (): string => Buffer.from(Array.from({ length: 20 }, () => between(0, 255))).toString('base64');

  const responses = new Map<string, EntityResponse>();
  const idsByKind = new Map<ServedKind, string[]>(SERVED_KINDS.map((kind) => [kind, []]));
  const idOf = (kind: ServedKind, index: number): string => `${TYPE_CODE[kind]}-${index}`;
  const add = (
    kind: ServedKind,
    entity: Record<string, unknown> & { id: string },
    sections: Record<string, Record<string, unknown> | unknown[]> = {},
  ): void => {
    responses.set(entity.id, { [responseKeyOf(kind)]: entity, ...sections });
    idsByKind.get(kind)?.push(entity.id);
  };
  const grid = (): Record<string, string> => ({
    ore: number(0, 20),
    fuel: number(0, 1_000_000),
    capacity: String(between(1, 50) * 1_000_000),
    load: number(0, 500_000),
    structsLoad: number(0, 50_000),
    power: number(0, 100_000),
    connectionCapacity: number(0, 10_000),
    connectionCount: number(0, 10),
    allocationPointerStart: '0',
    allocationPointerEnd: '0',
    proxyNonce: '0',
    lastAction: number(100_000, 900_000),
    nonce: number(0, 1000),
    ready: pickOne(['0', '1']),
    checkpointBlock: number(100_000, 900_000),
  });

  const guildCount = Math.max(1, Math.ceil(playerCount / 10));
  const substationCount = guildCount * 2;
  const guildOf = (player: number): number => ((player - 1) % guildCount) + 1;
  const founderOf = (guild: number): number => guild; // player g founds guild g (guildOf(g) === g)
  const guildless = (player: number): boolean => player % 9 === 0 && player > guildCount;
  // Every 7th player's fleet is away raiding the previous player's planet, first and last in its line.
  const raider = (player: number): boolean => player % 7 === 0 && player > 1;

  for (let g = 1; g <= guildCount; g++) {
    add('guild', {
      id: idOf('guild', g),
      index: String(g),
      endpoint: `https://guild-${g}.structs.example`,
      creator: address(),
      owner: idOf('player', founderOf(g)),
      joinInfusionMinimum: String(between(0, 5) * 1_000_000),
      joinInfusionMinimumBypassByRequest: pickOne(['closed', 'permissioned', 'member']),
      joinInfusionMinimumBypassByInvite: pickOne(['closed', 'permissioned', 'member']),
      primaryReactorId: idOf('reactor', g),
      entrySubstationId: idOf('substation', g),
      entryRank: number(1, 101),
      name: `Guild ${g}`,
      pfp: '',
    });
    add(
      'reactor',
      {
        id: idOf('reactor', g),
        validator: bech32('structsvaloper'),
        guildId: idOf('guild', g),
        defaultCommission: `0.${String(between(1, 99)).padStart(2, '0')}0000000000000000`,
        rawAddress: rawAddress(),
        owner: idOf('player', founderOf(g)),
      },
      { gridAttributes: grid() },
    );
  }
  for (let s = 1; s <= substationCount; s++) {
    add(
      'substation',
      {
        id: idOf('substation', s),
        owner: idOf('player', founderOf(((s - 1) % guildCount) + 1)),
        creator: address(),
        name: '',
        pfp: '',
      },
      { gridAttributes: grid() },
    );
  }

  let structIndex = 0;
  for (let p = 1; p <= playerCount; p++) {
    // One command ship in the fleet, then three structs on the planet: two on land, one in water.
    const [ship, landFirst, landSecond, waterFirst] = [1, 2, 3, 4].map(() => ++structIndex) as [
      number,
      number,
      number,
      number,
    ];
    const playerId = idOf('player', p);
    const planetId = idOf('planet', p);
    const fleetId = idOf('fleet', p);
    add(
      'player',
      {
        id: playerId,
        index: String(p),
        guildId: guildless(p) ? '' : idOf('guild', guildOf(p)),
        substationId: guildless(p) ? '' : idOf('substation', guildOf(p)),
        creator: address(),
        primaryAddress: address(),
        planetId,
        fleetId,
        guildRank: number(1, 200),
        name: p % 3 === 0 ? `player${p}` : '',
        pfp: '',
      },
      { gridAttributes: grid(), playerInventory: { rocks: { denom: 'ualpha', amount: number(0, 5_000_000) } } },
    );
    const raidedBy = raider(p + 1) && p + 1 <= playerCount ? idOf('fleet', p + 1) : '';
    add(
      'planet',
      {
        id: planetId,
        maxOre: '5',
        creator: address(),
        owner: playerId,
        space: ['', '', '', ''],
        air: ['', '', '', ''],
        land: [idOf('struct', landFirst), idOf('struct', landSecond), '', ''],
        water: [idOf('struct', waterFirst), '', '', ''],
        spaceSlots: '4',
        airSlots: '4',
        landSlots: '4',
        waterSlots: '4',
        status: p % 5 === 0 ? 'complete' : 'active',
        locationListStart: raidedBy,
        locationListLast: raidedBy,
        name: '',
      },
      {
        gridAttributes: grid(),
        planetAttributes: {
          planetaryShield: number(0, 10),
          repairNetworkQuantity: '0',
          defensiveCannonQuantity: number(0, 2),
          coordinatedGlobalShieldNetworkQuantity: '0',
          lowOrbitBallisticsInterceptorNetworkQuantity: number(0, 1),
          advancedLowOrbitBallisticsInterceptorNetworkQuantity: '0',
          lowOrbitBallisticsInterceptorNetworkSuccessRateNumerator: '2',
          lowOrbitBallisticsInterceptorNetworkSuccessRateDenominator: '3',
          orbitalJammingStationQuantity: '0',
          advancedOrbitalJammingStationQuantity: '0',
          blockStartRaid: '0',
        },
      },
    );
    const away = raider(p);
    add('fleet', {
      id: fleetId,
      owner: playerId,
      locationType: 'planet',
      locationId: away ? idOf('planet', p - 1) : planetId,
      status: away ? 'away' : 'onStation',
      locationListForward: '',
      locationListBackward: '',
      space: ['', '', '', ''],
      air: ['', '', '', ''],
      land: ['', '', '', ''],
      water: ['', '', '', ''],
      spaceSlots: '4',
      airSlots: '4',
      landSlots: '4',
      waterSlots: '4',
      commandStruct: idOf('struct', ship),
    });
    const struct = (
      index: number,
      placed: { locationType: string; locationId: string; ambit: string; slot: number },
      type: number,
      protects = 0,
      defenders: string[] = [],
    ): void =>
      add(
        'struct',
        {
          id: idOf('struct', index),
          index: String(index),
          type: String(type),
          creator: address(),
          owner: playerId,
          locationType: placed.locationType,
          locationId: placed.locationId,
          operatingAmbit: placed.ambit,
          slot: String(placed.slot),
        },
        {
          structAttributes: {
            health: number(1, 3),
            status: number(0, 255),
            blockStartBuild: number(1000, 9000),
            blockStartOreMine: '0',
            blockStartOreRefine: '0',
            protectedStructIndex: String(protects),
            typeCount: '1',
            isMaterialized: true,
            isBuilt: true,
            isOnline: random() < 0.8,
            isHidden: false,
            isDestroyed: false,
            isLocked: false,
          },
          gridAttributes: grid(),
          structDefenders: defenders,
        },
      );
    struct(ship, { locationType: 'fleet', locationId: fleetId, ambit: 'space', slot: 0 }, 1);
    // The second land struct defends the first.
    struct(landFirst, { locationType: 'planet', locationId: planetId, ambit: 'land', slot: 0 }, between(2, 22), 0, [
      idOf('struct', landSecond),
    ]);
    struct(
      landSecond,
      { locationType: 'planet', locationId: planetId, ambit: 'land', slot: 1 },
      between(2, 22),
      landFirst,
    );
    struct(waterFirst, { locationType: 'planet', locationId: planetId, ambit: 'water', slot: 0 }, between(2, 22));
  }

  // Two allocations per guild: its reactor powering its entry substation, and the capacity its
  // provider sells from its second substation.
  const allocation = (index: number, type: string, source: string, destination: string, controller: string): void =>
    add(
      'allocation',
      {
        id: idOf('allocation', index),
        type,
        sourceObjectId: source,
        index: String(index),
        destinationId: destination,
        creator: address(),
        controller,
      },
      { gridAttributes: grid() },
    );
  for (let g = 1; g <= guildCount; g++) {
    const founder = idOf('player', founderOf(g));
    allocation(2 * g - 1, 'static', idOf('reactor', g), idOf('substation', g), founder);
    allocation(2 * g, 'providerAgreement', idOf('substation', g + guildCount), idOf('substation', g), founder);
  }
  for (let g = 1; g <= guildCount; g++) {
    add(
      'provider',
      {
        id: idOf('provider', g),
        index: String(g),
        substationId: idOf('substation', g + guildCount),
        rate: { denom: 'ualpha', amount: number(1, 100) },
        accessPolicy: pickOne(['openMarket', 'guildMarket', 'closedMarket']),
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
    add('agreement', {
      id: idOf('agreement', g),
      providerId: idOf('provider', g),
      allocationId: idOf('allocation', g * 2),
      capacity: number(1000, 100_000),
      startBlock: number(1000, 9000),
      endBlock: number(10_000, 90_000),
      creator: address(),
      owner: idOf('player', Math.min(playerCount, g + guildCount)),
    });
  }

  return { responses, idsByKind };
}
