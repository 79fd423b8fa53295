package i18n

// chargerKeyMessages: charger authorization keys (docs/gateway.md, "Key guesses").
var chargerKeyMessages = map[string][2]string{
	"err.auth_key_length": {"{field}: the authorization key must be {min} to {max} characters long", "{field}：授权密钥长度须为 {min} 至 {max} 个字符"},
}

func init() { register(chargerKeyMessages) }
