package i18n

// gapMessages: the specification's last gaps (issue 29): the privacy policy held by the server,
// regions, the device parameter import and the parameter-set timeout.
var gapMessages = map[string][2]string{
	"err.privacy_pending": {"Please accept the privacy policy first", "请先同意隐私政策"},
	"err.setting_timeout": {"Setting timeout", "设置超时"},
}

func init() { register(gapMessages) }
