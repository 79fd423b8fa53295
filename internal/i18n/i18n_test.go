package i18n

import (
	"regexp"
	"testing"
)

// hanzi: a zh-CN text must hold Chinese, not a copy of the English one.
var hanzi = regexp.MustCompile(`\p{Han}`)

// sameInBoth: texts that are codes or units and read the same in both languages.
var sameInBoth = map[string]bool{"col.sn": true, "sn": true, "url": true}

func TestEveryMessageHasBothLocales(t *testing.T) {
	for key, m := range messages {
		t.Run(key, func(t *testing.T) {
			if m[0] == "" || m[1] == "" {
				t.Fatalf("lacks a translation: %q", m)
			}
			if !sameInBoth[key] && !hanzi.MatchString(m[1]) {
				t.Errorf("zh-CN text has no Chinese: %q", m[1])
			}
			if hanzi.MatchString(m[0]) {
				t.Errorf("en-US text has Chinese: %q", m[0])
			}
		})
	}
}

func TestEveryFieldHasBothLocales(t *testing.T) {
	for _, f := range FieldKeys() {
		en, zh := FieldName(EnUS, f), FieldName(ZhCN, f)
		if en == "" || zh == "" || (!sameInBoth[f] && !hanzi.MatchString(zh)) {
			t.Errorf("field %s: en %q, zh %q", f, en, zh)
		}
	}
}

func TestEveryInterfaceNameIsChinese(t *testing.T) {
	for k, zh := range interfaceNames {
		if !hanzi.MatchString(zh) {
			t.Errorf("%s: %q", k, zh)
		}
	}
}

func TestNormalizeAndPlaceholders(t *testing.T) {
	for in, want := range map[string]string{"zh-CN,zh;q=0.9": ZhCN, "en-GB": EnUS, "fr-FR, zh-TW;q=0.5": ZhCN, "": ""} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct{ name, locale, key, field, want string }{
		{"known field in en-US", EnUS, "err.required", "name", "Name cannot be empty"},
		{"known field in zh-CN", ZhCN, "err.required", "name", "名称 不能为空"},
		{"indexed field by its label", ZhCN, "err.invalid", "params.items[3].value", "配置值 无效或格式错误"},
		{"unknown field as given", ZhCN, "err.not_batch", "HeartbeatInterval", "HeartbeatInterval 不支持批量设置"},
		{"protocol-log page cursor in zh-CN", ZhCN, "err.invalid", "cursor", "翻页位置 无效或格式错误"},
		{"menu hidden flag in en-US", EnUS, "err.invalid", "hidden", "Hidden from the sidebar is invalid or in the wrong format"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := T(c.locale, c.key, map[string]any{"field": c.field}); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestCommandMessage(t *testing.T) {
	for _, c := range []struct{ name, locale, msg, want string }{
		{"key", ZhCN, "err.command_timeout", "命令执行超时"},
		{"not supported en", EnUS, "err.device_not_supported", "Not supported by this device"},
		{"not supported zh", ZhCN, "err.device_not_supported", "该设备不支持此操作"},
		{"vpn not supported en", EnUS, "err.not_supported", "Not supported by this device (VPN)"},
		{"answer status", ZhCN, "device answered Rejected", "设备应答：已拒绝（Rejected）"},
		{"answer status en", EnUS, "device answered NotSupported", "The device answered Not supported"},
		{"unknown status kept", ZhCN, "device answered Weird", "设备应答：Weird"},
		{"key answer", ZhCN, "HeartbeatInterval: device answered Rejected", "HeartbeatInterval：设备应答：已拒绝（Rejected）"},
		{"bad answer", ZhCN, "bad answer: unexpected end of JSON input", "无法解析设备的应答（unexpected end of JSON input）"},
		{"keys read", ZhCN, "12 keys", "已读取 12 项"},
		{"other text as stored", ZhCN, "dial tcp: refused", "dial tcp: refused"},
		{"empty", ZhCN, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := CommandMessage(c.locale, c.msg); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}
