/** 错误日志与日志导出（docs/logs.md）。 */
export default {
  'errorLog.type': '错误类型',
  'errorLog.error': '错误',
  'errorLog.occurredAt': '发生时间',
  'errorLog.createdAt': '创建时间',
  'logs.export': '导出',
  'logs.exporting': '正在生成 xlsx 文件…',
  'logs.userFilter': '仅显示用户 {{name}} 的记录',
  'logs.userFilter.clear': '显示全部用户',
};
