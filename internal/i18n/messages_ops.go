package i18n

// opsMessages: the operator actions, control types 12-18 (docs/gateway.md, "Commands"), and
// reservations: refusals before anything is sent, and the charger's answers.
var opsMessages = map[string][2]string{
	"err.ops_too_long":       {"{field} is at most {max} characters", "{field} 最多 {max} 个字符"},
	"err.ops_expiry":         {"{field} must be in the future and at most {days} days ahead", "{field} 须晚于当前时间，且不超过 {days} 天"},
	"err.ops_no_connector":   {"{field}: the device has no connector {connector}", "{field}：该设备没有 {connector} 号充电枪"},
	"err.ops_no_session":     {"{field}: {id} is not an open charging session of this device", "{field}：{id} 不是该设备正在进行的充电会话"},
	"err.ops_reserved":       {"{field}: connector {connector} already has an open reservation", "{field}：{connector} 号充电枪已有未结束的预约"},
	"err.ops_no_reservation": {"{field}: {id} is not an open reservation of this device", "{field}：{id} 不是该设备未结束的预约"},
	"err.ops_token_blocked":  {"{field}: the token {idTag} is blocked; nothing was sent", "{field}：卡号 {idTag} 已被冻结，未发送任何指令"},
	"err.ops_token_expired":  {"{field}: the token {idTag} has expired; nothing was sent", "{field}：卡号 {idTag} 已过期，未发送任何指令"},
	"err.ops_token_invalid":  {"{field}: the token {idTag} is not valid for this device; nothing was sent", "{field}：卡号 {idTag} 对该设备无效，未发送任何指令"},
	"err.ops_one_device":     {"This operation acts on one device at a time", "该操作一次只能对一台设备执行"},
	"ocpp.Faulted":           {"Faulted", "故障"},
	"ocpp.Occupied":          {"Occupied", "已占用"},
	"ocpp.Unavailable":       {"Unavailable", "不可用"},
	"ocpp.UnknownVendorId":   {"Unknown vendor", "未知厂商"},
	"ocpp.UnknownMessageId":  {"Unknown message", "未知消息"},
}

// opsFields: the parameters of the operator actions.
var opsFields = map[string][2]string{
	"params.idTag":         {"Token (idTag)", "卡号（idTag）"},
	"params.parentIdTag":   {"Parent token", "父卡号"},
	"params.transactionId": {"Charging session", "充电会话"},
	"params.vendorId":      {"Vendor ID", "厂商标识"},
	"params.messageId":     {"Message ID", "消息标识"},
	"params.data":          {"Data", "数据"},
	"params.expiryDate":    {"Expiry", "到期时间"},
	"params.reservationId": {"Reservation", "预约"},
}

// opsInterfaceNames: the Chinese names of the reservation routes (internal/httpapi/routes_ops.go).
var opsInterfaceNames = map[string]string{
	"GET /api/auth/sys/dev/reservation/list": "设备的预约列表",
	"GET /api/auth/sys/dev/ops/connectors":   "设备充电枪的会话与预约",
	"GET /openapi/v1/reservations":           "开放接口：设备的预约",
}

func init() {
	register(opsMessages)
	for k, v := range opsInterfaceNames {
		interfaceNames[k] = v
	}
	for k, v := range opsFields {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
}
