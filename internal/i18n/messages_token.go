package i18n

// tokenMessages: tokens (idTags), their import and the chargers' local lists (docs/tokens.md).
var tokenMessages = map[string][2]string{
	"err.token_tag":               {"{field} must be 1 to {max} printable characters without spaces", "{field} 须为 1 至 {max} 个可打印字符，不含空格"},
	"err.token_parent_self":       {"A token cannot be its own parent", "令牌不能以自身为上级"},
	"err.token_too_long":          {"{field} can be at most {max} characters", "{field} 最多 {max} 个字符"},
	"err.token_exists":            {"This idTag already exists for the customer", "该客户已有此 idTag"},
	"err.token_duplicate_in_file": {"This idTag is already in row {row} of the file", "此 idTag 已在文件第 {row} 行出现"},
	"err.token_import_row":        {"Row {row}: {reason} (rows with errors: {count}; nothing was imported)", "第 {row} 行：{reason}（有误的行数：{count}，未导入任何数据）"},
	"err.local_list_too_long":     {"The token list is longer than the charger accepts (SendLocalListMaxLength): nothing was sent", "令牌列表超出充电桩可接收的长度（SendLocalListMaxLength），未发送"},
	"err.local_list_too_long_n":   {"The list has {count} tokens but the charger accepts at most {max} (SendLocalListMaxLength): nothing was sent", "列表有 {count} 个令牌，充电桩最多接收 {max} 个（SendLocalListMaxLength），未发送"},
	"err.local_list_disabled":     {"The charger's local authorization list is disabled (LocalAuthListEnabled is false): nothing was sent", "充电桩已停用本地授权列表（LocalAuthListEnabled 为 false），未发送"},
	"err.local_list_current":      {"The charger already holds the current list version: nothing to send", "充电桩已持有当前列表版本，无需发送"},
	"err.invalid_update_type":     {"The update type must be Full or Differential", "更新类型须为 Full 或 Differential"},
	"col.token_id_tag":            {"idTag", "令牌号（idTag）"},
	"col.token_name":              {"Name", "名称"},
	"col.token_parent":            {"Parent idTag", "上级 idTag"},
	"col.token_expiry":            {"Expiry (yyyy-MM-dd)", "到期日期（yyyy-MM-dd）"},
	"col.token_status":            {"Status (active/blocked)", "状态（启用/停用）"},
	"col.token_note":              {"Note", "备注"},
	"token.status_active":         {"Active", "启用"},
	"token.status_blocked":        {"Blocked", "停用"},
}

// tokenFieldNames: the token inputs a validation message names.
var tokenFieldNames = map[string][2]string{
	"idTag":       {"idTag", "令牌号（idTag）"},
	"parentIdTag": {"Parent idTag", "上级 idTag"},
	"expiresAt":   {"Expiry", "到期时间"},
	"note":        {"Note", "备注"},
	"unknown":     {"Unknown-token policy", "未知令牌策略"},
	"updateType":  {"Update type", "更新类型"},
}

// tokenInterfaceNames: the Chinese names of the token routes (internal/httpapi/routes_token.go).
var tokenInterfaceNames = map[string]string{
	"POST /api/auth/sys/token/list":           "令牌列表",
	"GET /api/auth/sys/token/detail":          "令牌详情",
	"POST /api/auth/sys/token/add":            "新增令牌",
	"POST /api/auth/sys/token/update":         "修改令牌",
	"POST /api/auth/sys/token/block":          "停用令牌（批量）",
	"POST /api/auth/sys/token/unblock":        "启用令牌（批量）",
	"POST /api/auth/sys/token/expiry":         "设置令牌到期时间（批量）",
	"POST /api/auth/sys/token/delete":         "删除令牌（批量）",
	"POST /api/auth/sys/token/import":         "导入令牌（xlsx）",
	"GET /api/auth/sys/token/import/template": "令牌导入模板",
	"GET /api/auth/sys/token/policy":          "客户的未知令牌策略",
	"POST /api/auth/sys/token/policy/update":  "修改未知令牌策略",
	"GET /api/auth/sys/token/locallist/state": "充电桩本地列表状态",
	"POST /api/auth/sys/token/locallist/send": "发送本地授权列表",
}

func init() {
	register(tokenMessages)
	for k, v := range tokenInterfaceNames {
		interfaceNames[k] = v
	}
	for k, v := range tokenFieldNames {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
}
