/**
 * The progress of an UpdateFirmware command as the charger reports it (issue 30 item 9): the
 * server keeps the step of its last FirmwareStatusNotification on the command
 * (internal/fleet/firmware.go); the command row shows that step, not only "Success" (which
 * means the charger accepted).
 */

/** The steps of an upgrade that goes well, in order. */
export const FIRMWARE_STEPS = ['Accepted', 'Downloading', 'Downloaded', 'Installing', 'Installed'] as const;

/** The 0-based step of FIRMWARE_STEPS a failure happened in (a signed upgrade's too). */
const FAILED: Record<string, number> = { DownloadFailed: 1, InstallationFailed: 3, InvalidSignature: 2, InstallVerificationFailed: 3 };

/**
 * The further running steps of a signed upgrade (SignedFirmwareStatusNotification;
 * docs/security-profiles.md, "Signed firmware and logs"), counted at the step of FIRMWARE_STEPS
 * they belong to (0-based).
 */
const SIGNED_RUNNING: Record<string, number> = { DownloadScheduled: 0, DownloadPaused: 1, SignatureVerified: 2, InstallScheduled: 2, InstallRebooting: 3 };

export type StepState = 'running' | 'done' | 'failed';

export interface FirmwareProgress {
  /** The step as the server stores it (also the i18n key's tail). */
  step: string;
  state: StepState;
  /** 1-based position among FIRMWARE_STEPS (a failure counts at the step it failed in). */
  index: number;
  total: number;
}

/** The progress of a command's stored step; null when it has none (other commands, old rows). */
export function firmwareProgress(step: string | null | undefined): FirmwareProgress | null {
  if (!step) return null;
  const total = FIRMWARE_STEPS.length;
  if (step in FAILED) return { step, state: 'failed', index: FAILED[step] + 1, total };
  if (step in SIGNED_RUNNING) return { step, state: 'running', index: SIGNED_RUNNING[step] + 1, total };
  const i = (FIRMWARE_STEPS as readonly string[]).indexOf(step);
  if (i < 0) return null;
  return { step, state: i === total - 1 ? 'done' : 'running', index: i + 1, total };
}

/** How long after it was sent an upgrade's row is still re-read while it runs. */
export const FIRMWARE_WATCH_MS = 24 * 60 * 60 * 1000;

/** Whether a page of commands holds an upgrade still running (or a command still waiting) worth re-reading. */
export function commandsRunning(rows: { result: number; progress?: string | null; createdAt: number }[], now: number): boolean {
  return rows.some((r) => r.createdAt > now - FIRMWARE_WATCH_MS && (r.result === 1 || firmwareProgress(r.progress)?.state === 'running'));
}

/** The i18n key of a step's name: the charger's FirmwareStatus names, and "Accepted" of the command's own. */
export function firmwareStepKey(step: string): string {
  return step === 'Accepted' ? 'command.step.Accepted' : `ocpp.firmware.${step}`;
}
