package demo

import "chargeops/internal/devmodel"

// Model items are the model admin's own text (their names are shown as entered), so a demo whose
// console speaks Chinese by default gets its items named in Chinese, as a Chinese operator would
// have entered them. The protocol keys stay what the chargers report.
var zhNames = map[string]string{
	"Core":                               "基本参数",
	"Authorization":                      "鉴权",
	"Identity":                           "设备信息",
	"Metering":                           "计量",
	"Heartbeat interval (s)":             "心跳间隔（秒）",
	"Meter value sample interval (s)":    "电表采样间隔（秒）",
	"Connection timeout (s)":             "连接超时（秒）",
	"Local authorize offline":            "离线本地鉴权",
	"Yes|true|boolean\nNo|false|boolean": "是|true|boolean\n否|false|boolean",
	"Number of connectors":               "充电枪数量",
	"Sampled measurands":                 "采样测量值",
	"Soft reboot":                        "软重启",
	"Hard reboot":                        "硬重启",
	"Disable system":                     "禁用系统",
	"Disable connector":                  "禁用充电枪",
	"Firmware upgrade":                   "固件升级",
	"Log upload":                         "日志上传",
	"Remote link start":                  "开启远程链接",
	"Remote link stop":                   "关闭远程链接",
	"Refresh configuration":              "刷新配置",
	"Refresh runtime values":             "刷新运行数据",
	"Set parameters":                     "设置参数",
	"Remote start":                       "远程启动充电",
	"Remote stop":                        "远程停止充电",
	"Unlock connector":                   "解锁充电枪",
	"Clear authorization cache":          "清除授权缓存",
	"Data transfer":                      "数据传输",
	"Reserve connector":                  "预约充电枪",
	"Cancel reservation":                 "取消预约",
	"Send local list":                    "下发本地列表",
	"Read local list version":            "读取本地列表版本",
	"Set charging profile":               "设置充电配置文件",
	"Clear charging profiles":            "清除充电配置文件",
	"Get composite schedule":             "获取组合计划",
	"Storage power setpoint":             "储能功率设定",
	"Set storage mode":                   "设置储能运行模式",
	"Start or stop storage":              "储能启停",
	"Storage fault reset":                "储能故障复位",
	"Storage":                            "储能",
	"Peak limit (W)":                     "削峰限值 (W)",
	"Backup reserve (%)":                 "备电保留 (%)",
	"Minimum state of charge (%)":        "最低荷电状态 (%)",
	"Maximum state of charge (%)":        "最高荷电状态 (%)",
	"Operating mode":                     "运行模式",
	"Self-consumption":                   "自发自用",
	"Peak shaving":                       "削峰",
	"Backup":                             "备电",
	"Manual":                             "手动",
	"Connector":                          "充电枪",
	"Key":                                "参数键",
	"Value":                              "参数值",
}

// inChinese is the item with its names (and enum labels) in Chinese.
func inChinese(it devmodel.Item) devmodel.Item {
	zh := func(s string) string {
		if t, ok := zhNames[s]; ok {
			return t
		}
		return s
	}
	it.ConfigGroup, it.ConfigItem, it.ControlName = zh(it.ConfigGroup), zh(it.ConfigItem), zh(it.ControlName)
	it.Param1Name, it.Param2Name = zh(it.Param1Name), zh(it.Param2Name)
	if it.DataType == "enum" {
		it.DataRange = zh(it.DataRange)
	}
	return it
}
