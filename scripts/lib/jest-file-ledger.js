// A jest reporter that notes, as it happens, that the test files began (jest's global setup is over by
// then), each file started and each file finished with its outcome: one JSON object a line in the file
// named by MAILPROOF_JEST_LEDGER, appended synchronously. jest writes its JSON report only when the whole
// run ends, so a pass stopped at its time budget is read from this ledger (scripts/lib/jest-run.js).
'use strict';
const fs = require('node:fs');

class JestFileLedger {
  constructor() {
    this.file = process.env.MAILPROOF_JEST_LEDGER;
  }

  note(entry) {
    if (this.file) fs.appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
  }

  onRunStart(results) {
    this.note({ event: 'run-start', files: results.numTotalTestSuites });
  }

  onTestFileStart(test) {
    this.note({ event: 'file-start', path: test.path });
  }

  onTestFileResult(test, result) {
    const outcome = result.testExecError ? 'error' : result.numFailingTests > 0 ? 'failed' : 'passed';
    this.note({
      event: 'file-done',
      path: test.path,
      outcome,
      passed: result.numPassingTests,
      failed: result.numFailingTests,
      skipped: result.numPendingTests + result.numTodoTests,
    });
  }
}

module.exports = JestFileLedger;
