/**
 * The grammar of every id fdref reads or writes, written once. Pure (no `vscode`, no Node), so the
 * webview bundle imports it too.
 *
 *     ref id         parse_config   a letter or digit, then up to 127 letters, digits, `_`, `.` or `-`
 *     descriptor id  fd:3           `fd:N`, `ref:<ref id>` (the latest version) or `ref:<ref id>@N`,
 *                    ref:x@2        N a whole number from 1 written without leading zeros
 *     entity id      2-1            a Structs type code 0-11, a dash and an index from 1, no leading zeros
 */

// ---- Ref and descriptor ids ---------------------------------------------------------------------

/** A ref id as unanchored regular-expression source, to build scanners from. */
export const REF_ID_SOURCE = '[A-Za-z0-9][A-Za-z0-9_.-]{0,127}';

/** The ref id rule in words, for messages that quote {@link REF_ID}. */
export const REF_ID_RULE = "a letter or digit, then up to 127 letters, digits, '_', '.' or '-'";

const NUMBER_SOURCE = '[1-9][0-9]*';

/** A descriptor id (`fd:3`, `ref:x`, `ref:x@2`) as unanchored regular-expression source, to build scanners from. */
export const DESCRIPTOR_ID_SOURCE = `(?:ref:${REF_ID_SOURCE}(?:@${NUMBER_SOURCE})?|fd:${NUMBER_SOURCE})`;

/** Exactly a ref id (without `ref:`). */
export const REF_ID = new RegExp(`^${REF_ID_SOURCE}$`);

/** Exactly an `fd:N` descriptor id. */
export const FD_ID = new RegExp(`^fd:${NUMBER_SOURCE}$`);

/** Exactly a descriptor id: `fd:N`, `ref:x` or `ref:x@N`. */
export const DESCRIPTOR_ID = new RegExp(`^${DESCRIPTOR_ID_SOURCE}$`);

const DESCRIPTOR_ID_PARTS = new RegExp(`^(?:fd:(${NUMBER_SOURCE})|ref:(${REF_ID_SOURCE})(?:@(${NUMBER_SOURCE}))?)$`);

/**
 * A descriptor id taken apart: `fd:3` is `{ kind: 'fd', number: 3 }`, `ref:x@2` is
 * `{ kind: 'ref', refId: 'x', version: 2 }` and `ref:x` (the latest version) has no `version`.
 */
export type DescriptorIdParts =
  | { readonly kind: 'fd'; readonly number: number }
  | { readonly kind: 'ref'; readonly refId: string; readonly version?: number };

/** Whether `value` is exactly a ref id (without `ref:`); no trimming. */
export function isRefId(value: string): boolean {
  return REF_ID.test(value);
}

/** Whether `value` is exactly a descriptor id (`fd:N`, `ref:x`, `ref:x@N`); no trimming. */
export function isDescriptorId(value: string): boolean {
  return DESCRIPTOR_ID.test(value);
}

/**
 * The parts of descriptor id `id`, or undefined when it is not exactly one. Numbers are read with
 * `Number`, so past `Number.MAX_SAFE_INTEGER` they come back rounded; no descriptor has such a number.
 */
export function parseDescriptorId(id: string): DescriptorIdParts | undefined {
  const match = DESCRIPTOR_ID_PARTS.exec(id);
  if (!match) return undefined;
  const [, fd, refId, version] = match;
  if (fd !== undefined) return { kind: 'fd', number: Number(fd) };
  return version === undefined
    ? { kind: 'ref', refId: refId as string }
    : { kind: 'ref', refId: refId as string, version: Number(version) };
}

/** The descriptor id of `parts`: `fd:3`, `ref:x`, `ref:x@2` (the inverse of {@link parseDescriptorId}). */
export function formatDescriptorId(parts: DescriptorIdParts): string {
  if (parts.kind === 'fd') return `fd:${parts.number}`;
  return parts.version === undefined ? `ref:${parts.refId}` : `ref:${parts.refId}@${parts.version}`;
}

/** The descriptor id of ref `refId`: `ref:x` (its latest version), or `ref:x@2` with a `version`. */
export function refDescriptorId(refId: string, version?: number): string {
  return version === undefined
    ? formatDescriptorId({ kind: 'ref', refId })
    : formatDescriptorId({ kind: 'ref', refId, version });
}

