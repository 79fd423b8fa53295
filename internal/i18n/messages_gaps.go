package i18n

// gapMessages: the specification's last gaps (issue 29): the privacy policy held by the server,
// regions, the device parameter import and the parameter-set timeout.
var gapMessages = map[string][2]string{
	"err.privacy_pending":     {"Please accept the privacy policy first", "请先同意隐私政策"},
	"err.setting_timeout":     {"Setting timeout", "设置超时"},
	"err.param_import_format": {"Upload file format error, only JSON", "上传文件格式错误，仅支持 JSON"},
	"err.param_import_keys":   {"These parameters cannot be set on this device: {keys}", "以下参数不能在该设备上设置：{keys}"},
}

// gapInterfaceNames: the Chinese names of the routes these gaps add.
var gapInterfaceNames = map[string]string{
	"POST /api/auth/sys/dev/config/import": "读取设备参数文件（JSON）",
	"GET /api/auth/sys/dict/region/all":    "全部地区（国家、省份与城市）",
}

func init() {
	register(gapMessages)
	for k, v := range gapInterfaceNames {
		interfaceNames[k] = v
	}
}
