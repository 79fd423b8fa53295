package i18n

// durabilityMessages: what the node says after a fault (docs/operations.md).
var durabilityMessages = map[string][2]string{
	"err.command_interrupted": {"Interrupted: the node that sent it stopped before the device answered", "已中断：发送命令的节点在设备应答前已停止"},
}

func init() { register(durabilityMessages) }
