/** 设备计量值：测量位置（OCPP 1.6 Location），显示在数据项之后。 */
export default {
  'meter.statusAt': '设备上报时间',
  'meter.location.Body': '机身',
  'meter.location.Cable': '线缆',
  'meter.location.EV': '车辆',
  'meter.location.Inlet': '进线',
  'meter.location.Outlet': '出线',
};
