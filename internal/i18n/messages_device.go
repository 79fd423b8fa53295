package i18n

// deviceMessages: device register and device models (access rules in docs/decisions.md).
var deviceMessages = map[string][2]string{
	"err.sn_unusable":               {"This SN cannot be used: check it, or ask the platform administrator", "该 SN 无法使用：请核对，或联系平台管理员"},
	"err.device_name_unusable":      {"This device name cannot be used, choose another one", "该设备名称无法使用，请换一个"},
	"err.name_unusable":             {"This name cannot be used, choose another one", "该名称无法使用，请换一个"},
	"err.model_shared":              {"This model may be used by devices outside your data access: only an administrator who sees all of them can change it", "该型号可能被您数据权限以外的设备使用，只有能查看所有这些设备的管理员才能修改"},
	"err.import_unpacked_too_large": {"The file unpacks to more than {max} MB; save it from the import template again", "文件解压后超过 {max} MB，请用导入模板重新保存"},
}

// deviceFieldNames: the device list's inputs a validation message names (issue 30 item 7).
var deviceFieldNames = map[string][2]string{
	"offlineFor": {"Offline for longer than", "离线超过"},
}

func init() {
	register(deviceMessages)
	for k, v := range deviceFieldNames {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
}
