/**
 * Upload rules by kind, the same table as the server's (docs/storage.md, "Upload rules";
 * internal/storage/rules.go), checked in the browser before anything is sent. The server checks
 * again, by extension and by content, and its messages are the same ones.
 */

export type UploadKind = 'image' | 'file' | 'video' | 'legacy' | 'icon';

export interface UploadRule {
  kind: UploadKind;
  /** Lower case, without the dot. */
  exts: readonly string[];
  maxBytes: number;
  /** The list the "Only {typeList} can be uploaded" message names. */
  typeList: string;
}

const MB = 1024 * 1024;

export const UPLOAD_RULES: Record<UploadKind, UploadRule> = {
  image: { kind: 'image', exts: ['jpg', 'jpeg', 'png'], maxBytes: 20 * MB, typeList: 'jpg, jpeg, png' },
  file: {
    kind: 'file',
    exts: ['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'pdf', 'txt', 'zip', 'rar', '7z'],
    maxBytes: 100 * MB,
    typeList: 'doc, docx, xls, xlsx, ppt, pptx, pdf, txt, zip, rar, 7z',
  },
  video: { kind: 'video', exts: ['mp4', '3gp'], maxBytes: 200 * MB, typeList: 'mp4, 3gp' },
  legacy: {
    kind: 'legacy',
    exts: ['jpg', 'png', 'doc', 'docx', 'xls', 'xlsx', 'zip', 'gz', 'data', 'json', 'txt', 'csv'],
    maxBytes: 50 * MB,
    typeList: 'jpg, png, doc, docx, excel, zip, gz, data, json, txt, csv',
  },
  icon: { kind: 'icon', exts: ['jpg', 'png'], maxBytes: 500 * 1024, typeList: 'jpg, png' },
};

/** The base name of a path as a browser may give it (a Windows path keeps its backslashes). */
function baseName(name: string): string {
  return name.replace(/\\/g, '/').split('/').pop() ?? '';
}

/** Lower-cased extension of a file name, without the dot ('' when it has none). */
export function extOf(name: string): string {
  const base = baseName(name);
  const dot = base.lastIndexOf('.');
  return dot > 0 || (dot === 0 && base.length > 1) ? base.slice(dot + 1).toLowerCase() : '';
}

/** A limit as the messages write it: "20 MB", "500 KB" (as the server's humanSize). */
export function humanLimit(bytes: number): string {
  return bytes % MB === 0 ? `${bytes / MB} MB` : `${Math.floor(bytes / 1024)} KB`;
}

/** The `accept` attribute of a file input for a kind (".jpg,.jpeg,.png"). */
export function acceptOf(kind: UploadKind): string {
  return UPLOAD_RULES[kind].exts.map((e) => `.${e}`).join(',');
}

/** A refused file: a message key of the locales with its parameters. */
export type UploadProblem =
  | { key: 'upload.tooBig'; params: { maxSize: string } }
  | { key: 'upload.type'; params: { typeList: string } }
  | { key: 'upload.nameMismatch'; params: { name: string } };


/**
 * Checks a file's name and size against its kind's rule, in the server's order: extension,
 * then size (an empty file is refused as the wrong type, as the server does). null when allowed.
 * A required file name, when the uploader sets one, is checked first: the file's base name must
 * be exactly that name (case and extension included; docs/decisions.md#upload-file-name).
 */
export function checkUpload(kind: UploadKind, file: { name: string; size: number }, requiredName?: string): UploadProblem | null {
  if (requiredName && baseName(file.name) !== requiredName) return { key: 'upload.nameMismatch', params: { name: requiredName } };
  const rule = UPLOAD_RULES[kind];
  const typeProblem: UploadProblem = { key: 'upload.type', params: { typeList: rule.typeList } };
  if (!rule.exts.includes(extOf(file.name))) return typeProblem;
  if (file.size > rule.maxBytes) return { key: 'upload.tooBig', params: { maxSize: humanLimit(rule.maxBytes) } };
  if (file.size <= 0) return typeProblem;
  return null;
}

/** A multi-file field keeps only the last maxCount values (docs/storage.md). */
export function keepLast<T>(values: readonly T[], maxCount: number): T[] {
  return maxCount > 0 && values.length > maxCount ? values.slice(values.length - maxCount) : [...values];
}

/**
 * What a stored image value is: `direct` (an http(s) or data: URL, displayed as it is), `key`
 * (an objectKey the server signs: only a path containing a dot gets a link), or `none`.
 */
export type StoredValueKind = 'direct' | 'key' | 'none';

export function storedValueKind(value: string | null | undefined): StoredValueKind {
  const v = (value ?? '').trim();
  if (!v) return 'none';
  if (/^(https?:\/\/|data:)/i.test(v)) return 'direct';
  return v.includes('.') ? 'key' : 'none';
}
