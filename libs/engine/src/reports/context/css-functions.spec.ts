import { resolveLightDark, substituteVariables } from './css-functions';

describe('css functions in color values', () => {
  const variables: Record<string, string> = { '--a': '#111111', '--b': 'var(--a)', '--loop': 'var(--loop)', '--empty': ' ' };
  const lookup = (name: string) => variables[name];

  it('substitutes var() with the variable, nested variables and fallbacks', () => {
    expect(substituteVariables('var(--a)', lookup)).toBe('#111111');
    expect(substituteVariables('1px solid var(--b)', lookup)).toBe('1px solid #111111');
    expect(substituteVariables('var(--none, rgb(1, 2, 3))', lookup)).toBe('rgb(1, 2, 3)');
    expect(substituteVariables('var(--none, var(--a))', lookup)).toBe('#111111');
    expect(substituteVariables('#ffffff', lookup)).toBe('#ffffff');
  });

  it('makes an unknown variable without fallback, an empty one or a cycle invalid (null)', () => {
    expect(substituteVariables('var(--none)', lookup)).toBeNull();
    expect(substituteVariables('var(--empty)', lookup)).toBeNull();
    expect(substituteVariables('var(--loop)', lookup)).toBeNull();
    expect(substituteVariables('var(--a', lookup)).toBeNull();
  });

  it('picks the light or dark argument of light-dark()', () => {
    expect(resolveLightDark('light-dark(#ffffff, rgb(0, 0, 0))', false)).toBe('#ffffff');
    expect(resolveLightDark('light-dark(#ffffff, rgb(0, 0, 0))', true)).toBe('rgb(0, 0, 0)');
    expect(resolveLightDark('light-dark(#ffffff)', true)).toBeNull();
    expect(resolveLightDark('not-light-dark(#ffffff, #000000)', true)).toBe('not-light-dark(#ffffff, #000000)');
  });
});