/** `fd` or `ref`, by the prefix of `id` alone (`fd:`, `ref:`); undefined for any other text. */
export function descriptorKindOf(id: string): DescriptorIdParts['kind'] | undefined {
  return id.startsWith('fd:') ? 'fd' : id.startsWith('ref:') ? 'ref' : undefined;
}

/** The text of a descriptor id after its prefix: `3` for `fd:3`, `x@2` for `ref:x@2`; other text as it is. */
export function descriptorIdBody(id: string): string {
  const kind = descriptorKindOf(id);
  return kind === undefined ? id : id.slice(kind.length + 1);
}

/**
 * `body` with the prefix of `kind`: `fd:3`, `ref:x@2` (the inverse of {@link descriptorIdBody}). Not
 * checked against the grammar: callers that read it from outside check it with {@link isDescriptorId}.
 */
export function prefixedDescriptorId(kind: DescriptorIdParts['kind'], body: string): string {
  return `${kind}:${body}`;
}

/** What a person or a model wrote as a descriptor: a descriptor id as it is, anything else as a ref id (`x` is `ref:x`). */
export function asDescriptorId(written: string): string {
  return descriptorKindOf(written) === undefined ? prefixedDescriptorId('ref', written) : written;
}

// ---- Structs entity ids -------------------------------------------------------------------------

/**
 * An entity id taken apart: `2-1` is `{ typeCode: 2, index: '1' }`. The index stays text: Structs
 * indices are uint64, past what a JavaScript number holds exactly.
 */
export interface EntityIdParts {
  readonly typeCode: number;
  readonly index: string;
}

/**
 * Most index digits an entity id the chat webview asks about may have: every 19-digit number fits a
 * uint64, and the bound keeps a hover request small.
 */
export const MAX_HOVERABLE_INDEX_DIGITS = 19;

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const DASH = 45;

/**
 * The type code of `value` when it is exactly an entity id, otherwise undefined. No trimming:
 * `" 2-7 "` is not an id. Written as a character scan because it runs on every string of a payload.
 */
export function entityTypeCodeOfId(value: string): number | undefined {
  const length = value.length;
  if (length < 3) return undefined;
  const first = value.charCodeAt(0);
  if (first < DIGIT_0 || first > DIGIT_9) return undefined;
  let code = first - DIGIT_0;
  let dash = 1;
  const second = value.charCodeAt(1);
  if (second !== DASH) {
    // Two-digit codes are 10 and 11 only.
    if (first !== DIGIT_0 + 1 || (second !== DIGIT_0 && second !== DIGIT_0 + 1)) return undefined;
    code = 10 + (second - DIGIT_0);
    dash = 2;
    if (value.charCodeAt(2) !== DASH) return undefined;
  }
  const indexStart = dash + 1;
  if (indexStart >= length) return undefined;
  const lead = value.charCodeAt(indexStart);
  if (lead <= DIGIT_0 || lead > DIGIT_9) return undefined; // no leading zero, index >= 1
  for (let i = indexStart + 1; i < length; i++) {
    const c = value.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) return undefined;
  }
  return code;
}

/** Whether `value` is exactly an entity id (see {@link entityTypeCodeOfId}). */
export function isEntityId(value: unknown): value is string {
  return typeof value === 'string' && entityTypeCodeOfId(value) !== undefined;
}

/** The parts of entity id `id`, or undefined when it is not exactly one. */
export function parseEntityId(id: string): EntityIdParts | undefined {
  const typeCode = entityTypeCodeOfId(id);
  return typeCode === undefined ? undefined : { typeCode, index: id.slice(id.indexOf('-') + 1) };
}

/** The entity id of `parts`: `2-1` (the inverse of {@link parseEntityId}). */
export function formatEntityId(parts: EntityIdParts): string {
  return `${parts.typeCode}-${parts.index}`;
}

/** Whether `value` is an entity id the chat webview may ask the extension about (its index has at most {@link MAX_HOVERABLE_INDEX_DIGITS} digits). */
export function isHoverableEntityId(value: string): boolean {
  const parts = parseEntityId(value);
  return parts !== undefined && parts.index.length <= MAX_HOVERABLE_INDEX_DIGITS;
}
