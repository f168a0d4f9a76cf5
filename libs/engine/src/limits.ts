/**
 * Bounds that keep one analysis linear and small, checked before any quadratic or recursive work can
 * start. The document bounds throw `EngineLimitError`; a rule over a selector bound is skipped by the
 * analysis and reported as an `engine-limit` info finding (docs/engine.md, "Limits").
 */
export const ENGINE_LIMITS = {
  /** Markup is at most 500 KB, counted in UTF-8 bytes (the API's limit on html). */
  maxInputBytes: 500 * 1024,
  /** Real emails nest 20-60 elements deep; 1 000 leaves room for ghost tables while bounding walks. */
  maxNestingDepth: 1000,
  /** `{` nesting inside one `<style>` block or `style` attribute; real CSS nests 3-4 deep. */
  maxCssNestingDepth: 64,
  /** Rules and at-rules summed over every `<style>` block; the largest real newsletters use ~2 000. */
  maxCssRules: 20000,
  /**
   * Brackets nested in one rule's selector: `:not(`, `:is(`, `:where(`, `:has(`, `:nth-child(`, `[`, `(`.
   * Real selectors nest 1-2 deep (the corpus: 2); `:not` is parsed recursively, so this bounds the recursion.
   */
  maxSelectorNestingDepth: 16,
  /** Characters of one rule's selector text, the whole list as written (the corpus: at most 298). */
  maxSelectorLength: 8192,
  /** Selectors in one rule's comma-separated list (the corpus: at most 12; CSS resets: ~100). */
  maxSelectorListSize: 512,
} as const;

/**
 * Bounds of a whole message (`format: "eml"`, docs/messages.md), checked by a linear scan before the MIME
 * parser runs, so a bomb of nested parts or encoded words is refused in one pass. Each refusal is a
 * CompileError (422) whose `reason` names the bound.
 */
export const MESSAGE_LIMITS = {
  /** MIME parts, multipart containers included; newsletters have 2-10, with many inline images ~40. */
  maxParts: 200,
  /** multipart nesting (mixed > related > alternative is 3); real senders stay under 6. */
  maxNestingDepth: 16,
  /** Header fields summed over the message and every part; a delivered message has ~50-100 at the top. */
  maxHeaderFields: 2000,
  /** RFC 2047 encoded words (`=?charset?B?...?=`) summed over every header; a long encoded subject has ~10. */
  maxEncodedWords: 1000,
  /** One header field, unfolded; RFC 5322 lines stop at 998 and the longest real fields (DKIM-Signature, References) are a few KB. */
  maxHeaderFieldCharacters: 16 * 1024,
  /** DKIM-Signature fields at the top; an ESP signs once or twice (its domain and the sender's). */
  maxDkimSignatures: 10,
  /** A decoded HTML or text part is analyzed like markup, so it has markup's size limit. */
  maxDecodedPartBytes: ENGINE_LIMITS.maxInputBytes,
} as const;
