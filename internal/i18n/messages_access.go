package i18n

// accessMessages: who may change whom, and which interfaces stay as the code declares them.
var accessMessages = map[string][2]string{
	"err.user_stronger":    {"You cannot change a user whose role is stronger than yours", "不能修改角色权限高于自己的用户"},
	"err.interface_locked": {"This interface is root-only, public or security-relevant and cannot be changed in the console", "该接口仅限超级管理员、无需登录或与安全相关，不能在控制台修改"},
}

func init() { register(accessMessages) }
