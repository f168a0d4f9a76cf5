/**
 * Whether a `<table>` is a data table, by axe-core's heuristic (axe.commons.table.isDataTable), read from
 * the markup and the static cascade instead of a layout: header cells, a caption, `<thead>`/`<tfoot>`/
 * `<colgroup>`, header attributes, then the shape of the rows (five or more cells in the middle row,
 * bordered cells, rows painted differently, twenty rows or more). The layout steps axe measures are
 * read from the declared styles: a cell has a border when its declared border has a style and a width;
 * a table's width comes from the declared widths around it (isViewportWide).
 */
import { HtmlElement, childrenOf, getAttribute, isElement, parentElement } from '../../parse/dom';
import { parseCssColor, splitCssValue } from './color-utils';
import { lengthToPx, type ReportStyles } from './report-styles';

const DATA_ROLES = new Set(['grid', 'treegrid', 'table']);
const LANDMARK_ROLES = new Set(['banner', 'complementary', 'contentinfo', 'form', 'main', 'navigation', 'region', 'search']);
const BORDER_STYLES = new Set(['none', 'hidden', 'dotted', 'dashed', 'solid', 'double', 'groove', 'ridge', 'inset', 'outset']);
const SIDES = ['top', 'right', 'bottom', 'left'] as const;
type Side = (typeof SIDES)[number];

function childElements(element: HtmlElement): HtmlElement[] {
  return childrenOf(element).filter(isElement);
}

/** The table's rows as the DOM's `table.rows` lists them: `<thead>` rows, then body rows in order, then `<tfoot>` rows. */
function tableRows(table: HtmlElement): HtmlElement[] {
  const head: HtmlElement[] = [];
  const body: HtmlElement[] = [];
  const foot: HtmlElement[] = [];
  for (const child of childElements(table)) {
    if (child.tagName === 'tr') body.push(child);
    else if (child.tagName === 'thead' || child.tagName === 'tbody' || child.tagName === 'tfoot') {
      const target = child.tagName === 'thead' ? head : child.tagName === 'tfoot' ? foot : body;
      for (const row of childElements(child)) if (row.tagName === 'tr') target.push(row);
    }
  }
  return [...head, ...body, ...foot];
}

function hasDescendantTag(element: HtmlElement, tags: ReadonlySet<string>): boolean {
  const stack = childElements(element);
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (tags.has(current.tagName)) return true;
    stack.push(...childElements(current));
  }
  return false;
}

function isBorderWidth(token: string): boolean {
  return token === 'thin' || token === 'medium' || token === 'thick' || !Number.isNaN(lengthToPx(token));
}

function widthPx(token: string): number {
  if (token === 'thin') return 1;
  if (token === 'medium') return 3;
  if (token === 'thick') return 5;
  return lengthToPx(token);
}

/** The 1-4 values of a box shorthand spread over the four sides. */
function perSide(values: string[]): Record<Side, string> {
  const [top, right = top, bottom = top, left = right] = values;
  return { top, right, bottom, left };
}

/** Whether a cell's declared border (its `<style>` rules, then its `style`, important ones last) is painted on some side. */
function cellHasBorder(cell: HtmlElement, styles: ReportStyles, tableBorder: boolean): boolean {
  const sides: Record<Side, { style: string; width: number }> = {
    top: { style: tableBorder ? 'inset' : 'none', width: tableBorder ? 1 : 3 },
    right: { style: tableBorder ? 'inset' : 'none', width: tableBorder ? 1 : 3 },
    bottom: { style: tableBorder ? 'inset' : 'none', width: tableBorder ? 1 : 3 },
    left: { style: tableBorder ? 'inset' : 'none', width: tableBorder ? 1 : 3 },
  };
  const declarations = [...styles.matchedRules(cell).flatMap((rule) => rule.declarations), ...styles.inlineDeclarations(cell)].filter((d) =>
    d.property.startsWith('border'),
  );
  const ordered = [...declarations.filter((d) => !d.important), ...declarations.filter((d) => d.important)];
  for (const { property, value } of ordered) {
    const lower = value.toLowerCase();
    const tokens = splitCssValue(lower).filter((token) => token !== ',');
    const match = /^border(?:-(top|right|bottom|left))?(?:-(width|style))?$/.exec(property);
    if (!match) continue;
    const [, side, part] = match;
    const targets: Side[] = side ? [side as Side] : [...SIDES];
    if (!part) {
      // A shorthand resets what it leaves out: no style, a medium width.
      const style = tokens.find((token) => BORDER_STYLES.has(token)) ?? 'none';
      const width = tokens.find(isBorderWidth);
      for (const target of targets) sides[target] = { style, width: width === undefined ? 3 : widthPx(width) };
    } else if (side) {
      if (part === 'style') sides[side as Side].style = tokens[0] ?? 'none';
      else sides[side as Side].width = widthPx(tokens[0] ?? 'medium');
    } else {
      const values = perSide(tokens.length > 0 ? tokens.slice(0, 4) : ['none']);
      for (const target of SIDES) {
        if (part === 'style') sides[target].style = values[target];
        else sides[target].width = widthPx(values[target]);
      }
    }
  }
  return SIDES.some((side) => sides[side].style !== 'none' && sides[side].style !== 'hidden' && sides[side].width > 0);
}

