package i18n

// signedMessages: signed firmware files and logs a charger uploads, control types 5 (signed) and
// 25 (docs/security-profiles.md, "Signed firmware and logs"): refusals before anything is stored
// or sent, and the charger's answers.
var signedMessages = map[string][2]string{
	"err.firmware_certificate":  {"{field} must be a PEM-encoded X.509 certificate of at most {max} characters", "{field} 须为 PEM 编码的 X.509 证书，最多 {max} 个字符"},
	"err.firmware_signature":    {"{field} must be base64 of at most {max} characters", "{field} 须为 Base64 编码，最多 {max} 个字符"},
	"err.firmware_signing_pair": {"{field} is required: a signed firmware file needs both the signing certificate and the signature", "{field} 不能为空：签名固件须同时提供签名证书和签名"},
	"ocpp.AcceptedCanceled":     {"Accepted, the previous one cancelled", "已接受，之前的任务已取消"},
	"ocpp.InvalidCertificate":   {"Invalid certificate", "证书无效"},
	"ocpp.RevokedCertificate":   {"Certificate revoked", "证书已吊销"},
}

// signedFields: the signing fields of a firmware file and the parameters of control type 25.
var signedFields = map[string][2]string{
	"signingCertificate": {"Signing certificate", "签名证书"},
	"signature":          {"Signature", "签名"},
	"params.logType":     {"Log type", "日志类型"},
	"params.retries":     {"Retries", "重试次数"},
}

func init() {
	register(signedMessages)
	for k, v := range signedFields {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
}
