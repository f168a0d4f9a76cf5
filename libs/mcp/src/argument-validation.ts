import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { CLIENT_IDS } from '@mailproof/engine';
import type { FieldError } from '@mailproof/contracts';
import type { JsonSchema } from './tool-inputs';

/**
 * Checks tool arguments against the tool's input schema (Ajv, the validator the MCP SDK uses) and
 * turns each failure into `{ field, message }` as the HTTP API's 400s do (`clients.1`, `html`...).
 * Byte limits are ours: JSON Schema counts characters, the API counts UTF-8 bytes.
 */
export class ArgumentValidator {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly compiled = new Map<JsonSchema, ValidateFunction>();

  check(schema: JsonSchema, args: unknown): FieldError[] {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(advertisedSchema(schema));
      this.compiled.set(schema, validate);
    }
    if (!validate(args)) return dedupe((validate.errors ?? []).map(fieldError));
    return byteLimitErrors(schema, args as Record<string, unknown>);
  }
}

/** The schema as clients see it: our `maxUtf8Bytes` keyword becomes words in the description. */
export function advertisedSchema(schema: JsonSchema): JsonSchema {
  const { maxUtf8Bytes, properties, items, ...rest } = schema;
  const copy: JsonSchema = { ...rest };
  if (properties) copy.properties = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, advertisedSchema(property)]));
  if (items) copy.items = advertisedSchema(items);
  if (typeof maxUtf8Bytes === 'number' && !(copy.description ?? '').includes('bytes')) {
    copy.description = `${copy.description ?? ''} At most ${maxUtf8Bytes} bytes as UTF-8.`.trim();
  }
  return copy;
}

function byteLimitErrors(schema: JsonSchema, args: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = args[name];
    if (typeof property.maxUtf8Bytes === 'number' && typeof value === 'string' && Buffer.byteLength(value, 'utf8') > property.maxUtf8Bytes) {
      errors.push({ field: name, message: `must be at most ${property.maxUtf8Bytes} bytes as UTF-8 (500 KB); it is ${Buffer.byteLength(value, 'utf8')}` });
    }
  }
  return errors;
}

function fieldError(error: ErrorObject): FieldError {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  switch (error.keyword) {
    case 'required':
      return { field: [...path, error.params.missingProperty as string].join('.'), message: 'is required' };
    case 'additionalProperties':
      return { field: [...path, error.params.additionalProperty as string].join('.'), message: 'is not an argument of this tool' };
    case 'enum': {
      const allowed = error.params.allowedValues as unknown[];
      const isClientList = allowed.length === CLIENT_IDS.length && CLIENT_IDS.every((id) => allowed.includes(id));
      return { field: path.join('.') || '(arguments)', message: `must be one of ${isClientList ? 'the client ids' : 'the values'}: ${allowed.join(', ')}` };
    }
    default:
      return { field: path.join('.') || '(arguments)', message: error.message ?? 'is invalid' };
  }
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = `${error.field}\u0000${error.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
