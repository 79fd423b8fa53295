-- The storage data model (issue 26, docs/mqtt.md "Storage data model"; internal/ess): the values a
-- storage unit reports beside those seeded in 0004, with their names in both languages. PCS.Power
-- is now the converter's AC power (+ to the site, - charging), as the agent reports it. A name an operator already added is kept.
INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, label_en, label_zh, created_at, updated_at)
 SELECT (SELECT id FROM data_group WHERE name = 'Energy storage'), 'Battery.Power', 'storage', 'float', '-10000000~10000000|0', 'W', 'Battery power (+ discharge, − charge)', '电池功率（+放电，−充电）', 0, 0
 WHERE NOT EXISTS (SELECT 1 FROM data_item WHERE name = 'Battery.Power');
INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, label_en, label_zh, created_at, updated_at)
 SELECT (SELECT id FROM data_group WHERE name = 'Energy storage'), 'Cell.Voltage.Min', 'storage', 'float', '0~10|3', 'V', 'Lowest cell voltage', '最低单体电压', 0, 0
 WHERE NOT EXISTS (SELECT 1 FROM data_item WHERE name = 'Cell.Voltage.Min');
INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, label_en, label_zh, created_at, updated_at)
 SELECT (SELECT id FROM data_group WHERE name = 'Energy storage'), 'Cell.Voltage.Max', 'storage', 'float', '0~10|3', 'V', 'Highest cell voltage', '最高单体电压', 0, 0
 WHERE NOT EXISTS (SELECT 1 FROM data_item WHERE name = 'Cell.Voltage.Max');
INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, label_en, label_zh, created_at, updated_at)
 SELECT (SELECT id FROM data_group WHERE name = 'Energy storage'), 'Cell.Temperature.Min', 'storage', 'float', '-50~150|1', '°C', 'Lowest cell temperature', '最低单体温度', 0, 0
 WHERE NOT EXISTS (SELECT 1 FROM data_item WHERE name = 'Cell.Temperature.Min');
INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, label_en, label_zh, created_at, updated_at)
 SELECT (SELECT id FROM data_group WHERE name = 'Energy storage'), 'Cell.Temperature.Max', 'storage', 'float', '-50~150|1', '°C', 'Highest cell temperature', '最高单体温度', 0, 0
 WHERE NOT EXISTS (SELECT 1 FROM data_item WHERE name = 'Cell.Temperature.Max');
INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, label_en, label_zh, created_at, updated_at)
 SELECT (SELECT id FROM data_group WHERE name = 'Energy storage'), 'PCS.State', 'storage', 'enum', 'off|Off
standby|Standby
charging|Charging
discharging|Discharging
fault|Fault', '', 'Converter state', '变流器状态', 0, 0
 WHERE NOT EXISTS (SELECT 1 FROM data_item WHERE name = 'PCS.State');
INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, label_en, label_zh, created_at, updated_at)
 SELECT (SELECT id FROM data_group WHERE name = 'Energy storage'), 'PCS.Mode', 'storage', 'enum', 'selfConsumption|Self-consumption
peakShaving|Peak shaving
backup|Backup
manual|Manual', '', 'Operating mode', '运行模式', 0, 0
 WHERE NOT EXISTS (SELECT 1 FROM data_item WHERE name = 'PCS.Mode');
INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, label_en, label_zh, created_at, updated_at)
 SELECT (SELECT id FROM data_group WHERE name = 'Energy storage'), 'PCS.Setpoint', 'storage', 'float', '-10000000~10000000|0', 'W', 'Power setpoint', '功率设定值', 0, 0
 WHERE NOT EXISTS (SELECT 1 FROM data_item WHERE name = 'PCS.Setpoint');
INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, label_en, label_zh, created_at, updated_at)
 SELECT (SELECT id FROM data_group WHERE name = 'Energy storage'), 'PCS.RatedPower', 'storage', 'float', '0~10000000|0', 'W', 'Converter rated power', '变流器额定功率', 0, 0
 WHERE NOT EXISTS (SELECT 1 FROM data_item WHERE name = 'PCS.RatedPower');
INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, label_en, label_zh, created_at, updated_at)
 SELECT (SELECT id FROM data_group WHERE name = 'Energy storage'), 'Grid.Power', 'storage', 'float', '-10000000~10000000|0', 'W', 'Grid power (+ import)', '电网功率（+取电）', 0, 0
 WHERE NOT EXISTS (SELECT 1 FROM data_item WHERE name = 'Grid.Power');
INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, label_en, label_zh, created_at, updated_at)
 SELECT (SELECT id FROM data_group WHERE name = 'Energy storage'), 'Load.Power', 'storage', 'float', '0~10000000|0', 'W', 'Site load', '站点负荷', 0, 0
 WHERE NOT EXISTS (SELECT 1 FROM data_item WHERE name = 'Load.Power');
INSERT INTO data_item (group_id, name, category, data_type, data_range, unit, label_en, label_zh, created_at, updated_at)
 SELECT (SELECT id FROM data_group WHERE name = 'Energy storage'), 'Battery.Capacity', 'storage', 'float', '0~100000000|0', 'Wh', 'Usable capacity', '可用容量', 0, 0
 WHERE NOT EXISTS (SELECT 1 FROM data_item WHERE name = 'Battery.Capacity');
UPDATE data_item SET label_en = 'Converter power (+ to the site)', label_zh = '变流器功率（+向站点供电）' WHERE name = 'PCS.Power';
