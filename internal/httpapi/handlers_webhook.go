package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/openapi/webhook"
)

// Webhooks (docs/webhooks.md). The service limits every call to one application's webhooks:
// the signed caller's own, or one in the console caller's scope.

func (s *Server) v1Webhooks(c *Ctx, _ Empty) ([]webhook.Webhook, error) {
	o, err := webhook.Signed(c.App, c.P)
	if err != nil {
		return nil, err
	}
	return s.Webhooks.List(c, o)
}

func (s *Server) v1WebhookSave(c *Ctx, in webhook.Input) (webhook.Webhook, error) {
	o, err := webhook.Signed(c.App, c.P)
	if err != nil {
		return webhook.Webhook{}, err
	}
	return s.Webhooks.Save(c, o, in)
}

func (s *Server) v1WebhookDelete(c *Ctx, in webhook.IDsInput) (Empty, error) {
	o, err := webhook.Signed(c.App, c.P)
	if err != nil {
		return Empty{}, err
	}
	return Empty{}, s.Webhooks.Delete(c, o, in.IDs)
}

func (s *Server) v1WebhookDeliveries(c *Ctx, in webhook.DeliveryFilter) (db.List[webhook.Delivery], error) {
	o, err := webhook.Signed(c.App, c.P)
	if err != nil {
		return db.List[webhook.Delivery]{}, err
	}
	return s.Webhooks.Deliveries(c, o, in)
}

func (s *Server) webhookList(c *Ctx, in webhook.AppInput) ([]webhook.Webhook, error) {
	o, err := s.Webhooks.Console(c, c.P, in.AppID)
	if err != nil {
		return nil, err
	}
	return s.Webhooks.List(c, o)
}

func (s *Server) webhookSave(c *Ctx, in webhook.ConsoleSave) (webhook.Webhook, error) {
	o, err := s.Webhooks.Console(c, c.P, in.AppID)
	if err != nil {
		return webhook.Webhook{}, err
	}
	return s.Webhooks.Save(c, o, in.Input)
}

func (s *Server) webhookDelete(c *Ctx, in webhook.ConsoleDelete) (Empty, error) {
	o, err := s.Webhooks.Console(c, c.P, in.AppID)
	if err != nil {
		return Empty{}, err
	}
	return Empty{}, s.Webhooks.Delete(c, o, in.IDs)
}

func (s *Server) webhookDeliveries(c *Ctx, in webhook.ConsoleDeliveries) (db.List[webhook.Delivery], error) {
	o, err := s.Webhooks.Console(c, c.P, in.AppID)
	if err != nil {
		return db.List[webhook.Delivery]{}, err
	}
	return s.Webhooks.Deliveries(c, o, in.DeliveryFilter)
}
