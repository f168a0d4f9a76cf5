/** Thrown when the environment does not validate; its message names every bad variable. */
export class ConfigValidationError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      'Mailproof cannot start: invalid configuration.\n' +
        problems.map((p) => `  - ${p.variable}: ${p.message}`).join('\n') +
        '\nSee .env.example and docs/configuration.md.',
    );
    this.name = 'ConfigValidationError';
  }
}
