import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../services/queryClient';
import { SESSION_KEY } from '../models/session';
import { Can } from './access';

function as(auth: string[], root = false) {
  queryClient.setQueryData(SESSION_KEY, { user: { id: 1, root }, role: { auth } } as never);
  render(
    <QueryClientProvider client={queryClient}>
      <Can keys={['auth_site_list', 'auth_site_add']}>
        <span>any</span>
      </Can>
      <Can keys={['auth_site_list', 'auth_site_add']} mode="all">
        <span>all</span>
      </Can>
      <Can keys={['auth_site_list', 'auth_site_add']} mode="none">
        <span>none</span>
      </Can>
    </QueryClientProvider>,
  );
  return ['any', 'all', 'none'].filter((t) => screen.queryByText(t) !== null);
}

afterEach(() => {
  cleanup();
  queryClient.clear();
});

describe('<Can> element directive', () => {
  it('a user with one key sees any, not all, not none', () => expect(as(['auth_site_list'])).toEqual(['any']));
  it('a user with every key sees any and all', () => expect(as(['auth_site_list', 'auth_site_add'])).toEqual(['any', 'all']));
  it('a user with none of the keys sees only none', () => expect(as(['auth_menu'])).toEqual(['none']));
  it('root holds every key: any and all, never none', () => expect(as([], true)).toEqual(['any', 'all']));
});
