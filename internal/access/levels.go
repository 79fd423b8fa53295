package access

// Levels are checked here, one function per kind, and nowhere else: the services call these
// (docs/decisions.md, "Levels"). Levels are 0-5, 0 the highest; a role at level L may use an
// item of level L or numerically higher (CanReadLevel). Root bypasses every level.

// WEB/SSH access settings of a role (RoleSettings.WebSSHAccess).
const (
	WebSSHDisabled    = 0 // no remote link at all
	WebSSHRoot        = 1 // SSH terminal and web page, with the device's root account
	WebSSHWebAdmin    = 2 // web page only, with the device's admin account
	WebSSHWebEngineer = 3 // web page only, with the device's engineer account
)

// Link kinds a remote link (control types 7 and 8) opens on a device.
const (
	LinkWeb = "web" // the device's web page
	LinkSSH = "ssh" // the device's SSH terminal
)

// Device accounts a link logs in with (LinkAccount).
const (
	AccountRoot     = "root"
	AccountAdmin    = "admin"
	AccountEngineer = "engineer"
)

// CanReadConfig reports whether p may see a config item whose read level is itemReadLevel.
func CanReadConfig(p *Principal, itemReadLevel int) bool {
	return p.Root || CanReadLevel(p.Role.CfgReadLevel, itemReadLevel)
}

// CanWriteConfig reports whether p may change a config item whose write level is itemWriteLevel.
func CanWriteConfig(p *Principal, itemWriteLevel int) bool {
	return p.Root || CanReadLevel(p.Role.CfgWriteLevel, itemWriteLevel)
}

// CanWriteUnlistedConfig reports whether p may set configuration keys the device's model does
// not describe, and credential keys (AuthorizationKey) whatever the model says: root, or a role
// whose config write level is 0.
func CanWriteUnlistedConfig(p *Principal) bool {
	return p.Root || p.Role.CfgWriteLevel == 0
}

// CanDownloadConfig reports whether p may read a device's configuration off the device
// (GetConfiguration, control type 9) whose control item has itemLevel.
func CanDownloadConfig(p *Principal, itemLevel int) bool {
	return p.Root || CanReadLevel(p.Role.CfgDownloadLevel, itemLevel)
}

// CanUseParam reports whether p may use a parameter item (its read level to see it, its write
// level to change it) or a remote operation whose control item has itemLevel.
func CanUseParam(p *Principal, itemLevel int) bool {
	return p.Root || CanReadLevel(p.Role.ParamLevel, itemLevel)
}

// CanOpenLink reports whether p may open or close a remote link of kind (LinkWeb, LinkSSH) on a
// device whose control item for it has itemLevel: the role's WEB/SSH access must allow the kind
// and its WEB/SSH level the item.
func CanOpenLink(p *Principal, kind string, itemLevel int) bool {
	if p.Root {
		return true
	}
	switch p.Role.WebSSHAccess {
	case WebSSHRoot:
		if kind != LinkWeb && kind != LinkSSH {
			return false
		}
	case WebSSHWebAdmin, WebSSHWebEngineer:
		if kind != LinkWeb {
			return false
		}
	default:
		return false
	}
	return CanReadLevel(p.Role.WebSSHLevel, itemLevel)
}

// CanManageCertificates reports whether p may renew, install, list or delete a charger's
// certificates (control types 21-24) whose control item has itemLevel. Certificates decide who
// may connect as the charger and whom it trusts, so they take the remote link's rule: a role
// with WEB/SSH access (any mode but disabled) at a WEB/SSH level that reaches the item
// (docs/security-profiles.md, "Certificates on the charger").
func CanManageCertificates(p *Principal, itemLevel int) bool {
	if p.Root {
		return true
	}
	return p.Role.WebSSHAccess != WebSSHDisabled && CanReadLevel(p.Role.WebSSHLevel, itemLevel)
}

// LinkAccount is the device account a link opened by p logs in with ("" when p may open none).
func LinkAccount(p *Principal) string {
	if p.Root {
		return AccountRoot
	}
	switch p.Role.WebSSHAccess {
	case WebSSHRoot:
		return AccountRoot
	case WebSSHWebAdmin:
		return AccountAdmin
	case WebSSHWebEngineer:
		return AccountEngineer
	}
	return ""
}

// CanUseDocument reports whether p may use a document whose level is itemLevel.
func CanUseDocument(p *Principal, itemLevel int) bool {
	return p.Root || CanReadLevel(p.Role.DocLevel, itemLevel)
}

// CanUseAttachment reports whether p may use an attachment or folder whose level is itemLevel.
func CanUseAttachment(p *Principal, itemLevel int) bool {
	return p.Root || CanReadLevel(p.Role.AttachLevel, itemLevel)
}
