/** Checks that published JSON Schemas use only the standard vocabulary (shared by the core's and the MCP server's tests). */

/**
 * Every keyword of JSON Schema draft-07 and 2020-12 (core, applicator, validation, meta-data, format, content,
 * unevaluated): what a model API that checks a tool's schema may accept. Anything else in a published schema is
 * a keyword of our own that such an API may refuse.
 */
const JSON_SCHEMA_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$ref',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$vocabulary',
  '$comment',
  '$defs',
  'definitions',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'prefixItems',
  'items',
  'additionalItems',
  'contains',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'dependencies',
  'unevaluatedItems',
  'unevaluatedProperties',
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'format',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);
/** Keywords whose value is a map of names to schemas, one schema, or a list of schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const ONE_SCHEMA = [
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalProperties',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];

/** `where: keyword` for every keyword outside the vocabulary in `schema` and its subschemas. */
export function foreignKeywords(schema: unknown, where: string): string[] {
  if (typeof schema === 'boolean') return [];
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [`${where}: not a schema`];
  const found: string[] = [];
  const record = schema as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (!JSON_SCHEMA_KEYWORDS.has(key)) found.push(`${where}: ${key}`);
    if (SCHEMA_MAPS.includes(key) && typeof value === 'object' && value !== null)
      for (const [name, sub] of Object.entries(value)) found.push(...foreignKeywords(sub, `${where}.${key}.${name}`));
    if (SCHEMA_LISTS.includes(key) && Array.isArray(value))
      value.forEach((sub, i) => found.push(...foreignKeywords(sub, `${where}.${key}[${i}]`)));
    if (ONE_SCHEMA.includes(key)) found.push(...foreignKeywords(value, `${where}.${key}`));
    if (key === 'items')
      (Array.isArray(value) ? value : [value]).forEach((sub, i) =>
        found.push(...foreignKeywords(sub, `${where}.items[${i}]`)),
      );
  }
  return found;
}
