package i18n

// levelsMessages: config, parameter and WEB/SSH levels enforced on remote operations, and the
// bounds of data-chart series (docs/decisions.md, "Levels").
var levelsMessages = map[string][2]string{
	"err.config_write_level":      {"Your role may not change {key}", "您的角色无权修改 {key}"},
	"err.config_secret_key":       {"Only the super admin or a role with config write level 0 may set {key}", "仅超级管理员或配置写等级为 0 的角色可以设置 {key}"},
	"err.config_unlisted_key":     {"{key} is not an item of this device's model; only the super admin or a role with config write level 0 may set it", "{key} 不是该设备型号的配置项，仅超级管理员或配置写等级为 0 的角色可以设置"},
	"err.config_readonly":         {"{field}: {key} is read-only on this device", "{field}：{key} 在该设备上为只读"},
	"err.config_value_range":      {"{field}: the value of {key} must be {dataType} within {range}", "{field}：{key} 的值须为{dataType}，范围 {range}"},
	"err.certificate_not_allowed": {"Your role's WEB/SSH access may not manage this device's certificates", "您角色的 WEB/SSH 权限不足，无法管理该设备的证书"},
	"err.link_not_allowed":        {"Your role may not open or close a {link} link on this device", "您的角色无权在该设备上打开或关闭 {link} 远程链接"},
	"err.series_out_of_range":     {"{field} must be between {min} and {max}", "{field} 须在 {min} 到 {max} 之间"},
	"err.series_end_before_start": {"{field} must be later than the start time", "{field} 须晚于开始时间"},
	"err.stats_range":             {"{field}: the range must end after it starts and span at most {max} days", "{field}：时间范围须在开始之后结束，且最多 {max} 天"},
	"err.series_range_too_long":   {"{field}: the time range can be at most {max} days", "{field}：时间范围最多 {max} 天"},
	"err.series_too_many_points":  {"{field}: at most {max} points per series; choose a larger step or a shorter range", "{field}：每条曲线最多 {max} 个点，请选择更大的步长或更短的时间范围"},
}

func init() { register(levelsMessages) }
