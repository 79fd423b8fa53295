package i18n

import "regexp"

// fieldNames: the input fields a validation message names ({field}), as the console labels
// them. Keys are JSON field names; an index ("params.items[2].value") is looked up without it.
var fieldNames = map[string][2]string{
	"access":             {"Access", "访问权限"},
	"address":            {"Address", "地址"},
	"alias":              {"Alias", "别名"},
	"arrivalDate":        {"Arrival date", "到货日期"},
	"avatar":             {"Avatar", "头像"},
	"buildDate":          {"Build date", "建站日期"},
	"code":               {"Code", "编码"},
	"configGroup":        {"Config group", "配置分组"},
	"configItem":         {"Config item", "配置项"},
	"contact":            {"Contact", "联系方式"},
	"contactPerson":      {"Contact person", "联系人"},
	"contactPhone":       {"Contact phone", "联系电话"},
	"controlName":        {"Control name", "控制名称"},
	"controlType":        {"Operation", "操作"},
	"controlTypeCode":    {"Control type", "控制类型"},
	"cursor":             {"Page position", "翻页位置"},
	"customerId":         {"Customer", "客户"},
	"dataRange":          {"Data range", "数据范围"},
	"dataType":           {"Data type", "数据类型"},
	"category":           {"Category", "类别"},
	"description":        {"Description", "描述"},
	"descriptionZh":      {"Chinese description", "中文描述"},
	"deviceIds":          {"Devices", "设备"},
	"deviceType":         {"Device type", "设备类型"},
	"displayPriority":    {"Display priority", "显示优先级"},
	"email":              {"Email", "邮箱"},
	"endTime":            {"End time", "结束时间"},
	"groupId":            {"Group", "分组"},
	"hidden":             {"Hidden from the sidebar", "在侧边栏中隐藏"},
	"icon":               {"Icon", "图标"},
	"image":              {"Image", "图片"},
	"ids":                {"Selection", "所选记录"},
	"images":             {"Images", "图片"},
	"installDate":        {"Install date", "安装日期"},
	"key":                {"Key", "标识"},
	"labelEn":            {"English name", "英文名称"},
	"labelZh":            {"Chinese name", "中文名称"},
	"kind":               {"Kind", "类别"},
	"level":              {"Level", "等级"},
	"locale":             {"Language", "语言"},
	"logo":               {"Logo", "标志"},
	"maintenanceCycle":   {"Maintenance cycle", "维护周期"},
	"maxSites":           {"Site limit", "站点上限"},
	"modelId":            {"Model", "型号"},
	"name":               {"Name", "名称"},
	"names":              {"Data items", "数据项"},
	"nameZh":             {"Chinese name", "中文名称"},
	"nickName":           {"Nickname", "昵称"},
	"param1Name":         {"Parameter 1 name", "参数 1 名称"},
	"param2Name":         {"Parameter 2 name", "参数 2 名称"},
	"params.connectorId": {"Connector", "充电枪"},
	"params.firmwareId":  {"Firmware file", "固件文件"},
	"params.items":       {"Configuration values", "配置值"},
	"params.items.key":   {"Configuration key", "配置键"},
	"params.items.value": {"Configuration value", "配置值"},
	"params.link":        {"Remote link", "远程链接"},
	"params.message":     {"Message to trigger", "触发的消息"},
	"parentId":           {"Parent", "上级"},
	"parentKey":          {"Parent menu", "上级菜单"},
	"password":           {"Password", "密码"},
	"protocolKey":        {"Protocol key", "协议键"},
	"readLevel":          {"Read level", "读取等级"},
	"receivers":          {"Receivers", "接收人"},
	"roleId":             {"Role", "角色"},
	"site":               {"Site", "站点"},
	"siteId":             {"Site", "站点"},
	"siteIds":            {"Sites", "站点"},
	"sn":                 {"SN", "SN"},
	"softwareVersion":    {"Software version", "软件版本"},
	"startTime":          {"Start time", "开始时间"},
	"start":              {"Start", "开始时间"},
	"end":                {"End", "结束时间"},
	"status":             {"Status", "状态"},
	"telephone":          {"Telephone", "电话"},
	"unit":               {"Unit", "单位"},
	"step":               {"Step", "步长"},
	"url":                {"URL", "URL"},
	"userName":           {"User name", "用户名"},
	"vendor":             {"Vendor", "厂商"},
	"version":            {"Version", "版本"},
	"writeLevel":         {"Write level", "写入等级"},
	"attachLevel":        {"Attachment level", "附件级别"},
	"cfgDownloadLevel":   {"Config download level", "配置下载级别"},
	"cfgReadLevel":       {"Config read level", "配置读级别"},
	"cfgWriteLevel":      {"Config write level", "配置写级别"},
	"customerAccess":     {"Customer access", "客户权限"},
	"docLevel":           {"Document level", "文档级别"},
	"paramLevel":         {"Parameter level", "参数级别"},
	"siteAccess":         {"Site access", "站点权限"},
	"webSshAccess":       {"WEB/SSH access", "WEB/SSH 权限"},
	"webSshLevel":        {"WEB/SSH level", "WEB/SSH 级别"},
	"nameEn":             {"English name", "英文名称"},
	"sort":               {"Sort", "排序"},
	"method":             {"Method", "方法"},
	"keys":               {"Permission keys", "权限标识"},
}

var fieldIndex = regexp.MustCompile(`\[\d+\]`)

// FieldName is the label of an input field in locale: the field as given, then without list
// indices; an unknown field (a device's own configuration key, say) is shown as it is.
func FieldName(locale, field string) string {
	for _, k := range []string{field, fieldIndex.ReplaceAllString(field, "")} {
		if m, ok := fieldNames[k]; ok {
			return pick(locale, m)
		}
	}
	return field
}

// FieldKeys lists the fields with a label (tests check both locales are filled).
func FieldKeys() []string {
	out := make([]string, 0, len(fieldNames))
	for k := range fieldNames {
		out = append(out, k)
	}
	return out
}
