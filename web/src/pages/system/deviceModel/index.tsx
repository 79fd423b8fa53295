/** system/device-model/:id? — the model list, or (with an id) one model with its config, param and control items. */
import { useParams } from 'react-router';
import ModelList from './ModelList';
import ModelDetail from './ModelDetail';

export default function DeviceModelPage() {
  const id = Number(useParams().id ?? 0);
  return id > 0 ? <ModelDetail id={id} /> : <ModelList />;
}
