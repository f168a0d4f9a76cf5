import type { FixRule } from './fix-model';
import { commaSeparatedColors, genericFontFamily, gradientFallbackColor, normalizeImportant, sixDigitHex } from './rules/css-value-rules';
import { conditionalCommentRepair } from './rules/conditional-comments';
import { safeClassNames } from './rules/safe-class-names';
import { staticCssValues } from './rules/static-css-values';
import { bulletproofButton } from './rules/bulletproof-button';
import { inlineCss } from './rules/inline-css';
import { removeUnusedCss } from './rules/remove-unused-css';
import { vmlBackground } from './rules/vml-background';
import { documentLanguage, linkText } from './rules/author-suggestions';
import { appleReformattingMeta, colorSchemeMeta, decorativeImageAlt, layoutTableRole, officeDocumentSettings } from './rules/markup-rules';

/**
 * Every fix, in the order they are tried: when two touch the same characters, the earlier one is applied
 * and the later one waits for the next pass.
 */
export const FIX_RULES: readonly FixRule[] = [
  layoutTableRole,
  decorativeImageAlt,
  conditionalCommentRepair,
  officeDocumentSettings,
  appleReformattingMeta,
  colorSchemeMeta,
  staticCssValues,
  safeClassNames,
  normalizeImportant,
  commaSeparatedColors,
  sixDigitHex,
  genericFontFamily,
  gradientFallbackColor,
  // Suggestions only: they never edit, they list what only the author can write (in `skipped`).
  documentLanguage,
  linkText,
  // Layout tier (opt-in): visible changes, after every safe rule.
  inlineCss,
  vmlBackground,
  bulletproofButton,
  removeUnusedCss,
];
