package i18n

import (
	"regexp"
	"strings"
)

// commandMessages: what the gateway stores as a command's message (internal/gateway/ocpp16/
// commands.go writes either a message key or one of the texts matched in CommandMessage).
var commandMessages = map[string][2]string{
	"cmd.answered":        {"The device answered {status}", "设备应答：{status}"},
	"cmd.key_answered":    {"{key}: the device answered {status}", "{key}：设备应答：{status}"},
	"cmd.bad_answer":      {"The device's answer could not be read ({reason})", "无法解析设备的应答（{reason}）"},
	"cmd.keys_read":       {"{count} values read", "已读取 {count} 项"},
	"ocpp.Accepted":       {"Accepted", "已接受"},
	"ocpp.Rejected":       {"Rejected", "已拒绝"},
	"ocpp.NotSupported":   {"Not supported", "不支持"},
	"ocpp.RebootRequired": {"Accepted, reboot required", "已接受，需重启"},
	"ocpp.Scheduled":      {"Scheduled", "已排程"},
	"ocpp.NotImplemented": {"Not implemented", "未实现"},
	"ocpp.Unlocked":       {"Unlocked", "已解锁"},
	"ocpp.UnlockFailed":   {"Unlock failed", "解锁失败"},
}

// notSupportedMessages: a control type the charger does not support (NotImplemented or
// NotSupported). err.not_supported is the VPN wording, kept for control types 7 and 8.
var notSupportedMessages = map[string][2]string{
	"err.device_not_supported": {"Not supported by this device", "该设备不支持此操作"},
}

func init() {
	register(commandMessages)
	register(notSupportedMessages)
}

var (
	cmdAnswered    = regexp.MustCompile(`^device answered (\w*)$`)
	cmdKeyAnswered = regexp.MustCompile(`^(\S+): device answered (\w*)$`)
	cmdKeysRead    = regexp.MustCompile(`^(\d+) keys$`)
)

// ocppStatus is an OCPP answer status in locale, with the code kept beside it in zh-CN.
func ocppStatus(locale, status string) string {
	if status == "" {
		return "-"
	}
	if _, ok := messages["ocpp."+status]; !ok {
		return status
	}
	name := T(locale, "ocpp."+status, nil)
	if locale == ZhCN {
		return name + "（" + status + "）"
	}
	return name
}

// CommandMessage localises a command's stored message: a message key, or one of the gateway's
// fixed texts ("device answered Rejected", "K: device answered X", "bad answer: ...", "N keys").
// Anything else (a transport error) is shown as stored.
func CommandMessage(locale, msg string) string {
	switch {
	case msg == "":
		return ""
	case strings.HasPrefix(msg, "err.") || strings.HasPrefix(msg, "cmd."):
		// a key may carry the charger's own reason after it ("err.sc_rejected: InvalidSchedule")
		if key, reason, ok := strings.Cut(msg, ": "); ok {
			return T(locale, key, nil) + " (" + reason + ")"
		}
		return T(locale, msg, nil)
	}
	if m := cmdAnswered.FindStringSubmatch(msg); m != nil {
		return T(locale, "cmd.answered", map[string]any{"status": ocppStatus(locale, m[1])})
	}
	if m := cmdKeyAnswered.FindStringSubmatch(msg); m != nil {
		return T(locale, "cmd.key_answered", map[string]any{"key": m[1], "status": ocppStatus(locale, m[2])})
	}
	if m := cmdKeysRead.FindStringSubmatch(msg); m != nil {
		return T(locale, "cmd.keys_read", map[string]any{"count": m[1]})
	}
	if r, ok := strings.CutPrefix(msg, "bad answer: "); ok {
		return T(locale, "cmd.bad_answer", map[string]any{"reason": r})
	}
	return msg
}
