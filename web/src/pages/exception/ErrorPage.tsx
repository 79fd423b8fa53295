/** /error: the network-error view (?title=&description= optional). */
import { useSearchParams } from 'react-router';
import NetworkError from '../../components/NetworkError';

export default function ErrorPage() {
  const [params] = useSearchParams();
  return (
    <div style={{ paddingTop: 80 }}>
      <NetworkError title={params.get('title') ?? undefined} description={params.get('description') ?? undefined} showReload />
    </div>
  );
}
