import { XMLBuilder } from 'fast-xml-parser';
import type { CheckReport, ReportedFile, ReportedProblem } from './check-report';

function describeProblem(problem: ReportedProblem): string {
  const where = problem.line === undefined ? '' : `line ${problem.line}${problem.column === undefined ? '' : `, column ${problem.column}`}: `;
  const clients = problem.clients && problem.clients.length > 0 ? ` [${problem.clients.join(', ')}]` : '';
  return `${where}${problem.severity} ${problem.ruleId}: ${problem.message}${clients}${problem.help ? `\n${problem.help}` : ''}`;
}

function testCases(file: ReportedFile, command: string): object[] {
  const classname = file.file === '-' ? 'stdin' : file.file;
  if (file.outcome === 'error') {
    const [problem] = file.problems;
    return [
      {
        '@_name': `${command} ${classname}`,
        '@_classname': classname,
        error: { '@_message': problem?.message ?? 'not checked', '@_type': problem?.ruleId ?? 'error', '#text': problem ? describeProblem(problem) : '' },
      },
    ];
  }
  const blocking = file.problems.filter((problem) => problem.blocking);
  if (blocking.length === 0) return [{ '@_name': `${command} ${classname}`, '@_classname': classname }];
  return blocking.map((problem) => ({
    // One client named: the gate's per-client failures would otherwise share a name.
    '@_name': `${problem.ruleId}${problem.clients?.length === 1 ? ` in ${problem.clients[0]}` : ''}${problem.line === undefined ? '' : ` (line ${problem.line})`}`,
    '@_classname': classname,
    failure: { '@_message': problem.message, '@_type': problem.severity, '#text': describeProblem(problem) },
  }));
}

/**
 * JUnit XML for GitLab, Jenkins and Azure: a test suite per file; a failing test case per problem that failed
 * the command (a file without one is a single passing case), an erroring case for a file that could not be
 * checked. Problems that did not fail it (warnings, notes) are listed in the suite's system-out.
 */
export function toJunit(report: CheckReport): string {
  const suites = report.files.map((file) => {
    const cases = testCases(file, report.command);
    const failures = cases.filter((testCase) => 'failure' in testCase).length;
    const errors = cases.filter((testCase) => 'error' in testCase).length;
    const other = file.problems.filter((problem) => !problem.blocking && file.outcome !== 'error');
    return {
      '@_name': file.file === '-' ? 'stdin' : file.file,
      '@_tests': cases.length,
      '@_failures': failures,
      '@_errors': errors,
      '@_skipped': 0,
      ...(file.score === undefined ? {} : { properties: { property: [{ '@_name': 'score', '@_value': file.score }] } }),
      testcase: cases,
      ...(other.length > 0 ? { 'system-out': other.map(describeProblem).join('\n') } : {}),
    };
  });
  const total = (key: '@_tests' | '@_failures' | '@_errors') => suites.reduce((sum, suite) => sum + suite[key], 0);
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, suppressEmptyNode: true });
  const body = builder.build({
    testsuites: {
      '@_name': `mailproof ${report.command}`,
      '@_tests': total('@_tests'),
      '@_failures': total('@_failures'),
      '@_errors': total('@_errors'),
      testsuite: suites,
    },
  }) as string;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}
