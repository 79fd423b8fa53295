package i18n

// sessionMessages: charging sessions, their export sheet and flags (docs/sessions.md).
var sessionMessages = map[string][2]string{
	"err.session_reason":        {"reason: not a stop reason", "reason：不是有效的停止原因"},
	"session.sheet":             {"Charging sessions", "充电会话"},
	"session.col.id":            {"Session ID", "会话 ID"},
	"session.col.sn":            {"SN", "设备 SN"},
	"session.col.customer":      {"Customer", "客户"},
	"session.col.site":          {"Site", "站点"},
	"session.col.connector":     {"Connector", "充电枪"},
	"session.col.idTag":         {"idTag", "卡号 (idTag)"},
	"session.col.state":         {"State", "状态"},
	"session.col.start":         {"Start time", "开始时间"},
	"session.col.stop":          {"Stop time", "结束时间"},
	"session.col.duration":      {"Duration (h:mm:ss)", "时长（时:分:秒）"},
	"session.col.meterStart":    {"Meter start (Wh)", "起始读数 (Wh)"},
	"session.col.meterStop":     {"Meter stop (Wh)", "结束读数 (Wh)"},
	"session.col.energy":        {"Energy (kWh)", "电量 (kWh)"},
	"session.col.reason":        {"Stop reason", "停止原因"},
	"session.col.flags":         {"Flags", "标记"},
	"session.state.charging":    {"Charging", "充电中"},
	"session.state.ended":       {"Ended", "已结束"},
	"session.flag.clock":        {"Charger clock wrong: server time used", "充电桩时钟错误：已使用服务器时间"},
	"session.flag.unknownStop":  {"Stop matched no session", "停止消息未匹配到会话"},
	"session.flag.matchedStop":  {"Stop without a valid id, matched to the open session", "停止消息无有效 ID，已匹配到进行中的会话"},
	"session.flag.meterBack":    {"Meter went backwards", "电表读数回退"},
	"session.flag.meterReset":   {"Meter reset: first sample used as start", "电表已重置：以首个采样为起点"},
	"session.flag.implausible":  {"Implausible energy: counted as 0", "电量不合理：按 0 计"},
	"session.flag.unterminated": {"Never stopped: closed by the next start", "未收到停止：由下一次启动关闭"},
}

// sessionFieldNames: the input fields of the session calls a validation message names.
var sessionFieldNames = map[string][2]string{
	"idTag":  {"idTag", "卡号 (idTag)"},
	"reason": {"Stop reason", "停止原因"},
}

// sessionInterfaceNames: the Chinese names of the session routes (internal/httpapi/routes_session.go).
var sessionInterfaceNames = map[string]string{
	"POST /api/auth/sys/session/list":           "充电会话列表",
	"GET /api/auth/sys/session/detail":          "充电会话详情（计量曲线与签名数据）",
	"GET /api/auth/sys/session/signed/download": "下载充电会话的签名计量数据（JSON）",
	"POST /api/auth/sys/session/export":         "导出充电会话（xlsx）",
}

func init() {
	register(sessionMessages)
	for k, v := range sessionFieldNames {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
	for k, v := range sessionInterfaceNames {
		interfaceNames[k] = v
	}
}
