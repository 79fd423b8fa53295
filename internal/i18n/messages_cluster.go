package i18n

// clusterMessages: the cluster of nodes over NATS (docs/gateway.md, "Scale-out").
var clusterMessages = map[string][2]string{
	"err.cluster_unavailable": {"Cluster link unavailable, try again: the device is connected to another node, which cannot be reached now", "集群链路不可用，请稍后重试：设备连接在另一节点上，当前无法访问该节点"},
}

func init() { register(clusterMessages) }
