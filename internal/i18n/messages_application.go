package i18n

// applicationMessages: applications (docs/applications.md).
var applicationMessages = map[string][2]string{
	"err.app_name_long":        {"The name can have at most {max} characters", "名称最多 {max} 个字符"},
	"err.app_description_long": {"The description can have at most {max} characters", "描述最多 {max} 个字符"},
	"err.app_user_invalid":     {"Choose a bound user that you may manage (an existing user within your scope, whose role is not stronger than yours)", "请选择您可管理的绑定用户（在您的数据范围内、角色不高于您的现有用户）"},
}

// applicationFieldNames: the fields of the application form.
var applicationFieldNames = map[string][2]string{
	"userId": {"Bound user", "绑定用户"},
}

// applicationInterfaceNames: the Chinese names of the application routes
// (internal/httpapi/routes_application.go).
var applicationInterfaceNames = map[string]string{
	"POST /api/auth/sys/application/list":          "应用列表",
	"GET /api/auth/sys/application/detail":         "应用详情（不含密钥）",
	"POST /api/auth/sys/application/add":           "新增应用（仅此一次显示密钥）",
	"POST /api/auth/sys/application/update":        "修改应用",
	"POST /api/auth/sys/application/status":        "启用或停用应用",
	"POST /api/auth/sys/application/delete":        "删除应用",
	"POST /api/auth/sys/application/secret/rotate": "轮换应用密钥（旧密钥在宽限期内仍有效）",
	"POST /api/auth/sys/application/user/options":  "可绑定的用户（选择框）",
}

func init() {
	register(applicationMessages)
	for k, v := range applicationFieldNames {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
	for k, v := range applicationInterfaceNames {
		interfaceNames[k] = v
	}
}
