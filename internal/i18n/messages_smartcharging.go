package i18n

// scMessages: smart charging, control types 26-28, and the site load manager (issue 25,
// docs/smart-charging.md): refusals before anything is sent, and the charger's answers.
var scMessages = map[string][2]string{
	"err.sc_station_connector": {"{field}: a charger-wide maximum profile is set on connector 0", "{field}：整桩最大功率配置文件只能设置在 0 号充电枪"},
	"err.sc_periods":           {"{field}: 1 to {max} periods", "{field}：须有 1 至 {max} 个时段"},
	"err.sc_first_period":      {"{field}: the first period starts at 0 s", "{field}：第一个时段须从 0 秒开始"},
	"err.sc_period_order":      {"{field}: periods start in increasing order within the schedule's duration", "{field}：时段起点须递增且在计划时长之内"},
	"err.sc_reserved_id":       {"{field}: profile ids above {max} belong to the load manager", "{field}：大于 {max} 的配置文件编号由负载管理使用"},
	"err.sc_duration":          {"{field}: 1 to {max} seconds", "{field}：须为 1 至 {max} 秒"},
	"err.sc_unit":              {"{field}: the charger takes schedules only in {units}; nothing was sent", "{field}：该充电桩只接受单位为 {units} 的计划，未发送任何指令"},
	"err.sc_stack":             {"{field}: the charger takes stack levels up to {max}; nothing was sent", "{field}：该充电桩的堆叠级别最高为 {max}，未发送任何指令"},
	"err.sc_too_many":          {"{field}: the charger holds at most {max} profiles; clear one first", "{field}：该充电桩最多保存 {max} 个配置文件，请先清除"},
	"err.sc_load_slot":         {"{field}: stack level {level} of this purpose on this connector carries the load manager's profile; choose another", "{field}：该充电枪此用途的堆叠级别 {level} 已用于负载管理的配置文件，请选择其他级别"},
	"err.sc_rejected":          {"The charger refused the charging profile", "充电桩拒绝了该充电配置文件"},
	"err.sc_not_supported":     {"The charger does not support smart charging", "充电桩不支持智能充电"},
	"err.sc_clear_unknown":     {"The charger holds no matching profile", "充电桩上没有匹配的配置文件"},
	"err.session_not_found":    {"The charger has not named this session; nothing was sent", "充电桩尚未告知该会话的编号，未发送任何指令"},
	"err.sc_limit_one":         {"{field}: give the limit in kW or in A per phase, not both", "{field}：限制请只填写千瓦或每相电流其中一项"},
	"err.sc_window":            {"{field}: a window is HH:MM to HH:MM with its limit in kW", "{field}：时段格式为 HH:MM 至 HH:MM，并填写千瓦限制"},
}

// scFields: the parameters of control types 26-28 and the fields of the power settings.
var scFields = map[string][2]string{
	"params.profile":                         {"Charging profile", "充电配置文件"},
	"params.profile.id":                      {"Profile ID", "配置文件编号"},
	"params.profile.stackLevel":              {"Stack level", "堆叠级别"},
	"params.profile.purpose":                 {"Purpose", "用途"},
	"params.profile.kind":                    {"Kind", "类型"},
	"params.profile.recurrency":              {"Recurrency", "重复周期"},
	"params.profile.validTo":                 {"Valid to", "有效期至"},
	"params.profile.transactionId":           {"Charging session", "充电会话"},
	"params.profile.schedule.unit":           {"Unit", "单位"},
	"params.profile.schedule.start":          {"Schedule start", "计划开始时间"},
	"params.profile.schedule.duration":       {"Schedule duration", "计划时长"},
	"params.profile.schedule.minRate":        {"Minimum rate", "最小充电速率"},
	"params.profile.schedule.periods":        {"Periods", "时段"},
	"params.profile.schedule.periods.limit":  {"Period limit", "时段限值"},
	"params.profile.schedule.periods.phases": {"Phases", "相数"},
	"params.clear.id":                        {"Profile ID", "配置文件编号"},
	"params.clear.connectorId":               {"Connector", "充电枪"},
	"params.clear.purpose":                   {"Purpose", "用途"},
	"params.clear.stackLevel":                {"Stack level", "堆叠级别"},
	"params.duration":                        {"Duration", "时长"},
	"params.rateUnit":                        {"Unit", "单位"},
	"limitKw":                                {"Limit (kW)", "限制（千瓦）"},
	"limitA":                                 {"Limit (A per phase)", "限制（每相安培）"},
	"minA":                                   {"Minimum current", "最小电流"},
	"maxA":                                   {"Maximum current", "最大电流"},
	"schedule":                               {"Time-of-day limits", "分时限制"},
	"editLevel":                              {"Edit level", "编辑级别"},
	"phases":                                 {"Phases", "相数"},
	"phase":                                  {"Phase", "相位"},
	"priority":                               {"Priority", "优先级"},
}

// scInterfaceNames: the Chinese names of the smart-charging routes
// (internal/httpapi/routes_smartcharging.go).
var scInterfaceNames = map[string]string{
	"GET /api/auth/sys/dev/profile/list":   "设备的充电配置文件",
	"GET /api/auth/sys/dev/power":          "充电桩的负载管理设置",
	"POST /api/auth/sys/dev/power":         "设置充电桩的负载管理参数",
	"GET /api/auth/sys/site/power":         "站点功率与负载分配",
	"POST /api/auth/sys/site/power":        "设置站点功率限制",
	"GET /api/auth/sys/site/power/history": "站点功率历史",
	"GET /openapi/v1/site-power":           "开放接口：站点功率与负载分配",
	"POST /openapi/v1/site-power":          "开放接口：设置站点功率限制",
	"GET /openapi/v1/charging-profiles":    "开放接口：设备的充电配置文件",
	"POST /openapi/v1/charging-profiles":   "开放接口：设置充电配置文件",
}

func init() {
	register(scMessages)
	for k, v := range scInterfaceNames {
		interfaceNames[k] = v
	}
	for k, v := range scFields {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
}
