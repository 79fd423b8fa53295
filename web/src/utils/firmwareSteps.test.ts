import { describe, expect, test } from 'vitest';
import { commandsRunning, firmwareProgress, firmwareStepKey, FIRMWARE_WATCH_MS } from './firmwareSteps';

describe('firmwareProgress', () => {
  test('steps of an upgrade that goes well, in order', () => {
    expect(firmwareProgress('Accepted')).toEqual({ step: 'Accepted', state: 'running', index: 1, total: 5 });
    expect(firmwareProgress('Downloading')?.index).toBe(2);
    expect(firmwareProgress('Installing')).toEqual({ step: 'Installing', state: 'running', index: 4, total: 5 });
    expect(firmwareProgress('Installed')).toEqual({ step: 'Installed', state: 'done', index: 5, total: 5 });
  });
  test('failures end the upgrade at the step they failed in', () => {
    expect(firmwareProgress('DownloadFailed')).toEqual({ step: 'DownloadFailed', state: 'failed', index: 2, total: 5 });
    expect(firmwareProgress('InstallationFailed')).toEqual({ step: 'InstallationFailed', state: 'failed', index: 4, total: 5 });
  });
  test('a signed upgrade: its further steps run at the step they belong to, its failures end it', () => {
    expect(firmwareProgress('DownloadScheduled')).toEqual({ step: 'DownloadScheduled', state: 'running', index: 1, total: 5 });
    expect(firmwareProgress('SignatureVerified')).toEqual({ step: 'SignatureVerified', state: 'running', index: 3, total: 5 });
    expect(firmwareProgress('InstallRebooting')?.index).toBe(4);
    expect(firmwareProgress('InvalidSignature')).toEqual({ step: 'InvalidSignature', state: 'failed', index: 3, total: 5 });
    expect(firmwareProgress('InstallVerificationFailed')).toEqual({ step: 'InstallVerificationFailed', state: 'failed', index: 4, total: 5 });
    expect(firmwareProgress('Uploading')).toBeNull(); // a GetLog's progress is no upgrade step
  });
  test('no step: other commands, unknown values', () => {
    expect(firmwareProgress('')).toBeNull();
    expect(firmwareProgress(undefined)).toBeNull();
    expect(firmwareProgress('Idle')).toBeNull();
  });
});

describe('commandsRunning', () => {
  const now = 1_800_000_000_000;
  test('a running upgrade or a waiting command is re-read; ended ones are not', () => {
    expect(commandsRunning([{ result: 2, progress: 'Installing', createdAt: now - 60_000 }], now)).toBe(true);
    expect(commandsRunning([{ result: 1, progress: '', createdAt: now - 1000 }], now)).toBe(true);
    expect(commandsRunning([{ result: 2, progress: 'Installed', createdAt: now - 1000 }], now)).toBe(false);
    expect(commandsRunning([{ result: 2, progress: 'DownloadFailed', createdAt: now - 1000 }], now)).toBe(false);
    expect(commandsRunning([{ result: 2, progress: '', createdAt: now - 1000 }], now)).toBe(false);
  });
  test('an upgrade stuck for more than a day is no longer watched', () => {
    expect(commandsRunning([{ result: 2, progress: 'Downloading', createdAt: now - FIRMWARE_WATCH_MS - 1 }], now)).toBe(false);
  });
});

test('step names: the charger statuses, and Accepted of the command', () => {
  expect(firmwareStepKey('Installing')).toBe('ocpp.firmware.Installing');
  expect(firmwareStepKey('Accepted')).toBe('command.step.Accepted');
});
