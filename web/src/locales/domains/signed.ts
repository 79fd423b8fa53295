/**
 * Signed firmware files and logs a charger uploads (control types 5 signed and 25;
 * docs/security-profiles.md, "Signed firmware and logs"). Loaded with the device page's remote
 * operations (registerTexts), not with the entry.
 */
import type { DomainTexts } from './index';

export const signedTexts: DomainTexts = {
  'en-US': {
    'signed.optional': 'Signed firmware (optional)',
    'signed.certificate': 'Signing certificate',
    'signed.certificateHint': 'PEM-encoded X.509 certificate the firmware was signed with, at most 5500 characters',
    'signed.certificateFile': 'Load from file',
    'signed.signature': 'Signature',
    'signed.signatureHint': 'Base64, at most 800 characters',
    'signed.tag': 'signed',
    'signed.needBoth': 'A signed firmware needs both the signing certificate and the signature',
    'signed.badCertificate': 'The signing certificate must be PEM (-----BEGIN CERTIFICATE-----), at most 5500 characters',
    'signed.badSignature': 'The signature must be base64, at most 800 characters',
    'getlog.type': 'Log',
    'getlog.DiagnosticsLog': 'Diagnostics log',
    'getlog.SecurityLog': 'Security log',
    'getlog.hint': 'The charger uploads the log; it appears in the list below and in the device\'s attachments (diagnostics/SN)',
  },
  'zh-CN': {
    'signed.optional': '签名固件（可选）',
    'signed.certificate': '签名证书',
    'signed.certificateHint': '签署该固件所用的 PEM 编码 X.509 证书，最多 5500 个字符',
    'signed.certificateFile': '从文件读取',
    'signed.signature': '签名',
    'signed.signatureHint': 'Base64 编码，最多 800 个字符',
    'signed.tag': '已签名',
    'signed.needBoth': '签名固件须同时提供签名证书和签名',
    'signed.badCertificate': '签名证书须为 PEM 格式（-----BEGIN CERTIFICATE-----），最多 5500 个字符',
    'signed.badSignature': '签名须为 Base64 编码，最多 800 个字符',
    'getlog.type': '日志',
    'getlog.DiagnosticsLog': '诊断日志',
    'getlog.SecurityLog': '安全日志',
    'getlog.hint': '充电桩上传日志后，文件显示在下方列表及设备附件（diagnostics/SN）中',
  },
};
