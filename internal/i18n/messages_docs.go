package i18n

// docsMessages: the docs wiki (docs/docs-wiki.md).
var docsMessages = map[string][2]string{
	"err.docs_platform":           {"Platform documents and categories can only be changed by a user who sees every customer", "平台文档和分类只能由可查看所有客户的用户修改"},
	"err.docs_icon_kind":          {"The icon must be an uploaded document icon (jpg or png, at most 500 KB)", "图标必须是已上传的文档图标（jpg 或 png，不超过 500 KB）"},
	"err.docs_category_taken":     {"A category with this name already exists", "已存在同名分类"},
	"err.docs_category_not_empty": {"The category still holds documents: move or delete them first", "该分类下仍有文档：请先移动或删除这些文档"},
	"err.docs_write_level":        {"Your document level does not allow changing this document", "您的文档等级不允许修改此文档"},
	"err.docs_write_below_read":   {"The write level cannot be lower than the read level", "写等级不能低于读等级"},
	"err.docs_level_above_role":   {"You can only set levels your role can use (level {level} or lower)", "只能设置您的角色可使用的等级（{level} 级或更低）"},
	"err.docs_alarm_only":         {"Only alarm documents (type 100) have a model and alarm codes", "只有告警文档（类型 100）可设置型号和告警代码"},
	"err.docs_content_size":       {"The content is too large (at most 2 MB)", "内容过大（最多 2 MB）"},
	"err.docs_image":              {"An image in the content is not an upload you may use", "内容中的图片不是您可使用的上传文件"},
}

// docsInterfaceNames: the Chinese names of the docs routes (internal/httpapi/routes_docs.go).
var docsInterfaceNames = map[string]string{
	"GET /api/auth/sys/article/home":             "文档首页（分类、最近文档）",
	"POST /api/auth/sys/article/search":          "文档全文搜索",
	"POST /api/auth/sys/article/list":            "文档列表",
	"GET /api/auth/sys/article/detail":           "文档详情",
	"POST /api/auth/sys/article/add":             "新增文档",
	"POST /api/auth/sys/article/update":          "修改文档属性",
	"POST /api/auth/sys/article/content":         "保存文档内容",
	"POST /api/auth/sys/article/status":          "启用或禁用文档",
	"POST /api/auth/sys/article/delete":          "删除文档",
	"GET /api/auth/sys/article/category/list":    "文档分类列表",
	"POST /api/auth/sys/article/category/add":    "新增文档分类",
	"POST /api/auth/sys/article/category/update": "修改文档分类",
	"POST /api/auth/sys/article/category/delete": "删除文档分类",
	"GET /api/auth/sys/article/draft/get":        "读取编辑草稿",
	"POST /api/auth/sys/article/draft/save":      "自动保存编辑草稿",
	"POST /api/auth/sys/article/draft/delete":    "丢弃编辑草稿",
}

func init() {
	register(docsMessages)
	for k, v := range docsInterfaceNames {
		interfaceNames[k] = v
	}
}
