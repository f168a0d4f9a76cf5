import fc from 'fast-check';
import { parentElement } from './dom';
import { parseEmail } from './parse-email';
import { textContent as reportText } from '../reports/context/report-document';

/** The parent numbers as a second walk would find them: each element's parent element's position in `elements`. */
function parentsFromTheTree(html: string): number[] {
  const parsed = parseEmail(html);
  return parsed.elements.map((element) => {
    const parent = parentElement(element);
    return parent ? parsed.elements.indexOf(parent) : -1;
  });
}

describe('parseEmail element parents', () => {
  it('notes each element parent by its number, found by the numbering walk itself', () => {
    const html =
      '<!doctype html><html><head><title>t</title><style>p{color:red}</style></head><body><table><tr><td><p>a<b>b</b></p></td><td></td></tr></table><div><span>c</span></div></body></html>';
    const parsed = parseEmail(html);
    const names = parsed.elements.map((element) => element.tagName);
    const parentName = (tag: string): string | null => {
      const parent = parsed.elementParents[names.indexOf(tag)];
      return parent === -1 ? null : names[parent];
    };
    expect(parentName('html')).toBeNull();
    expect(parentName('head')).toBe('html');
    expect(parentName('tbody')).toBe('table'); // implied by the parser
    expect(parentName('b')).toBe('p');
    expect(parentName('span')).toBe('div');
    expect(parsed.elementParents).toEqual(parentsFromTheTree(html));
  });

  it('gives the top of a template content no parent element, and keeps counting after it', () => {
    const html = '<body><template><div><i>x</i></div><p>y</p></template><section><em>z</em></section><svg><g><rect/></g></svg></body>';
    const parsed = parseEmail(html);
    const names = parsed.elements.map((element) => element.tagName);
    expect(parsed.elementParents[names.indexOf('div')]).toBe(-1);
    expect(parsed.elementParents[names.indexOf('p')]).toBe(-1);
    expect(names[parsed.elementParents[names.indexOf('i')]]).toBe('div');
    expect(names[parsed.elementParents[names.indexOf('section')]]).toBe('body');
    expect(names[parsed.elementParents[names.indexOf('rect')]]).toBe('g');
    expect(parsed.elementParents).toEqual(parentsFromTheTree(html));
  });

  it('agrees with the tree on arbitrary markup', () => {
    const fragment = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom(
        '<div>',
        '</div>',
        '<p>',
        '</p>',
        '<table>',
        '<tr>',
        '<td>',
        '</td>',
        '</table>',
        '<template>',
        '</template>',
        '<svg>',
        '</svg>',
        '<b>',
        '</b>',
        '<li>',
        '<ul>',
        '<br>',
        '<!-- c -->',
        '<html>',
        '<body>',
        '<head>',
        '<select><option>',
      ),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 60 }), (parts) => {
        const html = parts.join('');
        expect(parseEmail(html).elementParents).toEqual(parentsFromTheTree(html));
      }),
      { numRuns: 300 },
    );
  });
});

describe('textContent of the reports', () => {
  it('never returns the CSS of a <style> or the code of a <script>, even asked for the element itself', () => {
    const parsed = parseEmail('<body><style>p { color: red }</style><script>var a = 1;</script><p>Hi</p></body>');
    expect(reportText(parsed.elementsByTag.get('style')![0])).toBe('');
    expect(reportText(parsed.elementsByTag.get('script')![0])).toBe('');
    expect(reportText(parsed.elementsByTag.get('body')![0]).trim()).toBe('Hi');
  });
});
