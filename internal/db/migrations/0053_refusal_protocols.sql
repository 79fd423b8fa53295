-- The sub-protocols a refused connection offered (issue 24, docs/gateway.md, "Admission"): a
-- charger that offers none chargeops speaks (ocpp2.0.1 alone, today) is refused with reason
-- unsupported_protocol, and the operator sees what it asked for. '' when it offered none or the
-- refusal has nothing to do with them.
ALTER TABLE device_refusal ADD COLUMN protocols TEXT NOT NULL DEFAULT '';
