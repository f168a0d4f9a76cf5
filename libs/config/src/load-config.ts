import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ConfigValidationError } from './config.error';
import { parseDataKeys } from './data-keys';
import { DEVELOPMENT_DEFAULTS, EnvironmentVariables } from './environment.schema';
import { MailproofConfig } from './mailproof.config';
import { isSecretSetting, placeholderProblems } from './secret-settings';

type EnvSource = Record<string, string | undefined>;

/**
 * Reads and validates the environment once. Unknown variables are ignored; a missing or wrong
 * value throws ConfigValidationError naming the variable. Outside production, connection
 * settings fall back to a local developer setup.
 */
export function validateEnvironment(env: EnvSource = process.env): EnvironmentVariables {
  const known = Object.keys(new EnvironmentVariables()).concat(Object.keys(DEVELOPMENT_DEFAULTS), [
    'CHROMIUM_PATH',
    'RATE_LIMIT_REDIS_URL',
    'REDIS_CLUSTER_NODES',
    'TRUSTED_PROXIES',
    'SPAMASSASSIN_HOST',
    'METRICS_TOKEN',
    'SSRF_ALLOWED_ADDRESSES',
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'MAILPROOF_DATA_KEYS',
    'TRACING',
  ]);
  const raw: Record<string, string> = {};
  for (const name of new Set(known)) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const production = (raw.NODE_ENV ?? 'development') === 'production';
  if (!production) {
    for (const [name, value] of Object.entries(DEVELOPMENT_DEFAULTS)) raw[name] ??= value;
  }
  const instance = plainToInstance(EnvironmentVariables, raw, { exposeDefaultValues: true });
  const errors = validateSync(instance, { forbidUnknownValues: false });
  // A placeholder is named as such, instead of whatever format rule it also breaks.
  const placeholders = placeholderProblems(raw, production);
  const problems: Array<{ variable: string; message: string }> = [...placeholders];
  for (const error of errors) {
    if (placeholders.some((problem) => problem.variable === error.property)) continue;
    const value = (raw as Record<string, unknown>)[error.property];
    // A credential's value never goes into the error (it ends up in logs).
    const got = isSecretSetting(error.property) ? '' : ` (got "${String(value).slice(0, 80)}")`;
    const message =
      value === undefined ? 'is required' + (production ? ' when NODE_ENV=production' : '') : `${Object.values(error.constraints ?? {}).join('; ')}${got}`;
    problems.push({ variable: error.property, message });
  }
  if (production && raw.SSRF_ALLOWED_ADDRESSES !== undefined) {
    problems.push({
      variable: 'SSRF_ALLOWED_ADDRESSES',
      message: 'must not be set when NODE_ENV=production: it lets server-side fetches reach private addresses',
    });
  }
  if (raw.REDIS_CLUSTER_NODES !== undefined && !problems.some((p) => p.variable === 'REDIS_URL') && !/^\/?0?$/.test(new URL(raw.REDIS_URL).pathname)) {
    problems.push({ variable: 'REDIS_URL', message: 'must name database 0 (or none) when REDIS_CLUSTER_NODES is set: a Redis Cluster has only database 0' });
  }
  problems.push(...dataKeyProblems(raw.MAILPROOF_DATA_KEYS, production, problems));
  if (problems.length > 0) throw new ConfigValidationError(problems);
  return instance;
}

/** MAILPROOF_DATA_KEYS: required in production; each key 32 bytes, each id once (the pattern is the schema's; the public development key: secret-settings.ts). */
function dataKeyProblems(value: string | undefined, production: boolean, found: Array<{ variable: string }>): Array<{ variable: string; message: string }> {
  const variable = 'MAILPROOF_DATA_KEYS';
  if (value === undefined) {
    return production ? [{ variable, message: 'is required when NODE_ENV=production: the keys that encrypt stored emails (docs/privacy.md)' }] : [];
  }
  if (found.some((problem) => problem.variable === variable)) return [];
  return parseDataKeys(value).problems.map((message) => ({ variable, message }));
}

export function loadConfig(env: EnvSource = process.env): MailproofConfig {
  return MailproofConfig.fromEnvironment(validateEnvironment(env));
}
