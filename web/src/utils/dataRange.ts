/**
 * Client-side copy of the data-range rules of docs/decisions.md#levels (the server's internal/datarange):
 * integer "min~max" (min < max), float "min~max|decimals" (decimals 0-99), string length
 * "min~max" (min ≥ 0), enumeration lines "display|value|type" (type number|string|boolean,
 * default string; single '|' separators; unique values). An empty range is allowed for int,
 * float and string: the server applies the defaults (min 0, max 1e8 for int, 1e7 for others).
 */
export const DATA_TYPES = ['int', 'float', 'string', 'enum', 'bool'] as const;
export type DataType = (typeof DATA_TYPES)[number];

export const DEFAULT_RANGES: Record<string, string> = {
  int: '0~100000000',
  float: '0~10000000|2',
  string: '0~10000000',
};

export interface EnumOption {
  display: string;
  value: string;
  type: 'number' | 'string' | 'boolean';
}

const INT_RE = /^[+-]?\d+$/;
const FLOAT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function minMax(text: string, integer: boolean): [number, number] | null {
  const parts = text.split('~');
  if (parts.length !== 2) return null;
  const [a, b] = parts.map((p) => p.trim());
  const re = integer ? INT_RE : FLOAT_RE;
  if (!re.test(a) || !re.test(b)) return null;
  const lo = Number(a);
  const hi = Number(b);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return null;
  return [lo, hi];
}

/** Enumeration lines → options, or null when a line breaks the rules. */
export function parseEnum(text: string): EnumOption[] | null {
  const out: EnumOption[] = [];
  const seen = new Set<string>();
  for (const raw of text.trim().split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (line.includes('||')) return null;
    const parts = line.split('|');
    if (parts.length < 2 || parts.length > 3) return null;
    const display = parts[0].trim();
    const value = parts[1].trim();
    const type = (parts[2]?.trim() || 'string') as EnumOption['type'];
    if (type === 'number') {
      if (!FLOAT_RE.test(value)) return null;
    } else if (type === 'boolean') {
      if (value !== 'true' && value !== 'false') return null;
    } else if (type !== 'string') return null;
    if (!display || !value || seen.has(value)) return null;
    seen.add(value);
    out.push({ display, value, type });
  }
  return out.length ? out : null;
}

/**
 * Checks a range against its data type. Answers null when valid, else the i18n key of the
 * rule that is broken.
 */
export function rangeError(dataType: string, text: string | undefined | null): string | null {
  const s = (text ?? '').trim();
  switch (dataType) {
    case 'int':
    case 'string': {
      if (!s) return null;
      const mm = minMax(s, true);
      if (!mm || mm[0] >= mm[1] || (dataType === 'string' && mm[0] < 0)) return `range.error.${dataType}`;
      return null;
    }
    case 'float': {
      if (!s) return null;
      const bar = s.indexOf('|');
      const body = bar >= 0 ? s.slice(0, bar) : s;
      const mm = minMax(body, false);
      if (!mm || mm[0] >= mm[1]) return 'range.error.float';
      if (bar >= 0) {
        const d = s.slice(bar + 1).trim();
        if (!/^\d+$/.test(d) || Number(d) > 99) return 'range.error.float';
      }
      return null;
    }
    case 'enum':
      return parseEnum(s) ? null : 'range.error.enum';
    case 'bool':
      return s ? 'range.error.bool' : null;
    default:
      return 'range.error.type';
  }
}

/** Control type codes (docs/ocpp16.md#chargeops--charger) used more than once among a model's control items. */
export function duplicateControlCodes(items: { id?: number; controlTypeCode: number }[], candidate: { id?: number; controlTypeCode: number }): boolean {
  return items.some((it) => it.controlTypeCode === candidate.controlTypeCode && (it.id ?? 0) !== (candidate.id ?? 0));
}

// ---------------------------------------------------------------- values against a range

/** The rule a value must meet, as an i18n key (`config.rule.*`) and its values, for hints and errors. */
export interface ValueRule {
  key: string;
  values: Record<string, string | number>;
}

/** The rule of a data type and range (an empty range: the server's defaults, DEFAULT_RANGES). */
export function valueRule(dataType: string, range: string | undefined | null): ValueRule {
  const r = (range ?? '').trim() || DEFAULT_RANGES[dataType] || '';
  switch (dataType) {
    case 'int':
    case 'float':
    case 'string': {
      const mm = minMax(r.split('|')[0], dataType !== 'float');
      return { key: `config.rule.${dataType}`, values: { min: mm?.[0] ?? '?', max: mm?.[1] ?? '?' } };
    }
    case 'enum':
      return { key: 'config.rule.enum', values: { values: (parseEnum(r) ?? []).map((o) => o.value).join(', ') } };
    case 'bool':
      return { key: 'config.rule.bool', values: {} };
    default:
      return { key: 'config.rule.none', values: {} };
  }
}

/**
 * Whether a value fits a data type and range: the same check as the server's
 * `datarange.CheckValue` (internal/datarange), so the dialog refuses what the server would.
 */
export function checkValue(dataType: string, range: string | undefined | null, value: string): boolean {
  const r = (range ?? '').trim() || DEFAULT_RANGES[dataType] || '';
  switch (dataType) {
    case 'int': {
      const mm = minMax(r, true);
      if (!mm || !INT_RE.test(value)) return false;
      const n = Number(value);
      return n >= mm[0] && n <= mm[1];
    }
    case 'float': {
      const mm = minMax(r.split('|')[0], false);
      if (!mm || !FLOAT_RE.test(value)) return false;
      const f = Number(value);
      return f >= mm[0] && f <= mm[1];
    }
    case 'string': {
      const mm = minMax(r, true);
      const n = [...value].length;
      return !!mm && n >= mm[0] && n <= mm[1];
    }
    case 'enum':
      return (parseEnum(r) ?? []).some((o) => o.value === value);
    case 'bool':
      return value === 'true' || value === 'false';
    default:
      return false;
  }
}

/** A model's config and param items by lower-case protocol key (a key may be listed more than once). */
export function rulesByKey(items: { protocolKey: string; dataType: string; dataRange: string }[]): Map<string, { dataType: string; dataRange: string }[]> {
  const out = new Map<string, { dataType: string; dataRange: string }[]>();
  for (const it of items) {
    const k = it.protocolKey.trim().toLowerCase();
    if (!k) continue;
    out.set(k, [...(out.get(k) ?? []), { dataType: it.dataType, dataRange: it.dataRange }]);
  }
  return out;
}

/** The first rule of a key's items that a value breaks, or null when it fits them all (or none is listed). */
export function brokenRule(rules: Map<string, { dataType: string; dataRange: string }[]>, key: string, value: string): ValueRule | null {
  for (const r of rules.get(key.trim().toLowerCase()) ?? []) if (!checkValue(r.dataType, r.dataRange, value)) return valueRule(r.dataType, r.dataRange);
  return null;
}
