import fc from 'fast-check';
import { parentElement, textContent } from './dom';
import { parseEmail } from './parse-email';
import { blankTemplateTags, findPrologueTemplateTags } from './template-prologue';

const HEAD = '<meta charset="utf-8">\n<title>{{ subject }}</title>\n<style>\n  body { margin: 0 }\n  .note { color: #0b0c0c }\n</style>';
const page = (prefix: string, betweenHead = '') =>
  `${prefix}<!DOCTYPE html>\n<html lang="en">\n<head>\n${betweenHead}${HEAD}\n</head>\n<body>\n<p class="note">Hello {{ name }}</p>\n</body>\n</html>\n{% endif %}`;

/** Where the parse put each of the head's elements. */
function parentsOf(html: string, tags: string[]): string[] {
  const parsed = parseEmail(html);
  return tags.map((tag) => parentElement(parsed.elementsByTag.get(tag)![0])!.tagName);
}

describe('template syntax in front of the head', () => {
  it.each([
    ['Jinja', '{% if complete_html %}\n', ['{% if complete_html %}']],
    ['Jinja with whitespace control and a comment', '{%- extends "base.html" -%}\n{# the layout #}\n', ['{%- extends "base.html" -%}', '{# the layout #}']],
    ['Liquid', '{% assign brand = "Acme" %}\n{% layout none %}\n', ['{% assign brand = "Acme" %}', '{% layout none %}']],
    ['Handlebars', '{{#if fullPage}}{{> header }}{{{ raw }}}\n', ['{{#if fullPage}}', '{{> header }}', '{{{ raw }}}']],
    ['ERB', '<% if full_page %>\n', ['<% if full_page %>']],
  ])('%s before <!doctype> leaves the head in the head and the doctype recognized', (_, prefix, tags) => {
    const html = page(prefix);
    expect(parentsOf(html, ['meta', 'title', 'style'])).toEqual(['head', 'head', 'head']);
    const parsed = parseEmail(html);
    expect(parsed.doctype).not.toBeNull();
    expect(parsed.prologueTemplateTags.map((tag) => tag.text)).toEqual(tags);
    // Nothing of the prologue or the CSS reaches the body's text (the closing tag after </html> is body text, as in a browser).
    expect(textContent(parsed.elementsByTag.get('body')![0]).replace(/\s+/g, ' ').trim()).toBe('Hello {{ name }} {% endif %}');
  });

  it('handles template blocks between head elements the same way', () => {
    const html = page('', '{% block head %}{% endblock %}\n');
    expect(parentsOf(html, ['meta', 'title', 'style'])).toEqual(['head', 'head', 'head']);
  });

  it('keeps every position the submitted markup has', () => {
    const html = page('{% if complete_html %}\n');
    const parsed = parseEmail(html);
    const style = parsed.elementsByTag.get('style')![0];
    expect(style.sourceCodeLocation!.startLine).toBe(html.slice(0, html.indexOf('<style>')).split('\n').length);
    expect(parsed.styleSheets[0].line).toBe(style.sourceCodeLocation!.startLine);
    expect(parsed.source).toBe(html);
    expect(parsed.prologueTemplateTags[0]).toEqual({ offset: 0, text: '{% if complete_html %}' });
  });

  it('leaves template syntax alone where it is the body content, in the title and in the CSS', () => {
    expect(findPrologueTemplateTags('{{ greeting }}, welcome!<table><tr><td>x</td></tr></table>')).toEqual([]);
    expect(
      findPrologueTemplateTags('<html><head><title>{{ subject }}</title><style>p { color: {{ brand }} }</style></head><body>{{ x }}</body></html>'),
    ).toEqual([]);
    expect(findPrologueTemplateTags('<!doctype html><html><head></head>{{ x }}<body></body></html>')).toEqual([]);
  });

  it('blanks tags to the same length, line breaks kept', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            '{% if a %}',
            '{{ b }}',
            '{#\nc\n#}',
            '<% d %>',
            '\n',
            ' ',
            '<!-- e -->',
            '<meta charset="utf-8">',
            '<title>t</title>',
            '<style>s{}</style>',
            '<!doctype html>',
            '<head>',
          ),
          { maxLength: 12 },
        ),
        (parts) => {
          const html = `${parts.join('')}<body><p>x</p></body>`;
          const blanked = blankTemplateTags(html, findPrologueTemplateTags(html));
          expect(blanked.length).toBe(html.length);
          expect(blanked.split('\n').length).toBe(html.split('\n').length);
          expect(blanked.endsWith('<body><p>x</p></body>')).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('template prologue on hostile input', () => {
  it('reads 60,000 template tags, or an opener that never closes, in front of the head without trouble', () => {
    const many = `${'{%x%}'.repeat(60_000)}<!doctype html><html><head><style>p{}</style></head><body><p>x</p></body></html>`;
    expect(parseEmail(many).prologueTemplateTags).toHaveLength(60_000);
    expect(parentElement(parseEmail(many).elementsByTag.get('style')![0])!.tagName).toBe('head');
    const unclosed = `{{ ${'a'.repeat(300_000)}<!doctype html><p>x</p>`;
    expect(findPrologueTemplateTags(unclosed)).toEqual([]);
  });
});
