package httpapi

// webhookRoutes are the applications' webhooks (docs/webhooks.md): managed by the application
// itself over the signed OpenAPI (any proven application, for its own webhooks only) and in the
// console on the application's detail page (an application in the caller's scope, with the
// application keys).
func (s *Server) webhookRoutes() []Route {
	const v1 = "/openapi/v1/webhooks"
	detail := []string{"auth_application_detail", "auth_application_edit"}
	edit := []string{"auth_application_edit"}
	base := "/api/auth/sys/application/webhook/"
	return []Route{
		{Method: "GET", Path: v1, Signed: true, Objects: ByCustomer, Access: Session, Tag: "openapi-v1",
			Summary: "The calling application's webhooks (at most 5)", Handler: H(s.v1Webhooks)},
		{Method: "POST", Path: v1, Signed: true, Objects: ByCustomer, Access: Session, Tag: "openapi-v1",
			Summary: "Add a webhook (id 0) or change one of the calling application's: url, events (device.status, alarm, command.result), enabled", Handler: H(s.v1WebhookSave)},
		{Method: "POST", Path: v1 + "/delete", Signed: true, Objects: ByCustomer, Access: Session, Tag: "openapi-v1",
			Summary: "Delete webhooks of the calling application with their deliveries", Handler: H(s.v1WebhookDelete)},
		{Method: "GET", Path: v1 + "/deliveries", Signed: true, Objects: ByCustomer, Access: Session, Tag: "openapi-v1",
			Summary: "The calling application's webhook deliveries, newest first (webhook, event, status; paged)", Handler: H(s.v1WebhookDeliveries)},

		{Method: "POST", Path: base + "list", Objects: ByCustomer, Access: Keys, Keys: detail, Tag: "application",
			Summary: "An application's webhooks", Handler: H(s.webhookList)},
		{Method: "POST", Path: base + "save", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "application",
			Summary: "Add (id 0) or change a webhook of an application", Handler: H(s.webhookSave)},
		{Method: "POST", Path: base + "delete", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "application",
			Summary: "Delete webhooks of an application with their deliveries", Handler: H(s.webhookDelete)},
		{Method: "POST", Path: base + "deliveries", Objects: ByCustomer, Access: Keys, Keys: detail, Reads: true, Tag: "application",
			Summary: "An application's webhook deliveries, newest first (paged)", Handler: H(s.webhookDeliveries)},
	}
}
