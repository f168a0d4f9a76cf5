/**
 * Accessibility of the email as screen readers and low-vision readers meet it: language, title, image
 * alternatives, names of links and buttons, table semantics, heading order, contrast and tiny text.
 */
import { HtmlElement, getAttribute, parentElement } from '../parse/dom';
import { checkContrast, type TextRun } from './context/contrast-check';
import { isDataTable } from './context/data-table';
import { isGenericLinkText } from './link-report';
import type { EmailImage, EmailLink, ReportContext } from './context/report-context';
import { textContent, type ReportDocument } from './context/report-document';
import { penaltyScore, sortIssues, type ReportIssue } from './context/report-issue';
import type { ReportStyles } from './context/report-styles';
import { collapseWhitespace, shorten } from './context/text-utils';

export interface AccessibilityReport {
  /** 100 − 12 per error − 6 per warning − 2 per info, each rule counted at most 3 times. */
  score: number;
  issues: ReportIssue[];
}

export const ACCESSIBILITY_WEIGHTS = { error: 12, warning: 6, info: 2 } as const;
export const ACCESSIBILITY_RULE_CAP = 3;
/** Text below this size is hard to read for anyone; iOS enlarges text under 13px on its own. */
export const TINY_TEXT_PX = 10;

const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.svg', '.avif', '.bmp'];
const REDUNDANT_ALT_PREFIXES = ['image of', 'picture of', 'photo of', 'graphic of', 'bild von', 'image de', 'imagen de', 'foto de'];

/** Alt text that is a file name ("hero_banner-v2.png", "IMG_2041", "DSC0001"). */
export function isFileNameAlt(alt: string): boolean {
  const lower = alt.trim().toLowerCase();
  // File names are short; the length bound also keeps the patterns below linear in practice.
  if (lower.length > 100 || (lower.includes(' ') && !IMAGE_EXTENSIONS.some((extension) => lower.endsWith(extension)))) return false;
  if (IMAGE_EXTENSIONS.some((extension) => lower.endsWith(extension))) return true;
  return /^(?:img|image|dsc|dscn|photo|pic|screenshot|spacer)[-_ ]?\d*$/.test(lower) || /^[\w-]+_\d{2,}$/.test(lower);
}

/** BCP 47 shape: primary language then subtags ("en", "en-GB", "zh-Hant-TW"). */
export function isValidLanguageTag(tag: string): boolean {
  if (tag.length > 35) return false;
  const parts = tag.split('-');
  if (!/^[a-z]{2,3}$/i.test(parts[0])) return false;
  return parts.slice(1).every((part) => /^[a-z0-9]{1,8}$/i.test(part));
}

function isDecorative(element: HtmlElement): boolean {
  const role = getAttribute(element, 'role');
  return getAttribute(element, 'aria-hidden') === 'true' || role === 'presentation' || role === 'none';
}

function hasAncestorOrSelf(element: HtmlElement, predicate: (candidate: HtmlElement) => boolean): boolean {
  for (let current: HtmlElement | null = element; current; current = parentElement(current)) if (predicate(current)) return true;
  return false;
}

function isAriaHidden(element: HtmlElement): boolean {
  return getAttribute(element, 'aria-hidden') === 'true';
}

/** Language: screen readers pick their voice and pronunciation from it. */
function checkLanguage(doc: ReportDocument, issues: ReportIssue[]): void {
  const htmlElement = doc.htmlElement;
  const lang = htmlElement ? (getAttribute(htmlElement, 'lang')?.trim() ?? getAttribute(htmlElement, 'xml:lang')?.trim()) : undefined;
  if (!lang) {
    issues.push({
      rule: 'missing-lang',
      severity: 'error',
      message: 'The <html> element has no lang attribute, so screen readers guess the language and may mispronounce every word.',
      ...(htmlElement ? doc.at(htmlElement) : {}),
    });
  } else if (!isValidLanguageTag(lang)) {
    issues.push({
      rule: 'invalid-lang',
      severity: 'warning',
      message: `lang="${shorten(lang, 30)}" is not a valid language tag such as "en" or "en-GB".`,
      ...(htmlElement ? doc.at(htmlElement) : {}),
    });
  }
}

function checkTitle(doc: ReportDocument, title: string | null, issues: ReportIssue[]): void {
  const titleElement = doc.byTag('title')[0];
  if (!titleElement || !title) {
    issues.push({
      rule: 'missing-title',
      severity: 'warning',
      message: 'The email has no <title> (or an empty one); web views and screen readers announce it as the document name.',
      ...(titleElement ? doc.at(titleElement) : {}),
    });
  }
}

/** Alt text of the images a screen reader announces: missing, a file name, redundant or too long. */
function checkImageAlternatives(doc: ReportDocument, images: readonly EmailImage[], issues: ReportIssue[]): void {
  for (const image of images) {
    if (image.kind === 'background' || image.isTrackingPixel || image.hidden || isDecorative(image.element)) continue;
    if (image.alt === null) {
      issues.push({
        rule: 'img-missing-alt',
        severity: 'error',
        message:
          'The image has no alt attribute: screen readers read out its file name, and blocked images leave an empty box. Use alt="" if it is decorative.',
        ...doc.at(image.element),
        url: image.src,
      });
    } else if (image.alt.trim() !== '' && isFileNameAlt(image.alt)) {
      issues.push({
        rule: 'img-filename-alt',
        severity: 'error',
        message: `The alt text "${shorten(image.alt, 40)}" is a file name, not a description.`,
        ...doc.at(image.element),
        url: image.src,
      });
    } else {
      checkAltWording(doc, image, image.alt, issues);
    }
  }
}

