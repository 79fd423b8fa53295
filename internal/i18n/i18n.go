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

// T returns the message for key in locale, with {name} placeholders filled from args.
// An unknown key returns the key itself so a missing translation is visible, not silent.
func T(locale, key string, args map[string]any) string {
	m, ok := messages[key]
	if !ok {
		return key
	}
	s := m[0]
	if locale == ZhCN {
		s = m[1]
	}
	for k, v := range args {
		s = strings.ReplaceAll(s, "{"+k+"}", fmt.Sprint(v))
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
	"err.not_found":          {"The record does not exist or you cannot see it", "记录不存在或无权查看"},
	"err.no_permission":      {"No permission", "没有权限"},
	"err.not_logged_in":      {"Please log in", "请先登录"},
	"err.session_expired":    {"Your session has expired, please log in again", "登录已超时，请重新登录"},
	"err.forced_relogin":     {"You have been signed out, please log in again", "您已被强制下线，请重新登录"},
	"err.account_disabled":   {"This account is disabled", "账号已被禁用"},
	"err.csrf":               {"The request was refused (security token missing or wrong); refresh the page", "请求被拒绝（安全令牌缺失或错误），请刷新页面"},
	"err.rate_limited":       {"Too many attempts, please try again later", "尝试次数过多，请稍后再试"},
	"err.captcha":            {"The captcha is wrong or has expired", "验证码错误或已过期"},
	"err.bad_credentials":    {"Wrong user name or password", "用户名或密码错误"},
	"err.account_locked":     {"Too many failed logins: the account is locked until {until}", "登录失败次数过多，账号已锁定至 {until}"},
	"err.nonce":              {"The login key has expired, please try again", "登录密钥已过期，请重试"},
	"err.reset_expired":      {"The link has expired", "链接已失效"},
	"err.wrong_password":     {"The current password is wrong", "当前密码错误"},
	"err.internal":           {"System error, please try again later", "系统错误，请稍后再试"},
	"err.body_too_large":     {"The request is too large", "请求内容过大"},
	"err.bad_json":           {"The request body is not valid JSON", "请求内容不是有效的 JSON"},
	"err.api_not_found":      {"API not found", "接口不存在"},
	"err.required":           {"{field} cannot be empty", "{field} 不能为空"},
	"err.invalid":            {"{field} is invalid or in the wrong format", "{field} 无效或格式错误"},
	"err.password_rule":      {"The password must be 8-32 characters with upper and lower case letters, digits and special characters", "密码须为 8-32 位，包含大小写字母、数字和特殊字符"},
	"err.username_rule":      {"The user name must be 6-32 letters, digits or underscores", "用户名须为 6-32 位字母、数字或下划线"},
	"err.username_taken":     {"The user name already exists", "用户名已存在"},
	"err.email_taken":        {"The email address is already used", "邮箱已被使用"},
	"err.name_taken":         {"The name already exists", "名称已存在"},
	"err.in_use":             {"It is still in use and cannot be deleted", "仍在使用中，无法删除"},
	"err.model_parent":       {"A model cannot be its own parent or the parent of its parent", "型号不能以自身或其下级为父型号"},
	"err.control_level":      {"The control level must be between 1 and 5", "控制等级须在 1 到 5 之间"},
	"err.control_code_taken": {"This control type code is already used in the model", "该控制类型编码在此型号中已存在"},
	"err.protocol_key_taken": {"This protocol key is already used in the model", "该协议键在此型号中已存在"},
	"err.site_has_devices":   {"A site with devices cannot be deleted", "站点下仍有设备，无法删除"},
	"err.unknown_key":        {"Unknown permission key: {key}", "未知权限标识：{key}"},
	"err.self_role":          {"You cannot change your own role or account state", "不能修改自己的角色或账号状态"},
	"mail.reset.subject":     {"chargeops: reset your password", "chargeops：重置密码"},
	"mail.reset.body":        {"Hello {user},\n\nopen this link within 2 hours to set a new password (it works once):\n\n{link}\n\nIf you did not ask for it, ignore this mail.", "{user}，您好：\n\n请在 2 小时内打开以下链接设置新密码（仅可使用一次）：\n\n{link}\n\n如果不是您本人操作，请忽略此邮件。"},
}
