import { CompileError, compileEmail, disposeCompilers } from './index';

afterAll(() => disposeCompilers());

// Small projects written for these tests: an email and the files it imports, keyed relative to the email.
const JSX_EMAIL = `import { Html, Body, Tailwind } from '@react-email/components';
import { Banner } from '../ui/Banner';
import config from '../../tailwind.config';

export default function Welcome() {
  return (
    <Html>
      <Tailwind config={config}>
        <Body><Banner title="Welcome aboard" /></Body>
      </Tailwind>
    </Html>
  );
}
`;

const JSX_FILES = {
  '../ui/Banner.tsx': `import { Heading } from '@react-email/components';
import { brand } from './brand';
export function Banner({ title }: { title: string }) {
  return <Heading className="text-brand" data-brand={brand.name}>{title}</Heading>;
}
`,
  '../ui/brand.ts': `export const brand = { name: 'Northwind' } as const;\n`,
  '../../tailwind.config.ts': `import type { Config } from 'tailwindcss';
export default { theme: { extend: { colors: { brand: '#0b5fff' } } } } satisfies Config;
`,
};

describe('files beside the email', () => {
  it('jsx: bundles relative imports (components, a Tailwind config) from files, inside the sandbox', async () => {
    const result = await compileEmail(JSX_EMAIL, 'jsx', { files: JSX_FILES });
    expect(result.html).toContain('Welcome aboard');
    expect(result.html).toContain('data-brand="Northwind"');
    // The config's color reached Tailwind: the class became an inline color.
    expect(result.html).toMatch(/color:rgb\(11,95,255\)/);
  });

  it('jsx: an import that is not in files is refused at its line, naming the path', async () => {
    const withoutBrand = { '../ui/Banner.tsx': JSX_FILES['../ui/Banner.tsx'], '../../tailwind.config.ts': JSX_FILES['../../tailwind.config.ts'] };
    const error = (await compileEmail(JSX_EMAIL, 'jsx', { files: withoutBrand }).catch((e: unknown) => e)) as CompileError;
    expect(error).toBeInstanceOf(CompileError);
    // The Banner file imports ./brand, which is missing: the message names the importing file and its line.
    expect(error.message).toMatch(/^\.\.\/ui\/Banner\.tsx:2:\d+: Import of "\.\/brand" is not among the files/);
    const direct = (await compileEmail(JSX_EMAIL, 'jsx').catch((e: unknown) => e)) as CompileError;
    expect(direct).toMatchObject({ line: 2, message: expect.stringContaining('Import of "../ui/Banner" is not among the files') });
  });

  it('jsx: files never reach the disk or other packages', async () => {
    const source = `import data from './secret';\nexport default function E() { return <p>{String(data)}</p>; }\n`;
    const files = { 'secret.ts': `export { readFileSync as default } from 'fs';\n` };
    await expect(compileEmail(source, 'jsx', { files })).rejects.toMatchObject({
      message: expect.stringMatching(/secret\.ts:1:\d+: Import of "fs" is not allowed/),
    });
  });

  it('refuses keys that are not relative paths, and files over the total size', async () => {
    await expect(compileEmail('<p>x</p>', 'jsx', { files: { '/etc/passwd': 'x' } })).rejects.toMatchObject({
      message: expect.stringMatching(/must be a relative path/),
    });
    const large = 'x'.repeat(300_000);
    await expect(compileEmail(large, 'mjml', { files: { 'a.mjml': large } })).rejects.toMatchObject({ message: expect.stringMatching(/the limit is 512000/) });
  });

  it('mjml: expands mj-include from files (mjml documents, fragments, css and html) with validation lines in the author files', async () => {
    const email = `<mjml>
  <mj-head>
    <mj-include path="./partials/theme.css" type="css" />
  </mj-head>
  <mj-body>
    <mj-include path="./partials/header" />
    <mj-section><mj-column><mj-text font-size="13">Body text</mj-text></mj-column></mj-section>
    <mj-include path="./partials/footer.html" type="html" />
  </mj-body>
</mjml>`;
    const files = {
      'partials/header.mjml': `<mjml>
  <mj-head><mj-title>From the header</mj-title></mj-head>
  <mj-body>
    <mj-section><mj-column>
      <mj-text padding="oops">Header text</mj-text>
    </mj-column></mj-section>
  </mj-body>
</mjml>`,
      'partials/theme.css': '.brand { color: #0b5fff; }',
      'partials/footer.html': '<p class="footer">Footer text</p>',
    };
    const result = await compileEmail(email, 'mjml', { files });
    expect(result.html).toContain('Header text');
    expect(result.html).toContain('Footer text');
    expect(result.html).toContain('.brand { color: #0b5fff; }');
    expect(result.html).toContain('<title>From the header</title>');
    const messages = result.warnings.map((warning) => [warning.line, warning.message]);
    expect(messages).toEqual([
      [6, expect.stringMatching(/^partials\/header\.mjml line 5: <mj-text>: Attribute padding/)],
      [7, expect.stringMatching(/^<mj-text>: Attribute font-size/)],
    ]);
  });

  it('mjml: an include missing from files is a warning at its line (soft) and an error with strict', async () => {
    const email = `<mjml>\n  <mj-body>\n    <mj-include path="../../../../etc/passwd" />\n    <mj-section><mj-column><mj-text>Hi</mj-text></mj-column></mj-section>\n  </mj-body>\n</mjml>`;
    const soft = await compileEmail(email, 'mjml');
    expect(soft.html).not.toMatch(/root:x:0:0/);
    expect(soft.warnings).toEqual([
      { line: 3, message: expect.stringMatching(/mj-include path="\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd">: the file is not among the files/) },
    ]);
    await expect(compileEmail(email, 'mjml', { mjmlValidation: 'strict' })).rejects.toMatchObject({ line: 3 });
  });

  it('mjml: a circular include stops with a warning', async () => {
    const email = `<mjml><mj-body>\n<mj-include path="a.mjml" />\n</mj-body></mjml>`;
    const result = await compileEmail(email, 'mjml', {
      files: { 'a.mjml': '<mj-include path="./a.mjml" /><mj-section><mj-column><mj-text>A</mj-text></mj-column></mj-section>' },
    });
    expect(result.html).toContain('>A<');
    expect(result.warnings).toEqual([{ line: 2, message: expect.stringMatching(/^a\.mjml line 1: .*circular/) }]);
  });

  it('maizzle: resolves the project layout, <x-name> components and <component src> from files', async () => {
    const email = `---
title: Receipt
---
<x-main>
  <x-receipt.header :total="12 + 30">Thanks, {{ page.title }}</x-receipt.header>
  <component src="components/footer.html" note="see you"></component>
</x-main>`;
    const files = {
      '../layouts/main.html': `<!DOCTYPE html><html><head><title>{{ page.title }}</title></head><body class="project-layout"><yield /></body></html>`,
      '../components/receipt/header.html': `<h1 class="m-0">Total {{ props.total }}: <yield /></h1>`,
      '../components/footer.html': `<p>{{ props.note }}</p>`,
    };
    const result = await compileEmail(email, 'maizzle', { files });
    expect(result.html).toContain('class="project-layout"');
    expect(result.html).toMatch(/<h1[^>]*>Total 42: Thanks, Receipt<\/h1>/);
    expect(result.html).toContain('<p>see you</p>');
  });

  it('maizzle: a failing expression inside a project file names the file, at the line of the tag that used it', async () => {
    const email = `<x-main>\n  <p>hello</p>\n  <x-broken />\n</x-main>`;
    const files = { 'components/broken.html': `<p>{{ undefinedThing.call() }}</p>` };
    await expect(compileEmail(email, 'maizzle', { files })).rejects.toMatchObject({
      line: 3,
      message: expect.stringMatching(/^components\/broken\.html: Expression \{\{ undefinedThing\.call\(\) \}\} failed/),
    });
  });

  it('maizzle: a component that uses itself stops at the nesting limit', async () => {
    const files = { 'components/loop.html': `<div><x-loop /></div>` };
    await expect(compileEmail(`<x-loop />`, 'maizzle', { files })).rejects.toMatchObject({ message: expect.stringMatching(/nest more than 20 deep/) });
  });
});
