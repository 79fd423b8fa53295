package i18n

// ticketMessages: tickets and their anonymous shares (docs/tickets.md).
var ticketMessages = map[string][2]string{
	"err.ticket_closed":          {"The ticket is closed: reopen it before changing it", "工单已关闭：请先重新打开再修改"},
	"err.ticket_state":           {"This action is not possible while the ticket is {state}", "工单当前状态（{state}）下不能执行此操作"},
	"err.ticket_comment_empty":   {"The comment cannot be empty", "评论不能为空"},
	"err.ticket_too_long":        {"{field} can be at most {max} characters", "{field} 最多 {max} 个字符"},
	"err.ticket_text_too_long":   {"{field} is too long", "{field} 内容过长"},
	"err.ticket_image":           {"{field} contains an image you cannot use: upload it again", "{field} 中有您无法使用的图片，请重新上传"},
	"err.ticket_share_gone":      {"This ticket link is invalid, revoked or expired", "该工单链接无效、已撤销或已过期"},
	"err.ticket_share_no_images": {"Comments through a shared link cannot contain uploaded images", "通过分享链接发表的评论不能包含上传的图片"},
	"err.ticket_share_too_many":  {"A ticket can have at most {max} shares", "一个工单最多可有 {max} 个分享"},
}

// ticketFieldNames: the ticket inputs a validation message names.
var ticketFieldNames = map[string][2]string{
	"title":      {"Title", "标题"},
	"priority":   {"Priority", "优先级"},
	"occurredAt": {"Occurrence time", "发生时间"},
	"deviceId":   {"Device", "设备"},
	"eventId":    {"Alarm", "告警"},
	"comment":    {"Comment", "评论"},
	"days":       {"Validity (days)", "有效期（天）"},
	"expiresAt":  {"Expiry", "到期时间"},
	"tab":        {"Tab", "标签页"},
}

// ticketInterfaceNames: the Chinese names of the ticket routes
// (internal/httpapi/routes_ticket.go).
var ticketInterfaceNames = map[string]string{
	"POST /api/auth/sys/issue/list":         "工单列表",
	"GET /api/auth/sys/issue/detail":        "工单详情（含处理过程）",
	"POST /api/auth/sys/issue/add":          "新增工单",
	"POST /api/auth/sys/issue/update":       "修改工单",
	"POST /api/auth/sys/issue/comment":      "评论工单",
	"POST /api/auth/sys/issue/pending":      "工单挂起",
	"POST /api/auth/sys/issue/close":        "关闭工单（需评论）",
	"POST /api/auth/sys/issue/reopen":       "重新打开工单（需评论）",
	"POST /api/auth/sys/issue/share/add":    "新增工单匿名分享",
	"POST /api/auth/sys/issue/share/list":   "工单匿名分享列表",
	"POST /api/auth/sys/issue/share/revoke": "撤销工单匿名分享",
	"POST /api/unauth/issue/share/detail":   "分享的工单（免登录）",
	"POST /api/unauth/issue/share/comment":  "分享工单的访客评论（免登录）",
}

func init() {
	register(ticketMessages)
	for k, v := range ticketInterfaceNames {
		interfaceNames[k] = v
	}
	// Field labels other domains may also define are kept as they are.
	for k, v := range ticketFieldNames {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
}
