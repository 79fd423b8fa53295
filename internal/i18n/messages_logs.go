package i18n

// logsMessages: the error log, the log exports and their sheets (docs/logs.md).
var logsMessages = map[string][2]string{
	"err.export_type":         {"Unsupported file type", "不支持的文件类型"},
	"err.log_export_too_many": {"Export failed: more than {max} rows, narrow the filter", "导出失败：超过 {max} 条记录，请缩小筛选范围"},
	"err.time_range":          {"{field}: the range must end after it starts", "{field}：时间范围的结束须晚于开始"},
	"log.sheet.error":         {"Error log", "错误日志"},
	"log.sheet.action":        {"Action log", "操作日志"},
	"log.col.sn":              {"SN", "设备 SN"},
	"log.col.device":          {"Device", "设备"},
	"log.col.type":            {"Error type", "错误类型"},
	"log.col.code":            {"Code", "代码"},
	"log.col.name":            {"Name", "名称"},
	"log.col.level":           {"Level", "级别"},
	"log.col.connector":       {"Connector", "充电枪"},
	"log.col.status":          {"Status", "状态"},
	"log.col.occurred":        {"Occurrence time", "发生时间"},
	"log.col.ended":           {"End time", "结束时间"},
	"log.col.created":         {"Created time", "创建时间"},
	"log.col.info":            {"Info", "信息"},
	"log.col.user":            {"User", "用户"},
	"log.col.actionType":      {"Action type", "操作类型"},
	"log.col.action":          {"Action", "操作"},
	"log.col.data":            {"Data", "数据"},
	"log.col.reason":          {"Logout reason", "退出原因"},
	"log.col.location":        {"Location", "位置"},
	"log.col.ip":              {"IP", "IP 地址"},
	"log.col.time":            {"Time", "时间"},
	"log.kind.1":              {"Alarm", "告警"},
	"log.kind.2":              {"Fault", "故障"},
	"log.level.0":             {"OA (ordinary)", "OA（一般）"},
	"log.level.1":             {"MA (major)", "MA（重要）"},
	"log.level.2":             {"CA (critical)", "CA（紧急）"},
	"log.status.0":            {"Open", "未结束"},
	"log.status.1":            {"Ended", "已结束"},
	"log.atype.0":             {"Login", "登录"},
	"log.atype.1":             {"Logout", "退出"},
	"log.atype.2":             {"Operation", "操作"},
	"log.reason.0":            {"Auth failed", "认证失败"},
	"log.reason.1":            {"User logout", "用户退出"},
	"log.reason.2":            {"Network timeout", "网络超时"},
	"log.reason.3":            {"Forced re-login", "强制重新登录"},
	"log.location.localhost":  {"This computer", "本机"},
	"log.location.LAN":        {"Local network", "局域网"},
}

// logsFieldNames: the input fields of the log calls a validation message names.
var logsFieldNames = map[string][2]string{
	"kinds":  {"Error type", "错误类型"},
	"sort":   {"Order", "排序"},
	"format": {"File type", "文件类型"},
	"userId": {"User", "用户"},
}

// logsInterfaceNames: the Chinese names of the log routes (internal/httpapi/routes_logs.go).
var logsInterfaceNames = map[string]string{
	"POST /api/auth/sys/logs/error/list":    "错误日志",
	"POST /api/auth/sys/logs/error/export":  "导出错误日志（xlsx）",
	"POST /api/auth/sys/logs/action/export": "导出操作日志（xlsx）",
}

func init() {
	register(logsMessages)
	for k, v := range logsFieldNames {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
	for k, v := range logsInterfaceNames {
		interfaceNames[k] = v
	}
}
