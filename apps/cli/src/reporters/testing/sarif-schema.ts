// Test helper: the official SARIF 2.1.0 schema (the JSON Schema draft-04 file @microsoft/jest-sarif ships, as
// SchemaStore publishes it) compiled with ajv 8 and its draft-04 dialect.
import { readFileSync } from 'node:fs';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

let validator: ValidateFunction | undefined;

export function sarifValidator(): ValidateFunction {
  if (!validator) {
    const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as object;
    // unicodeRegExp off: the schema's `language` pattern has a stray `]` that only a non-unicode RegExp accepts
    // (as JSON Schema's ECMA-262 patterns were read when the schema was written); strict off for its draft-04 ids.
    const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
    // The schema's formats (uri, uri-reference, date-time) are checked too.
    addFormats(ajv);
    validator = ajv.compile(schema);
  }
  return validator;
}
