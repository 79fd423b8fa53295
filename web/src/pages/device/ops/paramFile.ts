/**
 * The device parameter import's file rule (docs/gateway.md, "Parameter import"): a .json file of
 * at most 5 MB. The server checks the content again and answers the same message.
 */
export const PARAM_FILE_MAX_BYTES = 5 * 1024 * 1024;
export const PARAM_FILE_ACCEPT = '.json,application/json';

/** The locale key of what is wrong with the chosen file, or null when it may be sent. */
export function paramFileProblem(file: { name: string; size: number }): 'config.importFormat' | 'config.importTooLarge' | null {
  if (!/\.json$/i.test(file.name)) return 'config.importFormat';
  if (file.size > PARAM_FILE_MAX_BYTES) return 'config.importTooLarge';
  return null;
}
