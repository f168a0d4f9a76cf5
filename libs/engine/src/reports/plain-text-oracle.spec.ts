/**
 * The plain text is html-to-text's reading of the whole email. buildPlainText hands html-to-text a much
 * smaller document (visible body only, plain blocks as generic tags, wrappers of blocks left out,
 * indentation at block boundaries dropped); these tests check that this never changes what html-to-text
 * prints, against html-to-text itself run on the complete markup with the same formatting options.
 */
import { convert, type HtmlToTextOptions } from 'html-to-text';
import { PLAIN_TEXT_WRAP } from './plain-text';
import { reports } from './testing/email-fixture';

/** The formatting buildPlainText promises, stated for the original tags. */
const ORACLE_OPTIONS: HtmlToTextOptions = {
  wordwrap: PLAIN_TEXT_WRAP,
  selectors: [
    { selector: 'a', options: { linkBrackets: ['<', '>'], hideLinkHrefIfSameAsText: true, noAnchorUrl: true } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false, leadingLineBreaks: 2, trailingLineBreaks: 1 } })),
    { selector: 'table', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 2 } },
    { selector: 'tr', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 2 } },
    { selector: 'td', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'th', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'hr', options: { length: 20 } },
  ],
};

/** The same clean-up buildPlainText applies to html-to-text's output. */
function oracle(html: string): string {
  return convert(html, ORACLE_OPTIONS)
    .replace(/[^\S\n]+(?=\n|$)/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function plainText(html: string): string {
  return reports(html).plainText.text;
}

/** A small deterministic generator (no dependency on Math.random, so a failure always reproduces). */
function generator(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
}

const WORDS = [
  'Spring sale',
  'Everything is 20% off until Sunday',
  ' lead',
  'trail ',
  ' ',
  '\n    ',
  '\n\t',
  '&amp; more',
  'x',
  'A sentence long enough to be wrapped by the formatter because it runs well past seventy-eight characters.',
];

/**
 * Valid HTML of the shapes emails use: nested layout tables, divs and sections, paragraphs and headings
 * holding inline content, lists, links, line breaks, rules, and indentation everywhere. Valid, so that
 * parse5 (the engine) and htmlparser2 (inside html-to-text) build the same tree.
 */
function randomBody(next: (n: number) => number): string {
  const inline = (depth: number): string => {
    let out = '';
    for (let i = 0, n = next(4); i < n; i++) {
      const pick = next(8);
      if (pick < 4 || depth > 2) out += WORDS[next(WORDS.length)];
      else if (pick === 4) out += '<br>';
      else if (pick === 5) out += `<a href="https://shop.test/${next(5)}">${WORDS[next(4)]}</a>`;
      else out += `<${pick === 6 ? 'b' : 'span'}>${inline(depth + 1)}</${pick === 6 ? 'b' : 'span'}>`;
    }
    return out;
  };
  const blocks = (depth: number): string => {
    let out = '';
    for (let i = 0, n = 1 + next(3); i < n; i++) {
      const pick = depth > 4 ? 0 : next(9);
      const space = WORDS[4 + next(3)];
      if (pick <= 1) out += `${space}<p>${inline(0)}</p>`;
      else if (pick === 2) {
        const level = 1 + next(3);
        out += `${space}<h${level}>${inline(1)}</h${level}>`;
      } else if (pick === 3) out += `${space}<div>${next(2) ? inline(0) : ''}${blocks(depth + 1)}${space}</div>`;
      else if (pick === 4) out += `${space}<section>${blocks(depth + 1)}</section>`;
      // List items with text: an empty item is left out on purpose (html-to-text would print a lone bullet).
      else if (pick === 5) out += `${space}<ul><li>Item ${inline(1)}</li>${space}<li>Item ${inline(1)}</li></ul>`;
      else if (pick === 6) out += `${space}<hr>`;
      else {
        let rows = '';
        for (let r = 0, rn = 1 + next(2); r < rn; r++) {
          let cells = '';
          for (let c = 0, cn = 1 + next(2); c < cn; c++) cells += `${space}<td>${next(2) ? inline(0) : blocks(depth + 1)}</td>`;
          rows += `${space}<tr>${cells}${space}</tr>`;
        }
        out += `${space}<table role="presentation"><tbody>${rows}</tbody></table>`;
      }
    }
    return out;
  };
  return blocks(0);
}

describe('plainText against html-to-text on the whole email', () => {
  it('prints nested layout tables, wrappers and indentation exactly as html-to-text does', () => {
    const html =
      '<html><body>\n  <table role="presentation"><tbody>\n    <tr>\n      <td>\n        <table><tbody><tr><td>\n          <div><section><h1>Spring sale</h1></section></div>\n' +
      '        </td></tr></tbody></table>\n      </td>\n    </tr>\n    <tr><td><p>Everything is 20% off.</p>\n<p>Until <a href="https://shop.test/sale">Sunday</a>.</p></td></tr>\n' +
      '    <tr><td>Left</td><td><div>Right <b>cell</b></div></td></tr>\n  </tbody></table>\n  <hr>\n  <p>Acme Inc</p>\n</body></html>';
    expect(plainText(html)).toBe(oracle(html));
    expect(plainText(html)).toBe(
      'Spring sale\n\nEverything is 20% off.\n\nUntil Sunday <https://shop.test/sale>.\n\nLeft\nRight cell\n\n--------------------\n\nAcme Inc',
    );
  });

  it('agrees with html-to-text on 400 generated emails', () => {
    const mismatches: string[] = [];
    for (let seed = 1; seed <= 400; seed++) {
      const html = `<!DOCTYPE html><html><head><title>t</title></head><body>${randomBody(generator(seed))}</body></html>`;
      if (plainText(html) !== oracle(html)) mismatches.push(html);
    }
    expect(mismatches).toEqual([]);
  });
});
