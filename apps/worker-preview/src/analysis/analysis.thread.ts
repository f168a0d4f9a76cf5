import { analyzeEmail, EngineLimitError, type AnalyzeEmailOptions, type PreviewAnalysis } from '@mailproof/engine';

export interface AnalysisTask {
  html: string;
  options: AnalyzeEmailOptions;
}

/** What the worker's own checks (SpamAssassin, image weights) read and may replace. */
export type CheckInputs = Pick<PreviewAnalysis, 'spamReport' | 'imageReport' | 'plainText' | 'inboxPreview'>;

/**
 * The analysis leaves the thread mostly as JSON text: a structured clone of the whole object
 * graph (thousands of small report objects) costs more than the analysis' own serialisation.
 * Only the reports the worker's checks complete travel as objects, to be appended afterwards.
 * Errors lose their class crossing a thread boundary, so engine limits come back as data.
 */
export type AnalysisOutcome =
  | { kind: 'analysis'; overallScore: number; otherFieldsJson: string; checkInputs: CheckInputs }
  | { kind: 'limit'; message: string };

/** Runs in a worker thread of the analysis pool (and inline where threads cannot load TypeScript). */
export default function analyse(task: AnalysisTask): AnalysisOutcome {
  let analysis: PreviewAnalysis;
  try {
    analysis = analyzeEmail(task.html, task.options);
  } catch (error) {
    if (error instanceof EngineLimitError) return { kind: 'limit', message: error.message };
    throw error;
  }
  const { spamReport, imageReport, ...others } = analysis;
  return {
    kind: 'analysis',
    overallScore: analysis.overallScore,
    otherFieldsJson: JSON.stringify(others),
    checkInputs: { spamReport, imageReport, plainText: analysis.plainText, inboxPreview: analysis.inboxPreview },
  };
}
