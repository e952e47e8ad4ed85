// A small JSON Schema (2020-12) checker for the keywords our OpenAPI document uses, so the tests
// can hold real responses against the published document without a new dependency. It throws
// on a keyword it does not know, so the document cannot quietly outgrow it.

type Schema = Record<string, unknown> | boolean;

const KNOWN = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref',
  'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems',
  'format', 'description', 'default', 'title', 'examples', 'propertyNames', 'readOnly', 'writeOnly', 'deprecated', 'nullable',
]);

export function validate(schema: Schema, value: unknown, root: Record<string, unknown>, path = '$'): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: no value is allowed here`];
  for (const k of Object.keys(schema)) if (!KNOWN.has(k) && !k.startsWith('x-')) throw new Error(`json-schema.ts does not know the keyword "${k}" (at ${path})`);
  const errors: string[] = [];
  const s = schema as Record<string, any>;
  if (s.$ref) {
    const target = (s.$ref as string).replace(/^#\//, '').split('/').reduce((o: any, k) => o?.[k], root);
    if (!target) return [`${path}: unresolved $ref ${s.$ref}`];
    errors.push(...validate(target, value, root, path));
  }
  if (s.type !== undefined) {
    const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => typeOk(t, value))) return [`${path}: expected ${types.join('|')}, got ${JSON.stringify(value)?.slice(0, 80)}`];
  }
  if (s.enum && !s.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value))) errors.push(`${path}: ${JSON.stringify(value)} not in enum`);
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value)) errors.push(`${path}: expected const ${JSON.stringify(s.const)}`);
  if (typeof value === 'string') {
    if (s.pattern && !new RegExp(s.pattern, 'u').test(value)) errors.push(`${path}: "${value}" does not match ${s.pattern}`);
    if (s.minLength !== undefined && [...value].length < s.minLength) errors.push(`${path}: shorter than ${s.minLength}`);
    if (s.maxLength !== undefined && [...value].length > s.maxLength) errors.push(`${path}: longer than ${s.maxLength}`);
  }
  if (typeof value === 'number') {
    if (s.minimum !== undefined && value < s.minimum) errors.push(`${path}: below ${s.minimum}`);
    if (s.maximum !== undefined && value > s.maximum) errors.push(`${path}: above ${s.maximum}`);
    if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) errors.push(`${path}: not above ${s.exclusiveMinimum}`);
    if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum) errors.push(`${path}: not below ${s.exclusiveMaximum}`);
  }
  if (Array.isArray(value)) {
    if (s.items !== undefined) value.forEach((v, i) => errors.push(...validate(s.items, v, root, `${path}[${i}]`)));
    if (s.minItems !== undefined && value.length < s.minItems) errors.push(`${path}: fewer than ${s.minItems} items`);
    if (s.maxItems !== undefined && value.length > s.maxItems) errors.push(`${path}: more than ${s.maxItems} items`);
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const r of s.required ?? []) if (!(r in obj)) errors.push(`${path}: missing required "${r}"`);
    const props = s.properties ?? {};
    for (const [k, v] of Object.entries(obj)) {
      if (k in props) errors.push(...validate(props[k], v, root, `${path}.${k}`));
      else if (s.additionalProperties !== undefined) errors.push(...validate(s.additionalProperties, v, root, `${path}.${k}`));
      if (s.propertyNames) errors.push(...validate(s.propertyNames, k, root, `${path}{${k}}`));
    }
  }
  if (s.allOf) for (const sub of s.allOf) errors.push(...validate(sub, value, root, path));
  if (s.anyOf && !s.anyOf.some((sub: Schema) => validate(sub, value, root, path).length === 0)) {
    errors.push(`${path}: matches none of anyOf (${s.anyOf.map((sub: Schema) => validate(sub, value, root, path)[0]).join('; ')})`);
  }
  if (s.oneOf) {
    const n = s.oneOf.filter((sub: Schema) => validate(sub, value, root, path).length === 0).length;
    if (n !== 1) errors.push(`${path}: matches ${n} of oneOf, not exactly one`);
  }
  return errors;
}

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case 'null':
      return v === null;
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'array':
      return Array.isArray(v);
    case 'object':
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    default:
      return typeof v === type;
  }
}
