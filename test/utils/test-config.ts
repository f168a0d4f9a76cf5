import { loadConfig, type MailproofConfig } from '@mailproof/config';

/** The validated config for a test, from the test environment plus overrides (as env variable names). */
export function testConfig(overrides: Record<string, string | number | boolean> = {}): MailproofConfig {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const [name, value] of Object.entries(overrides)) env[name] = String(value);
  return loadConfig(env);
}
