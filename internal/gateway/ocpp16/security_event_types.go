package ocpp16

import "chargeops/internal/fleet"

// The security event types of the OCPP 1.6 security whitepaper (edition 3, its appendix
// "Security events") and which of them are critical (docs/security-profiles.md, "Security
// events"). The whitepaper asks a charger to send the critical ones to the central system at
// once, and chargeops opens an alarm for each: they mean the firmware, clock, memory, log or
// casing of the charger changed (tamper detection, a cleared security log, a new firmware, a
// reboot). The others (failed authentications, invalid messages or certificates, weak TLS, a
// replay attempt) are recorded and listed, without an alarm: a remote party can make a charger
// send them at will, so they would flood the alarm list.
//
// The flags are the whitepaper's; OCPP 2.0.1's list (other names: Csms for CentralSystem)
// marks more of them critical, and its adapter will carry its own table. A type not listed here
// (a vendor's own) is recorded as not critical.
var securityEventCritical = map[string]bool{
	"FirmwareUpdated":                     true,
	"FailedToAuthenticateAtCentralSystem": false,
	"CentralSystemFailedToAuthenticate":   false,
	"SettingSystemTime":                   true,
	"StartupOfTheDevice":                  true,
	"ResetOrReboot":                       true,
	"SecurityLogWasCleared":               true,
	"ReconfigurationOfSecurityParameters": false,
	"MemoryExhaustion":                    true,
	"InvalidMessages":                     false,
	"AttemptedReplayAttacks":              false,
	"TamperDetectionActivated":            true,
	"InvalidFirmwareSignature":            false,
	"InvalidFirmwareSigningCertificate":   false,
	"InvalidCentralSystemCertificate":     false,
	"InvalidChargePointCertificate":       false,
	"InvalidTLSVersion":                   false,
	"InvalidTLSCipherSuite":               false,
}

// SecurityEventCritical reports whether a security event type is critical (the whitepaper's
// flag; false for a type it does not list).
func SecurityEventCritical(typ string) bool { return securityEventCritical[typ] }

// securityEventExplainedBy are the control types whose command explains a critical event of a
// type: a charger reboots after a Reset or a firmware update, and reports a new firmware after
// the latter (fleet.SecurityEventReport.ExplainedBy: no alarm then).
var securityEventExplainedBy = map[string][]int{
	"StartupOfTheDevice": {fleet.CtlSoftReset, fleet.CtlHardReset, fleet.CtlUpdateFirmware},
	"ResetOrReboot":      {fleet.CtlSoftReset, fleet.CtlHardReset, fleet.CtlUpdateFirmware},
	"FirmwareUpdated":    {fleet.CtlUpdateFirmware},
}

// SecurityEventTypes are the whitepaper's security event types, in its order.
var SecurityEventTypes = []string{
	"FirmwareUpdated", "FailedToAuthenticateAtCentralSystem", "CentralSystemFailedToAuthenticate", "SettingSystemTime",
	"StartupOfTheDevice", "ResetOrReboot", "SecurityLogWasCleared", "ReconfigurationOfSecurityParameters", "MemoryExhaustion",
	"InvalidMessages", "AttemptedReplayAttacks", "TamperDetectionActivated", "InvalidFirmwareSignature",
	"InvalidFirmwareSigningCertificate", "InvalidCentralSystemCertificate", "InvalidChargePointCertificate", "InvalidTLSVersion",
	"InvalidTLSCipherSuite",
}
