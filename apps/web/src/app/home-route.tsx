import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useSessionStore } from '../platform/session/session.store.ts';
import { DASHBOARD_PATH, homePath } from './navigation.ts';

/** The signed-in user's home page: the enterprise portal for an enterprise (666) account, else /dashboard. */
export function useHomePath(): string {
  return homePath(useSessionStore((state) => state.userInfo?.accountType));
}

/** `/`: the user's home page (SPEC §2). */
export function HomeIndex() {
  return <Navigate to={useHomePath()} replace />;
}

/** `/dashboard` is the staff's home; an enterprise account opening it gets its portal instead. */
export function DashboardGate({ children }: { children: ReactNode }) {
  const home = useHomePath();
  return home === DASHBOARD_PATH ? children : <Navigate to={home} replace />;
}
