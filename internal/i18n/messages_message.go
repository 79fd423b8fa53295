package i18n

// messageMessages: the message centre, reception settings and alarm mail (docs/messages.md).
var messageMessages = map[string][2]string{
	"err.message_kind":      {"Choose event kinds among offline, alarm, fault and unavailable", "请在离线、告警、故障、不可用中选择事件类型"},
	"err.message_level":     {"Choose levels among OA, MA and CA", "请在 OA、MA、CA 中选择级别"},
	"err.message_frequency": {"The mail frequency is immediate or delayed", "邮件频率只能是立即或延迟"},
	"err.message_site":      {"Choose sites within your data access", "请选择您数据权限内的站点"},
	"err.message_delay":     {"The delay is {min} to {max} minutes", "延迟时间为 {min} 到 {max} 分钟"},

	"message.kind.0": {"Offline", "离线"},
	"message.kind.1": {"Alarm", "告警"},
	"message.kind.2": {"Fault", "故障"},
	"message.kind.3": {"Unavailable", "不可用"},

	"mail.alarm.body":     {"A device needs attention:\n\n{line}\n\nOpen the console's message centre for details.", "有设备需要关注：\n\n{line}\n\n详情请查看控制台的消息中心。"},
	"mail.digest.subject": {"chargeops: {count} device events", "chargeops：{count} 条设备事件"},
	"mail.digest.body":    {"{count} device events since the last mail:\n\n{lines}\nOpen the console's message centre for details.", "自上一封邮件以来共 {count} 条设备事件：\n\n{lines}\n详情请查看控制台的消息中心。"},
}

// messageInterfaceNames: the Chinese names of the message routes (internal/httpapi/routes_message.go),
// added to interfaceNames.
var messageInterfaceNames = map[string]string{
	"POST /api/auth/sys/message/list":         "我的消息列表",
	"GET /api/auth/sys/message/unread":        "我的未读消息数",
	"POST /api/auth/sys/message/read":         "将我的消息标为已读",
	"POST /api/auth/sys/message/process":      "处理我的消息",
	"GET /api/auth/sys/message/stream":        "服务器推送：我的未读消息数",
	"GET /api/auth/sys/message/setting":       "我的接收设置",
	"POST /api/auth/sys/message/setting/save": "保存我的接收设置",
}

func init() {
	register(messageMessages)
	for k, v := range messageInterfaceNames {
		interfaceNames[k] = v
	}
}
