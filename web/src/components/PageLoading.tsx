import { Spin } from 'antd';

export default function PageLoading({ full = false }: { full?: boolean }) {
  return (
    <div
      data-testid="page-loading"
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: full ? '100vh' : 240, width: '100%' }}
    >
      <Spin size="large" />
    </div>
  );
}
