import type { AnalysisLike } from '@mailproof/mcp';

/**
 * The scores and CSS findings of a stored preview result (its JSON text), which is all analyze_email
 * and diff_emails read. Most of the ~700 KB is every client's rewritten markup (`transforms`, then
 * `darkMode`), and parsing it would be most of the MCP layer's cost: the two fields sit between those
 * and are parsed alone. The keys are matched with their quotes unescaped, which only the structure of
 * the JSON has (a quote inside a string is `\"`); any other layout falls back to parsing everything.
 */
export function scoresAndFindings(json: string, overallScore: number | null): AnalysisLike {
  const start = json.indexOf(',"compatibilityScores":');
  const end = start < 0 ? -1 : json.indexOf(',"darkMode":', start);
  if (end > start) {
    try {
      const part = JSON.parse(`{${json.slice(start + 1, end)}}`) as Partial<AnalysisLike>;
      if (part.compatibilityScores && Array.isArray(part.cssReport) && overallScore !== null) {
        return { overallScore, compatibilityScores: part.compatibilityScores, cssReport: part.cssReport };
      }
    } catch {
      // Not the expected layout: parse it all below.
    }
  }
  return JSON.parse(json) as AnalysisLike;
}
