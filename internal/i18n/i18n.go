// Package i18n holds the server's messages in en-US and zh-CN and picks one per request.
package i18n

import (
	"fmt"
	"strings"
)

const (
	EnUS = "en-US"
	ZhCN = "zh-CN"
)

// Supported locales, default first.
var Supported = []string{EnUS, ZhCN}

// Normalize maps an Accept-Language header or a stored choice to a supported locale, or "".
func Normalize(s string) string {
	for _, part := range strings.Split(s, ",") {
		tag := strings.ToLower(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]))
		switch {
		case strings.HasPrefix(tag, "zh"):
			return ZhCN
		case strings.HasPrefix(tag, "en"):
			return EnUS
		}
	}
	return ""
}

// T returns the message for key in locale, with {name} placeholders filled from args; {field}
// is an input field's JSON name and shown by its label in locale (fields.go), {dataType} a data
// item's type code shown by its name.
// An unknown key returns the key itself so a missing translation is visible, not silent.
func T(locale, key string, args map[string]any) string {
	m, ok := messages[key]
	if !ok {
		return key
	}
	s := pick(locale, m)
	for k, v := range args {
		val := fmt.Sprint(v)
		switch k {
		case "field":
			val = FieldName(locale, val)
		case "dataType":
			val = DataTypeName(locale, val)
		}
		s = strings.ReplaceAll(s, "{"+k+"}", val)
	}
	return s
}

// Keys lists every message key (tests check both locales are filled).
func Keys() []string {
	out := make([]string, 0, len(messages))
	for k := range messages {
		out = append(out, k)
	}
	return out
}

