package i18n

// installedCertificateMessages: certificates on the charger, control types 22-24
// (docs/security-profiles.md, "Certificates on the charger"): refusals before anything is sent,
// and the charger's answers.
var installedCertificateMessages = map[string][2]string{
	"err.certificate_type":           {"{field} must be CentralSystemRootCertificate or ManufacturerRootCertificate", "{field} 须为 CentralSystemRootCertificate 或 ManufacturerRootCertificate"},
	"err.certificate_not_pem":        {"{field} is not a PEM-encoded X.509 certificate", "{field} 不是 PEM 编码的 X.509 证书"},
	"err.certificate_one":            {"{field} must hold exactly one certificate", "{field} 只能包含一张证书"},
	"err.certificate_not_ca":         {"{field} is not a CA certificate; only root (CA) certificates can be installed", "{field} 不是 CA 证书，只能安装根（CA）证书"},
	"err.certificate_hash_algorithm": {"{field} must be SHA256, SHA384 or SHA512", "{field} 须为 SHA256、SHA384 或 SHA512"},
	"err.certificate_hash":           {"{field} must be {digits} hexadecimal digits ({algorithm})", "{field} 须为 {digits} 位十六进制数（{algorithm}）"},
	"ocpp.NotFound":                  {"Not found", "未找到"},
	"ocpp.Failed":                    {"Failed", "失败"},
}

// installedCertificateFields: the parameters of control types 22-24.
var installedCertificateFields = map[string][2]string{
	"params.certificateType":                    {"Certificate type", "证书类型"},
	"params.certificate":                        {"Certificate", "证书"},
	"params.certificateHashData":                {"Certificate hash data", "证书哈希数据"},
	"params.certificateHashData.hashAlgorithm":  {"Hash algorithm", "哈希算法"},
	"params.certificateHashData.issuerNameHash": {"Issuer name hash", "签发者名称哈希"},
	"params.certificateHashData.issuerKeyHash":  {"Issuer key hash", "签发者公钥哈希"},
	"params.certificateHashData.serialNumber":   {"Serial number", "序列号"},
}

func init() {
	register(installedCertificateMessages)
	for k, v := range installedCertificateFields {
		if _, ok := fieldNames[k]; !ok {
			fieldNames[k] = v
		}
	}
}
