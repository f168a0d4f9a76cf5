import fc from 'fast-check';
import { CLIENT_IDS } from '../clients/email-client';
import { checkSelectorInvariant } from './selector-invariant';

/**
 * The selector invariant over generated emails (docs/clients.md, "Invariants"): for every client, a rule it
 * keeps matches in its markup exactly the elements it matched in the email, unless a behavior documents
 * the difference. The corpus run is `npm run check:fidelity-invariants`.
 */
const TAGS = ['div', 'p', 'span', 'a', 'table'] as const;

interface GeneratedNode {
  tag: (typeof TAGS)[number];
  classes: string[];
  id: string | null;
  title: boolean;
  children: GeneratedNode[];
}

/** Elements three levels deep at most (a recursive arbitrary without a bound overflows the stack). */
const nodeOf = (children: fc.Arbitrary<GeneratedNode[]>): fc.Arbitrary<GeneratedNode> =>
  fc.record({
    tag: fc.constantFrom(...TAGS),
    classes: fc.subarray(['a', 'b', 'c']),
    id: fc.option(fc.constantFrom('x', 'y'), { nil: null }),
    title: fc.boolean(),
    children,
  });
const leaf = nodeOf(fc.constant([]));
const middle = nodeOf(fc.array(leaf, { maxLength: 3 }));
const node = nodeOf(fc.array(middle, { maxLength: 3 }));

function markup(n: GeneratedNode): string {
  const attrs = `${n.classes.length > 0 ? ` class="${n.classes.join(' ')}"` : ''}${n.id ? ` id="${n.id}"` : ''}${n.title ? ' title="t"' : ''}`;
  const inner = n.children.map(markup).join('') || 'x';
  if (n.tag === 'table') return `<table${attrs}><tr><td>${inner}</td><td class="c">y</td></tr></table>`;
  if (n.tag === 'p' || n.tag === 'span' || n.tag === 'a')
    return `<${n.tag}${attrs}${n.tag === 'a' ? ' href="https://example.com/"' : ''}>${inner.replace(/<\/?(div|p|table|tr|td)\b[^>]*>/g, '')}</${n.tag}>`;
  return `<div${attrs}>${inner}</div>`;
}

const compound = fc
  .record({
    tag: fc.option(fc.constantFrom('div', 'p', 'span', 'a', 'td', 'table', 'body', '*'), { nil: null }),
    classes: fc.subarray(['a', 'b', 'c'], { maxLength: 2 }),
    id: fc.option(fc.constantFrom('x', 'y'), { nil: null }),
    attribute: fc.option(fc.constantFrom('[title]', '[title="t"]', '[class="a"]', '[id="x"]', '[class~="b"]'), { nil: null }),
    pseudo: fc.option(fc.constantFrom(':first-child', ':last-child', ':nth-child(2)'), { nil: null }),
  })
  .map((c) => `${c.tag ?? ''}${c.classes.map((name) => `.${name}`).join('')}${c.id ? `#${c.id}` : ''}${c.attribute ?? ''}${c.pseudo ?? ''}`)
  .filter((text) => text.length > 0);

const selector = fc
  .tuple(compound, fc.array(fc.tuple(fc.constantFrom(' ', ' > ', ' + ', ' ~ '), compound), { maxLength: 2 }))
  .map(([first, rest]) => first + rest.map(([combinator, next]) => combinator + next).join(''));

const rule = fc.record({ selectors: fc.array(selector, { minLength: 1, maxLength: 2 }), inMedia: fc.boolean() });

const email = fc
  .record({ body: fc.array(node, { minLength: 1, maxLength: 3 }), rules: fc.array(rule, { minLength: 1, maxLength: 5 }) })
  .map(({ body, rules }) => {
    const css = rules
      .map((r, i) => {
        const text = `${r.selectors.join(', ')}{color:#0000${(i + 16).toString(16)}}`;
        return r.inMedia ? `@media screen{${text}}` : text;
      })
      .join('\n');
    return `<!doctype html><html><head><style>${css}</style></head><body>${body.map(markup).join('')}</body></html>`;
  });

describe('selector invariant (every client, generated emails)', () => {
  it('a rewritten selector matches the elements it matched, unless a behavior documents the limit', () => {
    fc.assert(
      fc.property(email, (html) => {
        const result = checkSelectorInvariant(html, CLIENT_IDS);
        expect(result.violations).toEqual([]);
      }),
      { seed: 38, numRuns: 40 },
    );
  });

  it('compares the rules Yahoo scopes under its wrapper, and counts the documented limits apart', () => {
    const html =
      '<html><head><style>.box{width:600px} body .box{color:#333333} .a.b{color:#444444}</style></head><body><div class="box">x</div><p class="a b">y</p></body></html>';
    const yahoo = checkSelectorInvariant(html, ['yahoo-mail']);
    expect(yahoo.violations).toEqual([]);
    expect(yahoo.checked).toBe(2); // .box and .a.b
    expect(yahoo.limited).toBe(1); // body .box: body sits outside the #yiv… wrapper
    const outlook = checkSelectorInvariant(html, ['outlook-web']);
    expect(outlook.violations).toEqual([]);
    // .a.b: caniemail has Outlook.com drop chained selectors; where kept, only the first class is prefixed (a documented limit).
    expect(outlook.limited + outlook.dropped).toBe(1);
  });
});
