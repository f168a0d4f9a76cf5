import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { FORMAT_PACKAGES, installCommand, installSpec, missingPackages, requireFormatCompilers } from './format-compilers';

describe('the compilers each format needs', () => {
  it('HTML and .eml need none; each template format its compiler and esbuild', () => {
    expect(FORMAT_PACKAGES.html).toEqual([]);
    expect(FORMAT_PACKAGES.eml).toEqual([]);
    expect(FORMAT_PACKAGES.mjml).toEqual(['mjml', 'esbuild']);
    expect(FORMAT_PACKAGES.jsx).toEqual(expect.arrayContaining(['react', 'react-dom', '@react-email/components', 'esbuild', 'isolated-vm']));
    expect(FORMAT_PACKAGES.maizzle).toEqual(expect.arrayContaining(['tailwindcss', 'tailwindcss-preset-email', 'esbuild', 'isolated-vm']));
  });

  it('names the isolated-vm release that installs on the running Node', () => {
    expect(installSpec('isolated-vm', '20.19.0')).toBe('isolated-vm@5.0.4');
    expect(installSpec('isolated-vm', '24.3.0')).toBe('isolated-vm@6.2.0');
    expect(installSpec('mjml')).toBe('mjml@5.4.1');
  });

  it('gives an npm install command outside npx', () => {
    expect(installCommand(['mjml@5.4.1', 'esbuild@0.28.2'])).toBe('npm install mjml@5.4.1 esbuild@0.28.2');
  });

  it('finds every compiler installed in the repository, and says which are missing otherwise', () => {
    for (const format of Object.keys(FORMAT_PACKAGES) as Array<keyof typeof FORMAT_PACKAGES>) {
      expect(missingPackages(FORMAT_PACKAGES[format])).toEqual([]);
      expect(() => requireFormatCompilers(format, 'email')).not.toThrow();
    }
    expect(missingPackages(['mjml', 'no-such-package-mailproof'])).toEqual(['no-such-package-mailproof']);
  });

  it("the pre-commit hooks install exactly each format's compilers, at these versions (Node 22+ for isolated-vm)", () => {
    const hooks = parse(readFileSync(join(__dirname, '..', '..', '..', '..', '.pre-commit-hooks.yaml'), 'utf8')) as Array<{ id: string; entry: string }>;
    const packagesOf = (id: string) =>
      [...(hooks.find((hook) => hook.id === id)?.entry ?? '').matchAll(/--package=(\S+)/g)]
        .map((match) => match[1])
        .filter((spec) => !spec.startsWith('@mailproof/cli@'));
    expect(packagesOf('mailproof-lint')).toEqual([]);
    expect(packagesOf('mailproof-lint-mjml')).toEqual(FORMAT_PACKAGES.mjml.map((name) => installSpec(name, '22.0.0')));
    expect(packagesOf('mailproof-lint-jsx')).toEqual(FORMAT_PACKAGES.jsx.map((name) => installSpec(name, '22.0.0')));
    expect(packagesOf('mailproof-lint-maizzle')).toEqual(FORMAT_PACKAGES.maizzle.map((name) => installSpec(name, '22.0.0')));
  });
});