// messages: key → {en-US, zh-CN}.
var messages = map[string][2]string{
	"err.not_found":              {"The record does not exist or you cannot see it", "记录不存在或无权查看"},
	"err.no_permission":          {"No permission", "没有权限"},
	"err.not_logged_in":          {"Please log in", "请先登录"},
	"err.session_expired":        {"Your session has expired, please log in again", "登录已超时，请重新登录"},
	"err.forced_relogin":         {"You have been signed out, please log in again", "您已被强制下线，请重新登录"},
	"err.account_disabled":       {"This account is disabled", "账号已被禁用"},
	"err.csrf":                   {"The request was refused (security token missing or wrong); refresh the page", "请求被拒绝（安全令牌缺失或错误），请刷新页面"},
	"err.rate_limited":           {"Too many attempts, please try again later", "尝试次数过多，请稍后再试"},
	"err.captcha":                {"The captcha is wrong or has expired", "验证码错误或已过期"},
	"err.bad_credentials":        {"Wrong user name or password", "用户名或密码错误"},
	"err.account_locked":         {"Too many failed logins: the account is locked until {until}", "登录失败次数过多，账号已锁定至 {until}"},
	"err.nonce":                  {"The login key has expired, please try again", "登录密钥已过期，请重试"},
	"err.reset_expired":          {"The link has expired", "链接已失效"},
	"err.wrong_password":         {"The current password is wrong", "当前密码错误"},
	"err.internal":               {"System error, please try again later", "系统错误，请稍后再试"},
	"err.body_too_large":         {"The request is too large", "请求内容过大"},
	"err.bad_json":               {"The request body is not valid JSON", "请求内容不是有效的 JSON"},
	"err.api_not_found":          {"API not found", "接口不存在"},
	"err.required":               {"{field} cannot be empty", "{field} 不能为空"},
	"err.invalid":                {"{field} is invalid or in the wrong format", "{field} 无效或格式错误"},
	"err.password_rule":          {"The password must be 8-32 characters with upper and lower case letters, digits and special characters", "密码须为 8-32 位，包含大小写字母、数字和特殊字符"},
	"err.username_rule":          {"The user name must be 6-32 letters, digits or underscores", "用户名须为 6-32 位字母、数字或下划线"},
	"err.username_taken":         {"The user name already exists", "用户名已存在"},
	"err.email_taken":            {"The email address is already used", "邮箱已被使用"},
	"err.name_taken":             {"The name already exists", "名称已存在"},
	"err.in_use":                 {"It is still in use and cannot be deleted", "仍在使用中，无法删除"},
	"err.model_parent":           {"A model cannot be its own parent or the parent of its parent", "型号不能以自身或其下级为父型号"},
	"err.control_level":          {"The control level must be between 1 and 5", "控制等级须在 1 到 5 之间"},
	"err.control_code_taken":     {"This control type code is already used in the model", "该控制类型编码在此型号中已存在"},
	"err.protocol_key_taken":     {"This protocol key is already used in the model", "该协议键在此型号中已存在"},
	"err.sn_format":              {"The device SN must be 4-48 letters, digits, '-' or '_'", "设备 SN 须为 4-48 位字母、数字、'-' 或 '_'"},
	"err.sn_taken":               {"Device SN already exists", "设备 SN 已存在"},
	"err.device_name_taken":      {"Device name already exists", "设备名称已存在"},
	"err.model_not_selectable":   {"This model cannot be selected", "该型号不可选择"},
	"err.sn_duplicate_in_file":   {"Device SN already exists (row {row} of this file)", "设备 SN 已存在（本文件第 {row} 行）"},
	"err.name_duplicate_in_file": {"Device name already exists (row {row} of this file)", "设备名称已存在（本文件第 {row} 行）"},
	"err.import_no_file":         {"Choose a file to import", "请选择要导入的文件"},
	"err.import_too_large":       {"File size cannot exceed 5MB", "文件大小不能超过 5MB"},
	"err.import_not_xlsx":        {"Upload file format error, only .xlsx", "上传文件格式错误，仅支持 .xlsx"},
	"err.import_too_many":        {"At most {max} rows can be imported at once", "一次最多导入 {max} 行"},
	"err.import_empty":           {"The imported data is empty", "导入数据为空"},
	"err.import_row":             {"Import failed: row {row}: {reason} ({count} bad rows; nothing was imported)", "导入失败：第 {row} 行：{reason}（共 {count} 行有误，未导入任何数据）"},
	"err.export_too_many":        {"Export failed: more than {max} devices, narrow the filter", "导出失败：超过 {max} 台设备，请缩小筛选范围"},
	"col.sn":                     {"SN", "SN"},
	"col.name":                   {"Name", "名称"},
	"col.model":                  {"Model", "型号"},
	"col.site_code":              {"Site code", "站点编码"},
	"col.software_version":       {"Software version", "软件版本"},
	"col.install_date":           {"Install date (yyyy-mm-dd)", "安装日期（yyyy-mm-dd）"},
	"col.arrival_date":           {"Arrival date (yyyy-mm-dd)", "到货日期（yyyy-mm-dd）"},
	"col.maintenance_cycle":      {"Maintenance cycle (days)", "维护周期（天）"},
	"col.status":                 {"Status", "状态"},
	"col.customer":               {"Customer", "客户"},
	"col.unmaintained_days":      {"Unmaintained days", "未维护天数"},
	"status.0":                   {"Offline", "离线"},
	"status.1":                   {"Idle", "空闲"},
	"status.2":                   {"Working", "工作中"},
	"status.3":                   {"Faulted", "故障"},
	"status.4":                   {"Maintain", "维护"},
	"status.5":                   {"Firmware Update", "固件升级"},
	"status.6":                   {"Disabled", "已禁用"},
	"err.max_sites":              {"At most {max} sites can be assigned to this user", "该用户最多可分配 {max} 个站点"},
	"err.escalation":             {"You cannot grant permissions or data access you do not hold yourself", "不能授予超出自身的权限或数据范围"},
	"err.menu_builtin":           {"A built-in menu cannot be deleted", "内置菜单不能删除"},
	"err.menu_has_interfaces":    {"A menu with interfaces cannot be deleted", "菜单下有接口，不能删除"},
	"err.site_has_devices":       {"A site with devices cannot be deleted", "站点下仍有设备，无法删除"},
	"err.unknown_key":            {"Unknown permission key: {key}", "未知权限标识：{key}"},
	"err.self_role":              {"You cannot change your own role or account state", "不能修改自己的角色或账号状态"},
	"mail.reset.subject":         {"chargeops: reset your password", "chargeops：重置密码"},
	"mail.reset.body":            {"Hello {user},\n\nopen this link within 2 hours to set a new password (it works once):\n\n{link}\n\nIf you did not ask for it, ignore this mail.", "{user}，您好：\n\n请在 2 小时内打开以下链接设置新密码（仅可使用一次）：\n\n{link}\n\n如果不是您本人操作，请忽略此邮件。"},
	// Device operations (live fleet).
	"err.device_offline":    {"The device is offline", "设备离线"},
	"err.device_busy":       {"Device busy: a command is still running", "设备忙：仍有命令在执行"},
	"err.some_devices_busy": {"Some devices busy: the command was sent to the others", "部分设备忙：命令已发送至其余设备"},
	"err.command_timeout":   {"Command execution timeout", "命令执行超时"},
	"err.same_value":        {"Cannot be the same value", "不能与当前值相同"},
	"err.not_supported":     {"Not supported by this device (VPN)", "该设备不支持此操作（VPN）"},
	"err.device_disabled":   {"The device is disabled", "设备已禁用"},
	"err.not_batch":         {"{field} cannot be set on several devices at once", "{field} 不支持批量设置"},
	"err.connection_closed": {"The connection closed before the device answered", "设备应答前连接已断开"},
	"err.device_rejected":   {"The device rejected the command: {status}", "设备拒绝了命令：{status}"},
	"err.blacklist_exists":  {"This SN is already on the blacklist", "该 SN 已在黑名单中"},
}

// register adds a domain's messages (one messages_<domain>.go file each). A key given twice is
// a programming error and stops the process at start-up.
func register(m map[string][2]string) {
	for k, v := range m {
		if _, dup := messages[k]; dup {
			panic("i18n: message key defined twice: " + k)
		}
		messages[k] = v
	}
}

// dataTypes names the data types of data and model items (datarange: int, float, string, enum, bool).
var dataTypes = map[string][2]string{
	"int":    {"an integer", "整数"},
	"float":  {"a decimal number", "小数"},
	"string": {"text", "字符串"},
	"enum":   {"one of the listed values", "枚举值"},
	"bool":   {"true or false", "布尔值"},
}

// DataTypeName is a data type's name in locale (the code itself when unknown).
func DataTypeName(locale, dataType string) string {
	n, ok := dataTypes[dataType]
	if !ok {
		return dataType
	}
	return pick(locale, n)
}

// pick is the text of a {en-US, zh-CN} pair in locale.
func pick(locale string, texts [2]string) string {
	if locale == ZhCN {
		return texts[1]
	}
	return texts[0]
}