/** A row's painted background as a comparable string (color and image, as getComputedStyle would differ). */
function rowBackground(row: HtmlElement, styles: ReportStyles): string {
  const color = styles.get(row, 'background-color');
  const parsed = color === undefined ? null : parseCssColor(color);
  const image = styles.get(row, 'background-image') ?? 'none';
  return `${parsed && parsed.alpha > 0 ? `${parsed.r},${parsed.g},${parsed.b},${parsed.alpha}` : 'transparent'}|${image}`;
}

/** The desktop width a first render assumes (as the reports' media handling does). */
const VIEWPORT_PX = 1024;

/**
 * Whether the table is wider than 95% of the viewport, from declared widths: its own percentage times its
 * ancestors' up to the first one declared in pixels (or the viewport). A table without a declared width
 * shrinks to its content, which is not known statically: not wide.
 */
function isViewportWide(table: HtmlElement, styles: ReportStyles): boolean {
  let factor = 1;
  for (let current: HtmlElement | null = table; current; current = parentElement(current)) {
    // A max-width in pixels caps the element, whatever its width: the table can be no wider.
    const declaredMax = styles.get(current, 'max-width') ?? '';
    const maxWidth = declaredMax.endsWith('%') ? Number.NaN : lengthToPx(declaredMax);
    if (!Number.isNaN(maxWidth) && maxWidth * factor <= VIEWPORT_PX * 0.95) return false;
    const width = (styles.get(current, 'width') ?? getAttribute(current, 'width'))?.trim().toLowerCase();
    if (width === undefined || width === '' || width === 'auto') {
      if (current === table) return false;
      continue;
    }
    if (width.endsWith('%')) {
      factor *= Number.parseFloat(width) / 100;
      continue;
    }
    const px = lengthToPx(width);
    if (Number.isNaN(px)) return false;
    return px * factor > VIEWPORT_PX * 0.95;
  }
  return factor > 0.95;
}

const NESTED_TABLE = new Set(['table']);
const EMBEDDED = new Set(['object', 'embed', 'iframe', 'applet']);

export function isDataTable(table: HtmlElement, styles: ReportStyles): boolean {
  const role = getAttribute(table, 'role')?.trim().toLowerCase() ?? '';
  if (role === 'presentation' || role === 'none') return false;
  if (getAttribute(table, 'contenteditable') === 'true') return true;
  if (DATA_ROLES.has(role) || LANDMARK_ROLES.has(role)) return true;
  if (getAttribute(table, 'datatable') === '0') return false;
  if (getAttribute(table, 'summary')) return true;
  const children = childElements(table);
  if (children.some((child) => child.tagName === 'thead' || child.tagName === 'tfoot' || child.tagName === 'caption' || child.tagName === 'colgroup'))
    return true;
  const rows = tableRows(table);
  const borderAttribute = getAttribute(table, 'border');
  const tableBorder = borderAttribute !== undefined && (borderAttribute.trim() === '' || Number.parseInt(borderAttribute, 10) > 0);
  let cells = 0;
  let hasBorder = false;
  for (const row of rows) {
    for (const cell of childElements(row)) {
      if (cell.tagName !== 'td' && cell.tagName !== 'th') continue;
      if (cell.tagName === 'th') return true;
      if (getAttribute(cell, 'scope') || getAttribute(cell, 'headers') || getAttribute(cell, 'abbr')) return true;
      const cellRole = getAttribute(cell, 'role')?.trim().toLowerCase();
      if (cellRole === 'columnheader' || cellRole === 'rowheader') return true;
      const cellChildren = childElements(cell);
      if (cellChildren.length === 1 && cellChildren[0].tagName === 'abbr') return true;
      if (!hasBorder && cellHasBorder(cell, styles, tableBorder)) hasBorder = true;
      cells++;
    }
  }
  if (hasDescendantTag(table, NESTED_TABLE)) return false;
  if (rows.length < 2) return false;
  const sampleCells = childElements(rows[Math.ceil(rows.length / 2)]).filter((cell) => cell.tagName === 'td' || cell.tagName === 'th');
  if (sampleCells.length === 1 && (Number.parseInt(getAttribute(sampleCells[0], 'colspan') ?? '1', 10) || 1) === 1) return false;
  if (sampleCells.length >= 5) return true;
  if (hasBorder) return true;
  const backgrounds = new Set(rows.map((row) => rowBackground(row, styles)));
  if (backgrounds.size > 1) return true;
  if (rows.length >= 20) return true;
  if (isViewportWide(table, styles)) return false;
  if (cells < 10) return false;
  return !hasDescendantTag(table, EMBEDDED);
}
