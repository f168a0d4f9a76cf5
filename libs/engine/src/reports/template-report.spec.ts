import { looksLikeTailwindClass, scanTemplateSyntax } from './template-report';
import { email, reports, rules } from './testing/email-fixture';

function template(body: string, format: 'html' | 'jsx' | 'mjml' | 'maizzle' = 'html', parts = {}) {
  return reports(email(body, parts), { format }).templateReport;
}

describe('templateReport', () => {
  it('finds nothing in a plain email, including percentages and CSS braces', () => {
    const report = template('<p>Save 20% today, 30% tomorrow. Prices in $ and [brackets].</p>', 'html', {
      head: '<style>p { color: #333333 } a{color:#0000ee}</style>',
    });
    expect(report).toMatchObject({ unresolvedCount: 0, tags: [], issues: [] });
  });

  it.each([
    ['<p>Hi {{ first_name }}</p>', 'mustache-style'],
    ['<p>Hi {{{ name }}}</p>', 'handlebars'],
    ['<p>Hi {{ name | capitalize }}</p>', 'liquid-jinja'],
    ['<p>{% if vip %}VIP{% endif %}</p>', 'liquid-jinja'],
    ['<p>Hi <%= user.name %></p>', 'erb'],
    ['<p>Hi *|FNAME|*</p>', 'mailchimp'],
    ['<p>Hi %%=v(@name)=%%</p>', 'ampscript'],
    ['<p>Hi %%FirstName%%</p>', 'ampscript'],
    ['<p>Hi [[var:firstname]]</p>', 'mailjet'],
    ['<p>Hi {{var:firstname:"there"}}</p>', 'mailjet'],
    ['<p>Hi [firstname,fallback=there]</p>', 'campaign-monitor'],
    ['<p>Hi %recipient.first_name%</p>', 'mailgun'],
    ['<p>Hi ${user.name}</p>', 'template-literal'],
  ])('finds %s as %s', (body, language) => {
    const report = template(body);
    expect(report.tags.map((tag) => tag.language)).toContain(language);
    expect(report.issues[0]).toMatchObject({ rule: 'unresolved-merge-tag', severity: 'warning', line: 1 });
  });

  it('scans attributes and counts repeats once per distinct tag', () => {
    const report = template(
      '<a href="https://acme.test/?u={{ user_id }}">Hi {{ user_id }}</a> <img alt="*|FNAME|*" src="https://acme.test/a.png" width="1" height="1">',
    );
    expect(report.unresolvedCount).toBe(3);
    expect(report.tags.find((tag) => tag.tag === '{{ user_id }}')).toMatchObject({ count: 2, location: 'attribute' });
  });

  it('reports unbalanced blocks and unclosed tags as errors', () => {
    expect(rules(template('<p>{% if vip %}VIP</p>').issues)).toContain('unbalanced-template-block');
    expect(rules(template('<p>{{#each items}}x</p>').issues)).toContain('unbalanced-template-block');
    expect(rules(template('<p>{% endfor %}</p>').issues)).toContain('unbalanced-template-block');
    expect(rules(template('<p>{{#if a}}{{/if}} {% for x in y %}{% endfor %} {% set z = 1 %}</p>').issues)).not.toContain('unbalanced-template-block');
    expect(rules(template('<p>Hello {{ name</p>').issues)).toContain('unclosed-template-tag');
  });

  it('finds Tailwind classes Maizzle left uninlined, but not classes a <style> rule uses', () => {
    const report = template('<p class="text-center sm:w-full keep-me">x</p><p class="hover:underline">y</p>', 'maizzle', {
      head: '<style>@media (max-width:600px){ .sm\\:w-full { width:100% !important } }</style>',
    });
    const issue = report.issues.find((item) => item.rule === 'uninlined-tailwind-class');
    expect(issue?.message).toContain('text-center');
    expect(issue?.message).not.toContain('sm:w-full');
    expect(looksLikeTailwindClass('px-6')).toBe(true);
    expect(looksLikeTailwindClass('w-[600px]')).toBe(true);
    expect(looksLikeTailwindClass('button')).toBe(false);
    expect(rules(template('<p class="text-center">x</p>', 'html').issues)).toEqual([]);
  });

  it('finds unrendered Maizzle, MJML and React leftovers', () => {
    expect(rules(template('<extends src="layout.html"><block name="x">y</block></extends>', 'maizzle').issues)).toContain('unrendered-maizzle-tag');
    expect(rules(template('<mj-section><mj-text>x</mj-text></mj-section>').issues)).toContain('unrendered-mjml');
    expect(rules(template('<x-button href="#">Go</x-button>').issues)).toContain('unrendered-component');
    const jsx = template(
      '<Button href="https://acme.test">Go</Button><p className="x">Hi {user.firstName}</p><img src="undefined" alt="x" width="1" height="1"><p>[object Object]</p>',
      'jsx',
    );
    expect(rules(jsx.issues)).toEqual(
      expect.arrayContaining(['unrendered-component', 'react-attribute-leftover', 'react-value-leftover', 'unresolved-merge-tag']),
    );
    expect(jsx.tags.map((tag) => tag.language)).toContain('jsx-expression');
    expect(template('<p>Hi {user.firstName}</p>', 'html').tags).toEqual([]);
  });

  it('passes MJML compile warnings through with their line', () => {
    const report = reports(email('<p>x</p>'), {
      format: 'mjml',
      compileWarnings: [{ message: 'mj-column has invalid attribute: color', line: 12 }],
    }).templateReport;
    expect(report.issues).toEqual([{ rule: 'mjml-validation', severity: 'warning', message: 'mj-column has invalid attribute: color', line: 12 }]);
  });

  // A quadratic scan of this input would not end within the test's timeout (no wall-clock assertion here).
  it('scans long hostile input to the end', () => {
    const hostile = '{{'.repeat(100_000) + '{%'.repeat(50_000) + '%%='.repeat(30_000);
    const result = scanTemplateSyntax(hostile, { jsx: true, css: false });
    expect(result.unclosed.length).toBeGreaterThan(0);
  }, 20_000);
});

describe('templateReport on template syntax in front of the head', () => {
  it('reports a block opened before <!doctype> and closed after </html> as balanced, with its line', () => {
    const html = `{% if complete_html %}\n${email('<p>Hello {{ name }}</p>')}\n{% endif %}`;
    const report = reports(html).templateReport;
    expect(rules(report.issues)).not.toContain('unbalanced-template-block');
    expect(report.tags.find((tag) => tag.tag === '{% if complete_html %}')).toMatchObject({ line: 1, column: 1, location: 'text' });
  });
});
