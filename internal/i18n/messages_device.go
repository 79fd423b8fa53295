package i18n

// deviceMessages: device register and device models (access rules in docs/decisions.md).
var deviceMessages = map[string][2]string{
	"err.sn_unusable":               {"This SN cannot be used: check it, or ask the platform administrator", "该 SN 无法使用：请核对，或联系平台管理员"},
	"err.device_name_unusable":      {"This device name cannot be used, choose another one", "该设备名称无法使用，请换一个"},
	"err.name_unusable":             {"This name cannot be used, choose another one", "该名称无法使用，请换一个"},
	"err.model_shared":              {"This model may be used by devices outside your data access: only an administrator who sees all of them can change it", "该型号可能被您数据权限以外的设备使用，只有能查看所有这些设备的管理员才能修改"},
	"err.import_only_example":       {"The file holds only the template's example row, which is skipped: add your devices below it (or over it)", "文件中只有模板的示例行（导入时跳过）：请在其下方（或覆盖它）填写您的设备"},
	"err.import_site":               {"Site code column: no site with code \"{code}\" is in your data access", "站点编码列：您的数据权限中没有编码为“{code}”的站点"},
	"err.import_model":              {"Model column: the site's customer cannot use a model named \"{model}\"", "型号列：该站点的客户不能使用名为“{model}”的型号"},
	"err.import_cycle":              {"Maintenance cycle (days) column: \"{value}\" is not a whole number of days", "维护周期（天）列：“{value}”不是整数天数"},
	"err.device_key_length":         {"A device key is 16 to 40 characters (leave it empty and a key is made for you)", "设备密钥为 16 到 40 个字符（留空则自动生成）"},
	"err.device_key_chars":          {"A device key is letters, digits and punctuation, without spaces", "设备密钥只能包含字母、数字和标点，不能有空格"},
	"err.import_unpacked_too_large": {"The file unpacks to more than {max} MB; save it from the import template again", "文件解压后超过 {max} MB，请用导入模板重新保存"},
}

// deviceFieldNames: the device list's inputs a validation message names (issue 30 item 7).
var deviceFieldNames = map[string][2]string{
	"offlineFor": {"Offline for longer than", "离线超过"},
	"authKey":    {"Device key", "设备密钥"},
}

func init() {
	register(deviceMessages)
	for k, v := range deviceFieldNames {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
}
