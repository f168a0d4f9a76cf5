import { DEVELOPMENT_DATA_KEYS } from './data-keys';

/**
 * The settings that hold credentials: a deployment keeps them in its secret store (deploy/k8s/base/secret.yaml
 * lists them), and the configuration errors never echo their values.
 */
export const SECRET_SETTINGS = ['DATABASE_URL', 'REDIS_URL', 'RATE_LIMIT_REDIS_URL', 'METRICS_TOKEN', 'MAILPROOF_DATA_KEYS'] as const;
export type SecretSetting = (typeof SECRET_SETTINGS)[number];

/**
 * Words that only a template's placeholder holds (`change-me-to-a-long-random-token`, `<password>`): a value that
 * contains one was copied from an example and never filled in, so it guards nothing.
 */
const PLACEHOLDER = /change[-_ ]?me|changeit|replace[-_ ]?me|fill[-_ ]?me|your[-_ ]?(password|token|secret|key)|<[^>]*>|placeholder|xxxxxx/i;

/** Values that are public (they are in this repository): accepted outside production only. */
const PUBLIC_VALUES: Partial<Record<SecretSetting, { text: string; what: string }>> = {
  MAILPROOF_DATA_KEYS: {
    text: DEVELOPMENT_DATA_KEYS.split(':')[1],
    what: 'the built-in development key, which is public: generate keys of your own (docs/privacy.md)',
  },
};

export function isSecretSetting(name: string): name is SecretSetting {
  return (SECRET_SETTINGS as readonly string[]).includes(name);
}

/**
 * The secret settings that hold a known placeholder (refused everywhere) or, in production, a public value;
 * one problem per variable, named, without the value.
 */
export function placeholderProblems(raw: Record<string, string | undefined>, production: boolean): Array<{ variable: SecretSetting; message: string }> {
  const problems: Array<{ variable: SecretSetting; message: string }> = [];
  for (const variable of SECRET_SETTINGS) {
    const value = raw[variable];
    if (value === undefined) continue;
    const known = PUBLIC_VALUES[variable];
    if (PLACEHOLDER.test(value)) {
      problems.push({
        variable,
        message: 'holds a placeholder (such as "change-me"), not a credential: set the real value from your secret store (docs/deploy.md)',
      });
    } else if (production && known && value.includes(known.text)) {
      problems.push({ variable, message: `holds ${known.what}` });
    }
  }
  return problems;
}
