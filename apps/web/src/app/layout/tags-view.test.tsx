import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { type TagEntry, useTagsStore } from '../tags/tags.store.ts';
import { TagsView } from './tags-view.tsx';

const tag = (path: string, title: string, isAffix = false): TagEntry => ({
  path,
  name: path,
  query: {},
  meta: { title, isAffix },
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              <TagsView resolve={() => undefined} top={0} />
              <Where />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

const tabOf = (path: string) =>
  screen.getByTestId('tags-view').querySelector(`[data-node-key="${path}"] [role="tab"]`) as HTMLElement;

describe('TagsView', () => {
  beforeEach(() => {
    act(() => {
      useTagsStore.getState().reset();
      for (const entry of [
        tag('/dashboard', '首页', true),
        tag('/system/user', '账号管理'),
        tag('/system/role', '角色管理'),
      ])
        useTagsStore.getState().open(entry);
    });
  });

  it('holds only tabs in its tablist: the close cross sits inside the tab, the home tab has none', () => {
    renderAt('/system/role');
    const list = within(screen.getByTestId('tags-view')).getByRole('tablist');
    expect(list.querySelectorAll('.ant-tabs-tab button, .ant-tabs-tab-remove')).toHaveLength(0);
    expect(within(tabOf('/system/user')).getByTestId('tags-view-close')).toBeTruthy();
    expect(within(tabOf('/dashboard')).queryByTestId('tags-view-close')).toBeNull();
  });

  it('closes a tab with its cross, and the focused tab with Delete, moving on from the active one', () => {
    renderAt('/system/role');
    fireEvent.click(within(tabOf('/system/user')).getByTestId('tags-view-close'));
    expect(useTagsStore.getState().tags.map((entry) => entry.path)).toEqual(['/dashboard', '/system/role']);
    expect(screen.getByTestId('where').textContent).toBe('/system/role');

    fireEvent.keyDown(tabOf('/system/role'), { key: 'Delete', code: 'Delete' });
    expect(useTagsStore.getState().tags.map((entry) => entry.path)).toEqual(['/dashboard']);
    expect(screen.getByTestId('where').textContent).toBe('/dashboard');

    fireEvent.keyDown(tabOf('/dashboard'), { key: 'Delete', code: 'Delete' });
    expect(useTagsStore.getState().tags.map((entry) => entry.path)).toEqual(['/dashboard']);
  });
});