/** An alt text that is present and not a file name may still say "image" again, or say too much. */
function checkAltWording(doc: ReportDocument, image: EmailImage, alt: string, issues: ReportIssue[]): void {
  const lower = alt.trim().toLowerCase();
  if (REDUNDANT_ALT_PREFIXES.some((prefix) => lower.startsWith(prefix))) {
    issues.push({
      rule: 'img-redundant-alt',
      severity: 'info',
      message: `Screen readers already say "image"; drop "${alt.trim().split(' ').slice(0, 2).join(' ')}" from the alt text.`,
      ...doc.at(image.element),
      url: image.src,
    });
  }
  if (alt.length > 150) {
    issues.push({
      rule: 'img-alt-too-long',
      severity: 'info',
      message: `The alt text is ${alt.length} characters; keep it under about 150 and put long content in the body.`,
      ...doc.at(image.element),
      url: image.src,
    });
  }
}

function checkLinkNames(doc: ReportDocument, links: readonly EmailLink[], issues: ReportIssue[]): void {
  for (const link of links) {
    if (link.hidden) continue;
    if (isAriaHidden(link.element)) {
      issues.push({
        rule: 'aria-hidden-link',
        severity: 'error',
        message: 'aria-hidden="true" hides this link from screen readers although it stays focusable and clickable.',
        ...doc.at(link.element),
        url: link.href,
      });
    } else if (link.accessibleName === '') {
      issues.push({
        rule: 'link-no-accessible-name',
        severity: 'error',
        message: 'The link has no text, aria-label or image alt; screen readers announce only "link".',
        ...doc.at(link.element),
        url: link.href,
      });
    } else if (isGenericLinkText(link.accessibleName)) {
      issues.push({
        rule: 'link-generic-text',
        severity: 'warning',
        message: `"${shorten(link.accessibleName, 40)}" does not say where the link goes; screen reader users often browse a list of links.`,
        ...doc.at(link.element),
        url: link.href,
      });
    }
  }
}

function checkButtonNames(doc: ReportDocument, styles: ReportStyles, issues: ReportIssue[]): void {
  for (const element of doc.parsed.elements) {
    const tag = element.tagName;
    const role = getAttribute(element, 'role');
    if (tag !== 'button' && tag !== 'input' && role !== 'button') continue;
    const type = getAttribute(element, 'type')?.toLowerCase();
    const isButton = tag === 'button' || role === 'button' || (tag === 'input' && (type === 'submit' || type === 'button' || type === 'reset'));
    if (!isButton || tag === 'a' || styles.hiddenReason(element) !== null) continue;
    const name =
      collapseWhitespace(getAttribute(element, 'aria-label') ?? getAttribute(element, 'value') ?? textContent(element)) ||
      collapseWhitespace(getAttribute(element, 'title') ?? '');
    if (!name) issues.push({ rule: 'button-no-accessible-name', severity: 'error', message: 'The button has no text or aria-label.', ...doc.at(element) });
  }
}

function checkLayoutTables(doc: ReportDocument, styles: ReportStyles, issues: ReportIssue[]): void {
  for (const table of doc.byTag('table')) {
    const role = getAttribute(table, 'role');
    if (role === 'presentation' || role === 'none' || styles.hiddenReason(table) !== null) continue;
    // A data table keeps its semantics: only layout tables get the advice.
    if (isDataTable(table, styles)) continue;
    issues.push({
      rule: 'layout-table-missing-role',
      severity: 'info',
      message: 'This layout table has no role="presentation"; screen readers announce its rows and columns before the content.',
      ...doc.at(table),
    });
  }
}

function checkHeadingOrder(doc: ReportDocument, styles: ReportStyles, issues: ReportIssue[]): void {
  let previousLevel = 0;
  for (const element of doc.parsed.elements) {
    const tag = element.tagName;
    if (tag.length !== 2 || tag[0] !== 'h' || tag[1] < '1' || tag[1] > '6' || styles.hiddenReason(element) !== null) continue;
    const level = Number(tag[1]);
    if (previousLevel > 0 && level > previousLevel + 1) {
      issues.push({
        rule: 'heading-skip',
        severity: 'warning',
        message: `An <h${level}> follows an <h${previousLevel}>; skipped heading levels break screen readers' outline navigation.`,
        ...doc.at(element),
      });
    }
    previousLevel = level;
  }
}

function checkTinyText(doc: ReportDocument, runs: readonly TextRun[], issues: ReportIssue[]): void {
  for (const run of runs) {
    const size = run.fontSizePx;
    if (size >= 2 && size < TINY_TEXT_PX && !hasAncestorOrSelf(run.element, isAriaHidden)) {
      issues.push({
        rule: 'tiny-text',
        severity: 'warning',
        message: `"${shorten(run.text, 40)}" is ${Math.round(size * 10) / 10}px; text under ${TINY_TEXT_PX}px is hard to read, and iOS enlarges text under 13px on its own, which can break the layout.`,
        ...doc.at(run.element),
      });
    }
  }
}

export function buildAccessibilityReport(context: ReportContext): AccessibilityReport {
  const { doc, styles } = context;
  const issues: ReportIssue[] = [];
  checkLanguage(doc, issues);
  checkTitle(doc, context.title, issues);
  checkImageAlternatives(doc, context.images, issues);
  checkLinkNames(doc, context.links, issues);
  checkButtonNames(doc, styles, issues);
  checkLayoutTables(doc, styles, issues);
  checkHeadingOrder(doc, styles, issues);
  const runs = context.textRuns;
  issues.push(...checkContrast(doc, context.light, runs, 'low-contrast'));
  checkTinyText(doc, runs, issues);
  sortIssues(issues);
  return { score: penaltyScore(issues, ACCESSIBILITY_WEIGHTS, ACCESSIBILITY_RULE_CAP), issues };
}
