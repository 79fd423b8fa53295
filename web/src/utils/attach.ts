/** Pure helpers of the attachments screen and the share page (docs/attachments.md). */
import type { UploadKind } from './uploadRules';
import { extOf } from './uploadRules';

/** Attachment levels, 0 the highest (decisions "Levels"). */
export const ATTACH_LEVELS = [0, 1, 2, 3, 4, 5] as const;
export const LEVEL_FIELDS = ['readLevel', 'writeLevel', 'downloadLevel'] as const;
export type LevelField = (typeof LEVEL_FIELDS)[number];
export type Levels = Record<LevelField, number>;

/** The levels a new top-level folder starts with: the lowest, usable by everyone. */
export const OPEN_LEVELS: Levels = { readLevel: 5, writeLevel: 5, downloadLevel: 5 };

/** The levels an item in a folder may have: numerically at most the folder's (never lower). */
export function levelOptions(max: number | undefined): number[] {
  return ATTACH_LEVELS.filter((v) => max === undefined || v <= max);
}

/** The upload kind of a file by its extension: images, videos, else documents. */
export function kindOfFile(name: string): UploadKind {
  const ext = extOf(name);
  if (ext === 'jpg' || ext === 'jpeg' || ext === 'png') return 'image';
  if (ext === 'mp4' || ext === '3gp') return 'video';
  return 'file';
}

/** The object name asked for at sts/write: attachments live under docs/ (docs/attachments.md). */
export const objectNameOf = (name: string) => `docs/${name.replace(/\\/g, '/').split('/').pop() ?? name}`;

/** Share validity choices of docs/attachments.md#shares; 0 is permanent. */
export const VALIDITY_CHOICES = ['1', '7', '30', 'permanent', 'custom'] as const;
export type ValidityChoice = (typeof VALIDITY_CHOICES)[number];
export const MAX_CUSTOM_DAYS = 3650;

/** The `validity` of share/add for a choice: days, 0 permanent; null when custom days are missing or out of range. */
export function validityRequest(choice: ValidityChoice, customDays?: number | null): number | null {
  if (choice === 'permanent') return 0;
  if (choice === 'custom') {
    if (customDays === undefined || customDays === null || !Number.isInteger(customDays)) return null;
    return customDays >= 1 && customDays <= MAX_CUSTOM_DAYS ? customDays : null;
  }
  return Number(choice);
}

/** An access code: empty (the server generates one) or exactly 4 digits. */
export const isShareCode = (code: string) => code === '' || /^\d{4}$/.test(code);

/** The share page's link for a token, on the console's current origin. */
export function shareUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/share/file?token=${encodeURIComponent(token)}`;
}

export interface FolderNode {
  id: number;
  name: string;
  children?: (FolderNode | null)[] | null;
}

/** Every folder of a tree, depth first. */
export function flattenFolders<F extends FolderNode>(tree: readonly (F | null)[]): F[] {
  const out: F[] = [];
  const walk = (list: readonly (F | null)[] | null | undefined) => {
    for (const f of list ?? []) {
      if (!f) continue;
      out.push(f);
      walk(f.children as (F | null)[] | null | undefined);
    }
  };
  walk(tree);
  return out;
}
