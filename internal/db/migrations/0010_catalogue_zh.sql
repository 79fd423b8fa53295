-- Display names of the data catalogue in both languages: the console shows a data item as
-- "label (unit)" in the user's language (the name stays the key devices report, e.g. an OCPP
-- measurand), and a data group by its name and description in that language.
ALTER TABLE data_group ADD COLUMN name_zh TEXT NOT NULL DEFAULT '';
ALTER TABLE data_group ADD COLUMN description_zh TEXT NOT NULL DEFAULT '';
ALTER TABLE data_item ADD COLUMN label_en TEXT NOT NULL DEFAULT '';
ALTER TABLE data_item ADD COLUMN label_zh TEXT NOT NULL DEFAULT '';

UPDATE data_group SET name_zh = '充电', description_zh = '充电桩在电表数据消息中上报的 OCPP 1.6 测量值' WHERE name = 'Charging';
UPDATE data_group SET name_zh = '储能', description_zh = '电池储能设备上报的数据' WHERE name = 'Energy storage';
UPDATE data_group SET name_zh = '设备健康', description_zh = '设备自身的温度与状态' WHERE name = 'Device health';

UPDATE data_item SET label_en = 'Voltage', label_zh = '电压' WHERE name = 'Voltage';
UPDATE data_item SET label_en = 'Current (import)', label_zh = '输入电流' WHERE name = 'Current.Import';
UPDATE data_item SET label_en = 'Current (export)', label_zh = '输出电流' WHERE name = 'Current.Export';
UPDATE data_item SET label_en = 'Current offered', label_zh = '可用电流' WHERE name = 'Current.Offered';
UPDATE data_item SET label_en = 'Active power (import)', label_zh = '输入有功功率' WHERE name = 'Power.Active.Import';
UPDATE data_item SET label_en = 'Active power (export)', label_zh = '输出有功功率' WHERE name = 'Power.Active.Export';
UPDATE data_item SET label_en = 'Power offered', label_zh = '可用功率' WHERE name = 'Power.Offered';
UPDATE data_item SET label_en = 'Power factor', label_zh = '功率因数' WHERE name = 'Power.Factor';
UPDATE data_item SET label_en = 'Frequency', label_zh = '频率' WHERE name = 'Frequency';
UPDATE data_item SET label_en = 'Energy imported', label_zh = '累计输入电量' WHERE name = 'Energy.Active.Import.Register';
UPDATE data_item SET label_en = 'Energy exported', label_zh = '累计输出电量' WHERE name = 'Energy.Active.Export.Register';
UPDATE data_item SET label_en = 'State of charge', label_zh = '荷电状态' WHERE name = 'SoC';
UPDATE data_item SET label_en = 'Fan speed', label_zh = '风扇转速' WHERE name = 'RPM';
UPDATE data_item SET label_en = 'Temperature', label_zh = '温度', unit = '°C' WHERE name = 'Temperature';
UPDATE data_item SET label_en = 'Connector status', label_zh = '充电枪状态' WHERE name = 'ConnectorStatus';
UPDATE data_item SET label_en = 'Battery state of charge', label_zh = '电池荷电状态' WHERE name = 'Battery.SoC';
UPDATE data_item SET label_en = 'Battery state of health', label_zh = '电池健康度' WHERE name = 'Battery.SoH';
UPDATE data_item SET label_en = 'Battery voltage', label_zh = '电池电压' WHERE name = 'Battery.Voltage';
UPDATE data_item SET label_en = 'Battery current', label_zh = '电池电流' WHERE name = 'Battery.Current';
UPDATE data_item SET label_en = 'Battery temperature', label_zh = '电池温度', unit = '°C' WHERE name = 'Battery.Temperature';
UPDATE data_item SET label_en = 'PCS power', label_zh = 'PCS 功率' WHERE name = 'PCS.Power';
UPDATE data_item SET label_en = 'Grid frequency', label_zh = '电网频率' WHERE name = 'Grid.Frequency';
