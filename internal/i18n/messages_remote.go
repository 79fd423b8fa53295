package i18n

// remoteMessages: remote access, links, the web page and the terminal (docs/remote-access.md).
// The VPN and terminal messages are the specification's.
var remoteMessages = map[string][2]string{
	"err.remote_one_device":        {"A remote link (control types 7 and 8) opens or closes on one device at a time", "远程链接（控制类型 7 和 8）一次只能在一台设备上开启或关闭"},
	"err.remote_not_supported":     {"Not supported remote link", "不支持远程链接"},
	"err.vpn_not_supported":        {"Not support VPN", "不支持 VPN"},
	"err.remote_connection_failed": {"Connection failed", "连接失败"},
	"err.remote_timeout":           {"Execution timeout", "执行超时"},
	"err.vpn_status":               {"VPN error, status code: {status}", "VPN 错误，状态码：{status}"},
	"err.remote_destroy_failed":    {"Destruction failed", "销毁失败"},
	"err.remote_no_link":           {"No remote link is open on this device", "该设备没有已打开的远程链接"},
	"err.remote_link_busy":         {"Another remote link of this device is open or opening: close it first", "该设备已有打开或正在打开的远程链接，请先关闭"},
	"err.remote_minutes":           {"The validity is {min} to {max} minutes", "有效期为 {min} 到 {max} 分钟"},
	"err.remote_web_expired":       {"This remote web page link has expired; open the page again from the device", "远程网页链接已失效，请从设备页面重新打开"},
	"err.remote_web_signed_out":    {"Your console session has ended (signed out, expired, or the account or its role changed): sign in and open the page again from the device", "控制台会话已结束（已退出、已过期，或账号或其角色已变更）：请登录后从设备页面重新打开"},
	"err.remote_need_websocket":    {"The terminal needs a WebSocket connection", "终端需要 WebSocket 连接"},
	"term.connection_closed":       {"Connection closed", "连接已关闭"},
	"term.connection_failed":       {"Connection failed", "连接失败"},
	"term.parameter_error":         {"Parameter error", "参数错误"},
	"term.auth_failed":             {"Authentication failed: check the user name and password", "认证失败：请检查用户名和密码"},
	"term.unreachable":             {"The charger refused the connection on this port: check the port and that its SSH service is running", "充电桩拒绝了该端口的连接：请检查端口以及其 SSH 服务是否在运行"},
	"term.timeout":                 {"The charger did not answer in time: check its network and try again", "充电桩未及时响应：请检查其网络后重试"},
}

// remoteInterfaceNames: the Chinese names of the remote-access routes
// (internal/httpapi/routes_remote.go).
var remoteInterfaceNames = map[string]string{
	"GET /api/auth/sys/dev/link/status":        "设备远程链接状态",
	"POST /api/auth/sys/dev/link/open":         "打开远程链接（VPN 启动）",
	"POST /api/auth/sys/dev/link/close":        "关闭远程链接（VPN 停止）",
	"POST /api/auth/sys/dev/basic/vpn/restart": "重启远程链接",
	"POST /api/auth/sys/dev/link/web":          "设备网页的访问地址",
	"GET /api/auth/sys/dev/link/terminal":      "设备终端（WebSocket）",
	"POST /api/auth/sys/dev/link/session/list": "远程访问会话记录",
}

// remoteFields: input fields the remote-access messages name.
var remoteFields = map[string][2]string{
	"deviceId": {"Device", "设备"},
	"minutes":  {"Validity (minutes)", "有效期（分钟）"},
}

func init() {
	register(remoteMessages)
	for k, v := range remoteInterfaceNames {
		interfaceNames[k] = v
	}
	for k, v := range remoteFields {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
}
