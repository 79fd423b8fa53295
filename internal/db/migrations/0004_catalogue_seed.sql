-- The data catalogue starts with what chargers (OCPP 1.6 measurands) and storage units report.
INSERT INTO data_group (name, description, created_at, updated_at) VALUES
 ('Charging', 'OCPP 1.6 measurands reported by chargers in MeterValues', 0, 0),
 ('Energy storage', 'Values reported by battery storage units', 0, 0),
 ('Device health', 'Temperatures and states of the device itself', 0, 0);

INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, created_at, updated_at) VALUES
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'Voltage', 'measurand', 'float', '0~1500|1', 'V', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'Current.Import', 'measurand', 'float', '0~1000|1', 'A', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'Current.Export', 'measurand', 'float', '0~1000|1', 'A', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'Current.Offered', 'measurand', 'float', '0~1000|1', 'A', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'Power.Active.Import', 'measurand', 'float', '0~1000000|0', 'W', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'Power.Active.Export', 'measurand', 'float', '0~1000000|0', 'W', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'Power.Offered', 'measurand', 'float', '0~1000000|0', 'W', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'Power.Factor', 'measurand', 'float', '0~1|2', '', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'Frequency', 'measurand', 'float', '0~100|2', 'Hz', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'Energy.Active.Import.Register', 'measurand', 'float', '0~10000000|3', 'kWh', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'Energy.Active.Export.Register', 'measurand', 'float', '0~10000000|3', 'kWh', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'SoC', 'measurand', 'int', '0~100', '%', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Charging'), 'RPM', 'measurand', 'int', '0~100000', 'rpm', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Device health'), 'Temperature', 'measurand', 'float', '-50~150|1', 'Celsius', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Device health'), 'ConnectorStatus', 'status', 'enum', 'Available|Available
Preparing|Preparing
Charging|Charging
SuspendedEV|SuspendedEV
SuspendedEVSE|SuspendedEVSE
Finishing|Finishing
Reserved|Reserved
Unavailable|Unavailable
Faulted|Faulted', '', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Energy storage'), 'Battery.SoC', 'storage', 'float', '0~100|1', '%', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Energy storage'), 'Battery.SoH', 'storage', 'float', '0~100|1', '%', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Energy storage'), 'Battery.Voltage', 'storage', 'float', '0~1500|1', 'V', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Energy storage'), 'Battery.Current', 'storage', 'float', '-1000~1000|1', 'A', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Energy storage'), 'Battery.Temperature', 'storage', 'float', '-50~150|1', 'Celsius', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Energy storage'), 'PCS.Power', 'storage', 'float', '-1000000~1000000|0', 'W', 0, 0),
 ((SELECT id FROM data_group WHERE name = 'Energy storage'), 'Grid.Frequency', 'storage', 'float', '0~100|2', 'Hz', 0, 0);
