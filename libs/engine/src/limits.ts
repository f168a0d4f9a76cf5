/**
 * Bounds that keep one analysis linear and small. Each one throws `EngineLimitError` when crossed,
 * before any quadratic or recursive work can start.
 */
export const ENGINE_LIMITS = {
  /** interface.md section 8: markup is at most 500 KB, counted in UTF-8 bytes. */
  maxInputBytes: 500 * 1024,
  /** Real emails nest 20-60 elements deep; 1 000 leaves room for ghost tables while bounding walks. */
  maxNestingDepth: 1000,
  /** `{` nesting inside one `<style>` block or `style` attribute; real CSS nests 3-4 deep. */
  maxCssNestingDepth: 64,
  /** Rules and at-rules summed over every `<style>` block; the largest real newsletters use ~2 000. */
  maxCssRules: 20000,
} as const;
