import { useQuery } from '@tanstack/react-query';
import { sessionApi } from '../session/session.api.ts';

function truthy(value: unknown): boolean {
  return value === true || value === 'true' || value === 1 || value === '1';
}

/**
 * Watermark and copy-paste settings (SPEC §6), read in one place. The watermark comes from
 * watermarkConfig; sys_paste_copy and the strong-password switch from the client config list, which every
 * signed-in user may read.
 */
export function useSecurityConfig(enabled: boolean) {
  const watermark = useQuery({
    queryKey: ['sysAuth', 'watermarkConfig'],
    queryFn: sessionApi.watermarkConfig,
    enabled,
    staleTime: 5 * 60_000,
  });
  const clientConfig = useQuery({
    queryKey: ['sysConfig', 'clientList'],
    queryFn: sessionApi.clientConfig,
    enabled,
    staleTime: 5 * 60_000,
  });

  const pasteCopy = clientConfig.data?.find((item) => item.code === 'sys_paste_copy')?.value;
  const strongPassword = truthy(
    clientConfig.data?.find((item) => item.code === 'sys_password_strong')?.value,
  );

  return {
    watermark: watermark.data?.enabled ? watermark.data : null,
    pasteCopyBlocked: truthy(pasteCopy),
    strongPassword,
  };
}
