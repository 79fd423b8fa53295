package i18n

// storageMessages: the upload rules (docs/storage.md, "Upload rules").
var storageMessages = map[string][2]string{
	"err.upload_too_big": {"File size cannot exceed {maxSize}", "文件大小不能超过 {maxSize}"},
	"err.upload_type":    {"Only {typeList} can be uploaded", "只能上传 {typeList} 格式的文件"},
	// the file's own fault, not its type (issue 30 item 12)
	"err.upload_content": {"The file's content is not a valid .{ext} file: it may be damaged, incomplete or renamed", "文件内容不是有效的 .{ext} 文件：可能已损坏、不完整或被改名"},
	"err.upload_empty":   {"The file is empty", "文件为空"},
	// A replayed upload target (docs/storage.md, "Staging").
	"err.upload_closed": {"This upload link has already been used or has expired; upload the file again", "该上传链接已使用或已失效，请重新上传文件"},
}

// storageInterfaceNames: the Chinese names of the storage routes
// (internal/httpapi/routes_storage.go), kept beside the domain's messages.
var storageInterfaceNames = map[string]string{
	"GET /api/auth/sys/system/oss/sts/write": "上传凭证：新对象键与签名上传地址",
	"POST /api/auth/sys/system/oss/confirm":  "确认上传（校验大小与内容并登记）",
	"GET /api/auth/sys/system/oss/sts/read":  "对象的签名下载地址",
	"GET /api/auth/sys/system/oss/url":       "对象键的显示地址",
	"PUT /api/unauth/oss/object/{key...}":    "本地存储：签名上传对象",
	"GET /api/unauth/oss/object/{key...}":    "本地存储：签名下载对象",
}

func init() {
	register(storageMessages)
	for k, v := range storageInterfaceNames {
		interfaceNames[k] = v
	}
}
