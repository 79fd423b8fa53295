package i18n

// openapiMessages: the OpenAPI v1's refusals (docs/openapi.md, "Errors").
var openapiMessages = map[string][2]string{
	"err.openapi_headers":          {"Signed request expected: X-App-Id, X-Timestamp (unix seconds), X-Nonce (16-64 characters of A-Z a-z 0-9 - _) and X-Signature (64 hex digits)", "需要签名请求：X-App-Id、X-Timestamp（Unix 秒）、X-Nonce（16-64 个 A-Z a-z 0-9 - _ 字符）和 X-Signature（64 位十六进制）"},
	"err.openapi_app_unknown":      {"Unknown appId", "appId 不存在"},
	"err.openapi_app_disabled":     {"This application is disabled", "该应用已停用"},
	"err.openapi_timestamp":        {"The timestamp is more than {seconds} s from the server's clock (server time {server})", "时间戳与服务器时间相差超过 {seconds} 秒（服务器时间 {server}）"},
	"err.openapi_nonce":            {"This nonce was already used: send every request with a new nonce", "该 nonce 已使用过：每个请求须使用新的 nonce"},
	"err.openapi_signature":        {"The signature does not match the request", "签名与请求不符"},
	"err.openapi_rate_limited":     {"Too many calls: at most {limit} per minute for one application", "调用过于频繁：每个应用每分钟最多 {limit} 次"},
	"err.openapi_signature_locked": {"Too many wrong signatures from this address: its wrong signatures are refused for a while (correctly signed requests still pass)", "来自该地址的签名错误次数过多：其错误签名暂时被拒绝（签名正确的请求仍可通过）"},
	"err.openapi_app_user":         {"The application's bound user is disabled or no longer exists", "应用绑定的用户已停用或不存在"},
	"err.openapi_query_duplicate":  {"The query names \"{key}\" more than once: send each key once", "查询参数“{key}”出现了多次：每个参数只能出现一次"},
	"err.openapi_query_encoding":   {"The query's key \"{key}\" or its value is not in the canonical encoding: send keys and values percent-encoded as RFC 3986 (A-Z a-z 0-9 - . _ ~ as they are, every other byte as %XX in upper case, a space as %20)", "查询参数“{key}”或其值的编码不是规范编码：键和值须按 RFC 3986 百分号编码（A-Z a-z 0-9 - . _ ~ 保持原样，其他字节一律写成大写的 %XX，空格写成 %20）"},
}

// openapiInterfaceNames: the Chinese names of the OpenAPI v1 routes
// (internal/httpapi/routes_openapi.go).
var openapiInterfaceNames = map[string]string{
	"GET /openapi/v1/devices":         "开放接口：设备列表",
	"GET /openapi/v1/devices/detail":  "开放接口：设备详情",
	"GET /openapi/v1/devices/status":  "开放接口：设备实时状态",
	"GET /openapi/v1/devices/series":  "开放接口：设备计量曲线",
	"GET /openapi/v1/sites":           "开放接口：站点列表",
	"GET /openapi/v1/events":          "开放接口：告警与事件",
	"POST /openapi/v1/commands":       "开放接口：下发远程操作",
	"GET /openapi/v1/commands":        "开放接口：指令记录",
	"GET /openapi/v1/commands/detail": "开放接口：指令及结果",
	"GET /openapi/v1/protocol-logs":   "开放接口：协议日志",
	"GET /openapi/v1/sessions":        "开放接口：充电会话",
}

func init() {
	register(openapiMessages)
	for k, v := range openapiInterfaceNames {
		interfaceNames[k] = v
	}
}
