package i18n

// attachMessages: attachments and shares (docs/attachments.md).
var attachMessages = map[string][2]string{
	"err.attach_level_below_folder": {"Attachment levels cannot be lower than the folder's level ({field} at most {level})", "附件等级不能低于文件夹的等级（{field} 最多为 {level}）"},
	"err.attach_level_above_role":   {"You can only set levels your role can use (level {level} or lower)", "只能设置您的角色可使用的等级（{level} 级或更低）"},
	"err.attach_folder_not_empty":   {"The folder is not empty: move or delete its files and folders first", "文件夹不为空：请先移动或删除其中的文件和文件夹"},
	"err.attach_name_taken":         {"A folder with this name already exists here", "此处已存在同名文件夹"},
	"err.attach_object_taken":       {"This upload is already an attachment", "该上传文件已是附件"},
	"err.share_expired":             {"File sharing has expired", "文件分享已过期"},
	"err.share_locked":              {"Too many wrong access codes: the share is locked until its owner resets it", "访问码错误次数过多：分享已锁定，需由分享者重置"},
	"err.share_code_wrong":          {"Wrong access code ({left} tries left)", "访问码错误（还可尝试 {left} 次）"},
	"err.share_code_format":         {"The access code must be 4 digits", "访问码必须为 4 位数字"},
	"err.share_too_many":            {"A file can have at most {max} shares", "一个文件最多可有 {max} 个分享"},
	"err.share_no_upload":           {"Uploads need you to sign in", "上传文件需要先登录"},
}

// attachInterfaceNames: the Chinese names of the attachment routes
// (internal/httpapi/routes_attach.go), kept beside the domain's messages.
var attachInterfaceNames = map[string]string{
	"GET /api/auth/sys/attach/folder/tree":     "文件夹树",
	"POST /api/auth/sys/attach/folder/add":     "新增文件夹",
	"POST /api/auth/sys/attach/folder/update":  "修改文件夹（名称与等级）",
	"POST /api/auth/sys/attach/folder/delete":  "删除空文件夹",
	"POST /api/auth/sys/attach/file/list":      "附件列表",
	"GET /api/auth/sys/attach/file/detail":     "附件详情",
	"POST /api/auth/sys/attach/file/add":       "登记上传文件为附件",
	"POST /api/auth/sys/attach/file/update":    "修改附件（名称、描述、等级）",
	"POST /api/auth/sys/attach/file/move":      "移动附件",
	"POST /api/auth/sys/attach/file/delete":    "删除附件",
	"GET /api/auth/sys/attach/file/url":        "附件的签名下载地址",
	"POST /api/auth/sys/attach/share/add":      "新增分享",
	"POST /api/auth/sys/attach/share/list":     "附件的分享列表",
	"POST /api/auth/sys/attach/share/reset":    "重置分享（解锁并更换访问码）",
	"POST /api/auth/sys/attach/share/delete":   "删除分享",
	"POST /api/auth/sys/attach/share/log/list": "分享访问记录",
	"POST /api/unauth/share/info":              "分享文件信息（免登录）",
	"POST /api/unauth/share/download":          "分享文件下载（免登录，需访问码）",
	"GET /api/unauth/oss/sts/read":             "免登录读取：分享文件的签名地址",
	"GET /api/unauth/oss/sts/write":            "免登录上传凭证（一律拒绝）",
}

func init() {
	register(attachMessages)
	for k, v := range attachInterfaceNames {
		interfaceNames[k] = v
	}
}
