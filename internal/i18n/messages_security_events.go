package i18n

// securityEventMessages: the security events of chargers and their export
// (docs/security-profiles.md, "Security events").
var securityEventMessages = map[string][2]string{
	"secevent.sheet":        {"Security events", "安全事件"},
	"secevent.col.sn":       {"SN", "设备 SN"},
	"secevent.col.type":     {"Type", "类型"},
	"secevent.col.critical": {"Critical", "严重"},
	"secevent.col.techInfo": {"Technical info", "技术信息"},
	"secevent.col.occurred": {"Occurrence time", "发生时间"},
	"secevent.col.created":  {"Created time", "创建时间"},
	"secevent.col.alarm":    {"Alarm", "告警"},
	"secevent.yes":          {"Yes", "是"},
	"secevent.no":           {"No", "否"},
	"secevent.alarm.open":   {"Open", "未结束"},
	"secevent.alarm.ended":  {"Ended", "已结束"},
}

// securityEventFieldNames: the inputs of the security-event calls a validation message names.
var securityEventFieldNames = map[string][2]string{
	"type":     {"Type", "类型"},
	"critical": {"Critical", "严重"},
	"deviceId": {"Device", "设备"},
}

// securityEventInterfaceNames: the Chinese names of the security-event routes
// (internal/httpapi/routes_security_events.go).
var securityEventInterfaceNames = map[string]string{
	"POST /api/auth/sys/dev/security/event/list":   "设备安全事件",
	"POST /api/auth/sys/dev/security/event/export": "导出设备安全事件（xlsx）",
	"POST /api/auth/sys/dev/security/event/ack":    "确认安全事件（结束其告警）",
}

func init() {
	register(securityEventMessages)
	for k, v := range securityEventFieldNames {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
	for k, v := range securityEventInterfaceNames {
		interfaceNames[k] = v
	}
}
