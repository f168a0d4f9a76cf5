import { CompileError, compileEmail, disposeCompilers } from '../index';

afterAll(() => disposeCompilers());

const TEMPLATE = `---
title: Your receipt
preheader: Thanks for your order
bodyClass: bg-slate-50
items:
  - name: Notebook
    price: 12
  - name: Pen
    price: 3
---

<x-main>
  <table class="w-full">
    <tr>
      <td class="p-6 sm:p-4 bg-white text-slate-700">
        <h1 class="m-0 text-2xl">{{ page.title }}</h1>
        <each loop="item, index in page.items">
          <p class="m-0">{{ index + 1 }}. {{ item.name }}: {{ item.price.toFixed(2) }}<if condition="loop.last"> (last)</if></p>
        </each>
        <if condition="page.items.length > 5">
          <p>many</p>
        </if>
        <elseif condition="page.items.length > 1">
          <p>several items</p>
        </elseif>
        <else>
          <p>one</p>
        </else>
        <x-button href="https://mailproof.test/orders" class="bg-indigo-700 hover:bg-indigo-800 text-white">View order</x-button>
        <x-spacer height="32px" />
        <p>Dear {{ customer_name }}, {{{ '<b>raw</b>' }}} @{{ kept }} {{#if vip}}VIP{{/if}}</p>
        <outlook><p>Only in Outlook</p></outlook>
      </td>
    </tr>
  </table>
</x-main>
`;

describe('maizzle', () => {
  let html: string;
  let warnings: Array<{ message: string; line?: number }>;

  beforeAll(async () => {
    ({ html, warnings } = await compileEmail(TEMPLATE, 'maizzle'));
  });

  it('wraps <x-main> content in the built-in layout with front matter values', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<title>Your receipt</title>');
    expect(html).toContain('Thanks for your order');
    expect(html).toMatch(/<div role="article"/);
  });

  it('evaluates {{ }} expressions, <each> with loop metadata and <if>/<elseif>/<else>', () => {
    expect(html).toContain('1. Notebook: 12.00');
    expect(html).toContain('2. Pen: 3.00 (last)');
    expect(html).toContain('several items');
    expect(html).not.toContain('many');
    expect(html).not.toMatch(/<p[^>]*>one<\/p>/);
  });

  it('leaves unknown locals, @{{ }} and Handlebars blocks as written, and outputs {{{ }}} unescaped', () => {
    expect(html).toContain('Dear {{ customer_name }}');
    expect(html).toContain('<b>raw</b>');
    expect(html).toContain('{{ kept }}');
    expect(html).not.toContain('@{{ kept }}');
    expect(html).toContain('{{#if vip}}VIP{{/if}}');
  });

  it('compiles Tailwind with the email preset and inlines it, keeping responsive rules with safe class names', () => {
    expect(html).toMatch(/<td class="[^"]*"[^>]*style="[^"]*padding: 24px/);
    expect(html).toMatch(/@media \(max-width: 600px\)/);
    expect(html).toContain('.sm-p-4');
    expect(html).toContain('sm-p-4');
    expect(html).not.toContain('sm:p-4');
    expect(html).toContain('.hover-bg-indigo-800:hover');
    expect(html).not.toContain('@tailwind');
  });

  it('renders built-in components and <outlook>', () => {
    expect(html).toContain('href="https://mailproof.test/orders"');
    expect(html).toContain('View order');
    expect(html).toMatch(/role="separator"[^>]*line-height: 32px/);
    expect(html).toContain('<!--[if mso]><p>Only in Outlook</p><![endif]-->');
  });

  it('produces no warnings for a template that only uses supported features', () => {
    expect(warnings).toEqual([]);
  });

  it('supports <extends> of the built-in layout with a template block', async () => {
    const result = await compileEmail(
      '<extends src="src/layouts/main.html">\n  <block name="template"><p class="m-0">Block body</p></block>\n</extends>',
      'maizzle',
    );
    expect(result.html).toContain('Block body');
    expect(result.html).toContain('<meta name="x-apple-disable-message-reformatting">');
  });

  it('warns about components it cannot resolve and keeps their content', async () => {
    const result = await compileEmail('<div>\n  <x-header>Top</x-header>\n</div>', 'maizzle');
    expect(result.html).toContain('Top');
    expect(result.warnings).toEqual([
      { message: expect.stringMatching(/<x-header> is neither among the files sent with the email nor a built-in component/), line: 2 },
    ]);
  });

  it('reports expression errors with the line in the original source (front matter counted)', async () => {
    const error = await compileEmail('---\ntitle: x\n---\n<p>ok</p>\n<p>{{ page.title.toUpperCase().nope() }}</p>', 'maizzle').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompileError);
    expect(error).toMatchObject({ format: 'maizzle', line: 5, message: expect.stringMatching(/TypeError/) });
  });

  it('reports invalid front matter as a CompileError with its line', async () => {
    await expect(compileEmail('---\ntitle: [unclosed\n---\n<p>x</p>', 'maizzle')).rejects.toMatchObject({ name: 'CompileError', line: expect.any(Number) });
  });
});
