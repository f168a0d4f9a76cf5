import { closeAtEndOfInput, parseDeclarationList, parseStylesheet } from './css-syntax';

describe('closeAtEndOfInput', () => {
  it('closes a string left open at the end, with its own quote', () => {
    expect(closeAtEndOfInput('font-family:"Arial')).toBe('font-family:"Arial"');
    expect(closeAtEndOfInput("font-family:'Arial")).toBe("font-family:'Arial'");
    expect(closeAtEndOfInput(`background:"${'\\"'.repeat(3)}`)).toBe(`background:"${'\\"'.repeat(3)}"`);
  });

  it('drops a trailing escape with nothing to escape, so the added quote is not escaped by it', () => {
    expect(closeAtEndOfInput('content:"a\\')).toBe('content:"a"');
    expect(closeAtEndOfInput('content:"a\\\\')).toBe('content:"a\\\\"');
  });

  it('closes an unquoted url( left open at the end', () => {
    expect(closeAtEndOfInput('background:url(a.png')).toBe('background:url(a.png)');
    expect(closeAtEndOfInput('background:URL(a.png')).toBe('background:URL(a.png)');
    expect(closeAtEndOfInput('background:url(url(url(')).toBe('background:url(url(url()');
  });

  it('returns text with nothing left open as it is', () => {
    for (const text of [
      'p{color:red}',
      'font-family:"Arial", \'Helvetica\'',
      'background:url(a"b.png)',
      'background:url( "a.png")',
      'content:"\\""',
      '/* "unclosed in a comment */ p{color:red}',
      'p{color:red} /* a comment left open',
      'content:\\"',
      'width:calc((100% - 2px) / 2)',
    ]) {
      expect(closeAtEndOfInput(text)).toBe(text);
    }
  });

  it('reads a quote inside an unquoted url( as part of the url, as postcss does', () => {
    expect(closeAtEndOfInput('background:url(a"b.png)')).toBe('background:url(a"b.png)');
    expect(closeAtEndOfInput('background:url(a"b.png); content:"x')).toBe('background:url(a"b.png); content:"x"');
  });
});

describe('the parsers read what is left open at the end as CSS does', () => {
  it('a style attribute whose last string is unclosed keeps its declaration', () => {
    expect(parseDeclarationList('color:red; font-family:"Arial')).toEqual([
      expect.objectContaining({ property: 'color', value: 'red' }),
      expect.objectContaining({ property: 'font-family', value: '"Arial"' }),
    ]);
  });

  it('a stylesheet ending in an unclosed url( keeps its rule', () => {
    const root = parseStylesheet('p{color:red}td{background:url(bg.png');
    const declarations: string[] = [];
    root.walkDecls((decl) => void declarations.push(`${decl.prop}:${decl.value}`));
    expect(declarations).toEqual(['color:red', 'background:url(bg.png)']);
  });
});
