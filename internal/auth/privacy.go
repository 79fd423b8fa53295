package auth

import "chargeops/internal/i18n"

// DefaultPrivacyVersion is the built-in policy's version; an operator replaces the policy by
// storing {"version", "content": {locale: html}} under the setting "privacy.policy".
const DefaultPrivacyVersion = "2026-11-01"

// DefaultPrivacy is the built-in policy text (plain HTML, no scripts).
func DefaultPrivacy(locale string) string {
	if locale == i18n.ZhCN {
		return `<h3>隐私政策</h3><p>chargeops 为运维本组织的充电与储能设备而处理以下数据：账号信息（用户名、昵称、邮箱、联系方式）、登录与操作记录（时间、IP 地址、操作内容），以及设备上报的运行数据。</p><p>这些数据仅用于设备运维、安全审计和故障诊断，保存在本组织的服务器上，不会出售或用于广告。您可以联系管理员查看、更正或删除您的个人数据。</p><p>继续使用即表示您同意本政策。</p>`
	}
	return `<h3>Privacy policy</h3><p>chargeops processes the following data to operate your organisation's charging and energy-storage equipment: account data (user name, nickname, email, contact), sign-in and action records (time, IP address, what was done) and the operating data the devices report.</p><p>The data serves device operation, security audit and fault diagnosis only. It stays on your organisation's servers and is never sold or used for advertising. Ask your administrator to see, correct or delete your personal data.</p><p>By continuing you accept this policy.</p>`
}
