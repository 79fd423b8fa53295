package i18n

// webhookMessages: the OpenAPI's webhooks (docs/webhooks.md).
var webhookMessages = map[string][2]string{
	"err.webhook_url":         {"Enter an absolute http or https URL of at most {max} characters, without user name, password or #fragment", "请输入完整的 http 或 https URL（最多 {max} 个字符），不含用户名、密码或 #片段"},
	"err.webhook_destination": {"Webhooks may not be sent to {address}: loopback, private, shared (100.64.0.0/10), link-local, multicast and cloud metadata addresses are refused unless the operator allows them", "不允许向 {address} 发送 Webhook：回环、私有、共享（100.64.0.0/10）、链路本地、组播和云元数据地址均被拒绝，除非运维人员允许"},
	"err.webhook_events":      {"Choose at least one event: {events}", "请至少选择一个事件：{events}"},
	"err.webhook_limit":       {"An application can have at most {max} webhooks", "每个应用最多 {max} 个 Webhook"},
}

// webhookFieldNames: the fields of the webhook form.
var webhookFieldNames = map[string][2]string{
	"events": {"Events", "事件"},
}

// webhookInterfaceNames: the Chinese names of the webhook routes
// (internal/httpapi/routes_webhook.go).
var webhookInterfaceNames = map[string]string{
	"GET /openapi/v1/webhooks":                          "开放接口：本应用的 Webhook",
	"POST /openapi/v1/webhooks":                         "开放接口：新增或修改 Webhook",
	"POST /openapi/v1/webhooks/delete":                  "开放接口：删除 Webhook",
	"GET /openapi/v1/webhooks/deliveries":               "开放接口：Webhook 投递记录",
	"POST /api/auth/sys/application/webhook/list":       "应用的 Webhook 列表",
	"POST /api/auth/sys/application/webhook/save":       "新增或修改应用的 Webhook",
	"POST /api/auth/sys/application/webhook/delete":     "删除应用的 Webhook",
	"POST /api/auth/sys/application/webhook/deliveries": "应用的 Webhook 投递记录",
}

func init() {
	register(webhookMessages)
	for k, v := range webhookFieldNames {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
	for k, v := range webhookInterfaceNames {
		interfaceNames[k] = v
	}
}
