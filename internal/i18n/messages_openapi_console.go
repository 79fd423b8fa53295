package i18n

// openapiConsoleFieldNames: the fields of the console's request log and statistics calls
// (docs/openapi-console.md).
var openapiConsoleFieldNames = map[string][2]string{
	"endpoint": {"Endpoint", "接口"},
	"outcome":  {"Result", "结果"},
}

// openapiConsoleInterfaceNames: the Chinese names of the console's OpenAPI routes
// (internal/httpapi/routes_openapi_console.go).
var openapiConsoleInterfaceNames = map[string]string{
	"POST /api/auth/sys/openapi/app/list":  "开放接口：应用及近期调用",
	"POST /api/auth/sys/openapi/log/list":  "开放接口：应用请求日志",
	"POST /api/auth/sys/openapi/log/stats": "开放接口：应用访问统计",
}

func init() {
	for k, v := range openapiConsoleFieldNames {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
	for k, v := range openapiConsoleInterfaceNames {
		interfaceNames[k] = v
	}
}
