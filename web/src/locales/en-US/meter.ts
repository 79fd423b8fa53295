/** A device's meter values: where a value was measured (OCPP 1.6 Location), shown after its data item. */
export default {
  'meter.statusAt': 'Charger time',
  'meter.location.Body': 'Body',
  'meter.location.Cable': 'Cable',
  'meter.location.EV': 'EV',
  'meter.location.Inlet': 'Inlet',
  'meter.location.Outlet': 'Outlet',
};
