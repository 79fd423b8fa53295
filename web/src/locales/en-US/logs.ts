/** The error log and the log exports (docs/logs.md). */
export default {
  'errorLog.type': 'Error type',
  'errorLog.error': 'Error',
  'errorLog.occurredAt': 'Occurrence time',
  'errorLog.createdAt': 'Created time',
  'logs.export': 'Export',
  'logs.exporting': 'Preparing the xlsx file…',
  'logs.userFilter': 'Only the rows of user {{name}}',
  'logs.userFilter.clear': 'Show every user',
};
