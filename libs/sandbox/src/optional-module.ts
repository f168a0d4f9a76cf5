/**
 * A module loaded when its process starts whose packages may not be installed: the command-line package installs
 * each template format's compilers on demand (docs/cli.md, "The package"), so a process that compiles MJML may have
 * no isolated-vm or Tailwind. Loading at start keeps the load out of every compile's time limit, as before; a module
 * that could not load fails, with its loader's error, only the work that needs it.
 */
export type OptionalModule<T> = { loaded: true; module: T } | { loaded: false; error: unknown };

export function loadOptional<T>(load: () => T): OptionalModule<T> {
  try {
    return { loaded: true, module: load() };
  } catch (error) {
    return { loaded: false, error };
  }
}

/** The module, or its load error thrown again. */
export function required<T>(entry: OptionalModule<T>): T {
  if (entry.loaded) return entry.module;
  throw entry.error;
}
